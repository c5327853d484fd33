// The DOM-free decisions of <svc-playlist-editor>: what a key pressed on a row asks for, which
// library items a filter keeps, and the English strings composed from their two modules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editingStrings } from '../../../src/elements/svc-playlist-editor/editing.strings.js';
import { rowKey } from '../../../src/elements/svc-playlist-editor/items.js';
import { matching } from '../../../src/elements/svc-playlist-editor/library.js';
import { loadingStrings } from '../../../src/elements/svc-playlist-editor/loading.strings.js';
import { defaultStrings } from '../../../src/elements/svc-playlist-editor/strings.js';
import type { LibraryItem } from '../../../src/core/relay-client.js';

const key = (name: string, modifiers: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) =>
  ({ key: name, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...modifiers }) as KeyboardEvent;

describe('rowKey', () => {
  // [what is pressed, on the row itself (not a button in it), row index, row count, what it asks for]
  const cases: [string, KeyboardEvent, boolean, number, number, ReturnType<typeof rowKey>][] = [
    ['Alt+ArrowDown moves down', key('ArrowDown', { altKey: true }), true, 0, 3, { move: 1 }],
    ['Alt+ArrowUp moves up', key('ArrowUp', { altKey: true }), true, 2, 3, { move: 1 }],
    ['Alt+ArrowUp on a button moves too', key('ArrowUp', { altKey: true }), false, 1, 3, { move: 0 }],
    ['Alt+ArrowUp on the first row: handled, nothing to do', key('ArrowUp', { altKey: true }), true, 0, 3, null],
    ['Alt+ArrowDown on the last row: handled, nothing to do', key('ArrowDown', { altKey: true }), true, 2, 3, null],
    ['ArrowDown goes to the next row', key('ArrowDown'), true, 0, 3, { focus: 1 }],
    ['ArrowUp on the first row stays', key('ArrowUp'), true, 0, 3, { focus: 0 }],
    ['ArrowDown on the last row stays', key('ArrowDown'), true, 2, 3, { focus: 2 }],
    ['ArrowDown on a button is the button\'s', key('ArrowDown'), false, 0, 3, undefined],
    ['Home goes to the first row', key('Home'), true, 2, 3, { focus: 0 }],
    ['End goes to the last row', key('End'), true, 0, 3, { focus: 2 }],
    ['Delete removes', key('Delete'), true, 1, 3, { remove: true }],
    ['Delete on a button is the button\'s', key('Delete'), false, 1, 3, undefined],
    ['Ctrl+ArrowDown is not the list\'s', key('ArrowDown', { ctrlKey: true, altKey: true }), true, 0, 3, undefined],
    ['Shift+ArrowDown is not the list\'s', key('ArrowDown', { shiftKey: true }), true, 0, 3, undefined],
    ['Meta+Delete is not the list\'s', key('Delete', { metaKey: true }), true, 0, 3, undefined],
    ['Alt+Home is not the list\'s', key('Home', { altKey: true }), true, 1, 3, undefined],
    ['a letter is not the list\'s', key('a'), true, 0, 3, undefined],
  ];
  for (const [name, event, onRow, index, count, expected] of cases) {
    it(name, () => assert.deepEqual(rowKey(event, onRow, index, count), expected));
  }
});

describe('matching', () => {
  const item = (id: string, title: string): LibraryItem => ({ id, title, type: 'vod', created_at: '2026-01-01T00:00:00Z' });
  const library = [item('vod-1', 'Road Trip'), item('ch-9', 'Morning news'), item('vod-2', '')];
  const ids = (filter: string) => matching(library, filter).map((each) => each.id);
  it('keeps everything for an empty or blank filter', () => {
    assert.deepEqual(ids(''), ['vod-1', 'ch-9', 'vod-2']);
    assert.deepEqual(ids('   '), ['vod-1', 'ch-9', 'vod-2']);
  });
  it('matches the title or the id, ignoring case and outer spaces', () => {
    assert.deepEqual(ids('road'), ['vod-1']);
    assert.deepEqual(ids(' NEWS '), ['ch-9']);
    assert.deepEqual(ids('vod-'), ['vod-1', 'vod-2']);
    assert.deepEqual(ids('nothing like it'), []);
  });
});

describe('defaultStrings', () => {
  it('is the loading strings and the editing strings, with no key in both', () => {
    assert.deepEqual(Object.keys(loadingStrings).filter((k) => Object.hasOwn(editingStrings, k)), []);
    assert.deepEqual(defaultStrings, { ...loadingStrings, ...editingStrings });
  });
});
