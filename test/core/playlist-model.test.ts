import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../src/core/errors.js';
import { PlaylistModel, entriesFromPlaylist, type PlaylistSource } from '../../src/core/playlist-model.js';
import type { ContentType } from '../../src/service/types.js';

type Raw = { id: string; position: string; title: string; type?: ContentType | null };
const playlist = (list: Raw[] | null): PlaylistSource => ({ content: { list } });
const item = (id: string, position: string, type: ContentType | null = 'vod'): Raw => ({
  id,
  position,
  title: `T${id}`,
  type,
});
const ids = (model: PlaylistModel) => model.items.map((i) => i.id).join(',');
const abc = () => PlaylistModel.fromPlaylist(playlist([item('a', '1'), item('b', '2', 'channel'), item('c', '3')]));

describe('entriesFromPlaylist', () => {
  const cases: { name: string; source: PlaylistSource; expected: string }[] = [
    { name: 'null list', source: playlist(null), expected: '' },
    { name: 'null content', source: { content: null }, expected: '' },
    { name: 'empty list', source: playlist([]), expected: '' },
    { name: 'in order', source: playlist([item('a', '1'), item('b', '2')]), expected: 'a:vod,b:vod' },
    { name: 'sorted by position', source: playlist([item('b', '2'), item('a', '1')]), expected: 'a:vod,b:vod' },
    { name: 'numeric not lexical', source: playlist([item('x', '10'), item('y', '9')]), expected: 'y:vod,x:vod' },
    { name: 'ties keep list order', source: playlist([item('p', '1'), item('q', '1')]), expected: 'p:vod,q:vod' },
    { name: 'unreadable position last, kept', source: playlist([item('z', ''), item('a', '1')]), expected: 'a:vod,z:vod' },
    { name: 'unknown type kept as null', source: playlist([item('a', '1', null)]), expected: 'a:null' },
    { name: 'missing type kept as null', source: playlist([{ id: 'a', position: '1', title: 't' }]), expected: 'a:null' },
    { name: 'channel typed', source: playlist([item('c', '1', 'channel')]), expected: 'c:channel' },
    {
      name: 'duplicates from the service are kept',
      source: playlist([item('a', '1'), item('a', '2')]),
      expected: 'a:vod,a:vod',
    },
  ];
  for (const { name, source, expected } of cases) {
    it(name, () => {
      assert.equal(
        entriesFromPlaylist(source)
          .map((e) => `${e.id}:${e.type}`)
          .join(','),
        expected,
      );
    });
  }

  it('fills unknown types from known ones, but the relay wins', () => {
    const entries = entriesFromPlaylist(
      playlist([item('a', '1', null), item('b', '2', 'vod')]),
      new Map<string, ContentType>([
        ['a', 'channel'],
        ['b', 'channel'],
      ]),
    );
    assert.deepEqual(
      entries.map((e) => [e.id, e.type, e.typeFixed]),
      [
        ['a', 'channel', false],
        ['b', 'vod', true],
      ],
    );
  });
});

describe('PlaylistModel edits', () => {
  const cases: { name: string; edit: (m: PlaylistModel) => PlaylistModel; expected: string; dirty: boolean }[] = [
    { name: 'nothing', edit: (m) => m, expected: 'a,b,c', dirty: false },
    { name: 'add appends', edit: (m) => m.add({ id: 'd', type: 'vod', title: 'D' }), expected: 'a,b,c,d', dirty: true },
    { name: 'add trims the id', edit: (m) => m.add({ id: ' d ', type: 'vod' }), expected: 'a,b,c,d', dirty: true },
    { name: 'add refuses a duplicate', edit: (m) => m.add({ id: 'b', type: 'channel' }), expected: 'a,b,c', dirty: false },
    { name: 'add refuses an empty id', edit: (m) => m.add({ id: '  ', type: 'vod' }), expected: 'a,b,c', dirty: false },
    { name: 'remove first', edit: (m) => m.remove(0), expected: 'b,c', dirty: true },
    { name: 'remove last', edit: (m) => m.remove(2), expected: 'a,b', dirty: true },
    { name: 'remove out of range', edit: (m) => m.remove(3), expected: 'a,b,c', dirty: false },
    { name: 'remove negative', edit: (m) => m.remove(-1), expected: 'a,b,c', dirty: false },
    { name: 'move down', edit: (m) => m.move(0, 1), expected: 'b,a,c', dirty: true },
    { name: 'move up', edit: (m) => m.move(2, 1), expected: 'a,c,b', dirty: true },
    { name: 'move first to last', edit: (m) => m.move(0, 2), expected: 'b,c,a', dirty: true },
    { name: 'move last to first', edit: (m) => m.move(2, 0), expected: 'c,a,b', dirty: true },
    { name: 'move to itself', edit: (m) => m.move(1, 1), expected: 'a,b,c', dirty: false },
    { name: 'move past the end', edit: (m) => m.move(2, 3), expected: 'a,b,c', dirty: false },
    { name: 'move before the start', edit: (m) => m.move(0, -1), expected: 'a,b,c', dirty: false },
    { name: 'move and back is clean', edit: (m) => m.move(0, 2).move(2, 0), expected: 'a,b,c', dirty: false },
    { name: 'remove then re-add elsewhere', edit: (m) => m.remove(0).add({ id: 'a', type: 'vod' }), expected: 'b,c,a', dirty: true },
    { name: 'remove then re-add at the end', edit: (m) => m.remove(2).add({ id: 'c', type: 'vod' }), expected: 'a,b,c', dirty: false },
    { name: 'undo an add', edit: (m) => m.add({ id: 'd', type: 'vod' }).undo(), expected: 'a,b,c', dirty: false },
    { name: 'undo a move only', edit: (m) => m.remove(0).move(0, 1).undo(), expected: 'b,c', dirty: true },
    { name: 'undo twice', edit: (m) => m.remove(0).move(0, 1).undo().undo(), expected: 'a,b,c', dirty: false },
    { name: 'undo with no history', edit: (m) => m.undo(), expected: 'a,b,c', dirty: false },
    { name: 'revert', edit: (m) => m.remove(1).move(0, 1).revert(), expected: 'a,b,c', dirty: false },
    { name: 'undo a revert', edit: (m) => m.remove(1).revert().undo(), expected: 'a,c', dirty: true },
    { name: 'refused change adds no history', edit: (m) => m.remove(0).move(5, 6).undo(), expected: 'a,b,c', dirty: false },
  ];
  for (const { name, edit, expected, dirty } of cases) {
    it(name, () => {
      const before = abc();
      const after = edit(before);
      assert.equal(ids(after), expected);
      assert.equal(after.dirty, dirty);
      assert.equal(ids(before), 'a,b,c', 'the original model is unchanged');
    });
  }

  it('a type change alone makes it dirty, a title does not count', () => {
    const model = PlaylistModel.fromPlaylist(playlist([item('a', '1', null)]));
    assert.equal(model.dirty, false);
    assert.equal(model.setType(0, 'channel').dirty, true);
  });
});

describe('PlaylistModel types', () => {
  const mixed = () =>
    PlaylistModel.fromPlaylist(playlist([item('a', '1'), item('u', '2', null), item('c', '3', 'channel')]));

  const cases: {
    name: string;
    edit: (m: PlaylistModel) => PlaylistModel;
    types: string;
    untyped: number[];
  }[] = [
    { name: 'as loaded', edit: (m) => m, types: 'vod,null,channel', untyped: [1] },
    { name: 'set an unknown type', edit: (m) => m.setType(1, 'channel'), types: 'vod,channel,channel', untyped: [] },
    { name: 'a relay type is fixed', edit: (m) => m.setType(0, 'channel'), types: 'vod,null,channel', untyped: [1] },
    { name: 'a chosen type may change', edit: (m) => m.setType(1, 'vod').setType(1, 'channel'), types: 'vod,channel,channel', untyped: [] },
    { name: 'an invalid type is refused', edit: (m) => m.setType(1, 'playlist' as ContentType), types: 'vod,null,channel', untyped: [1] },
    { name: 'out of range', edit: (m) => m.setType(7, 'vod'), types: 'vod,null,channel', untyped: [1] },
    { name: 'undo a type', edit: (m) => m.setType(1, 'vod').undo(), types: 'vod,null,channel', untyped: [1] },
    { name: 'moving keeps the flag', edit: (m) => m.move(1, 0), types: 'null,vod,channel', untyped: [0] },
    { name: 'add without a type', edit: (m) => m.add({ id: 'x', type: null }), types: 'vod,null,channel,null', untyped: [1, 3] },
    {
      name: 'a type chosen when adding by id may change',
      edit: (m) => m.add({ id: 'x', type: 'vod', typeFixed: false }).setType(3, 'channel'),
      types: 'vod,null,channel,channel',
      untyped: [1],
    },
    {
      name: 'a library type is fixed',
      edit: (m) => m.add({ id: 'x', type: 'vod' }).setType(3, 'channel'),
      types: 'vod,null,channel,vod',
      untyped: [1],
    },
  ];
  for (const { name, edit, types, untyped } of cases) {
    it(name, () => {
      const model = edit(mixed());
      assert.equal(model.items.map((i) => String(i.type)).join(','), types);
      assert.deepEqual(model.untyped, untyped);
      assert.equal(model.items.length, types.split(',').length, 'no item is dropped');
    });
  }
});

describe('PlaylistModel.toUpdateItems', () => {
  it('positions are "1".."n" in the edited order', () => {
    assert.deepEqual(abc().move(2, 0).toUpdateItems(), [
      { id: 'c', type: 'vod', position: '1' },
      { id: 'a', type: 'vod', position: '2' },
      { id: 'b', type: 'channel', position: '3' },
    ]);
  });

  it('an empty list is an empty array', () => {
    assert.deepEqual(PlaylistModel.fromPlaylist(playlist(null)).toUpdateItems(), []);
  });

  it('refuses while a type is unknown, naming the items', () => {
    const model = PlaylistModel.fromPlaylist(playlist([item('a', '1'), item('u', '2', null)]));
    assert.throws(
      () => model.toUpdateItems(),
      (error: unknown) =>
        error instanceof SvcError &&
        error.code === 'type_required' &&
        error.message.includes('u') &&
        JSON.stringify(error.fields) === JSON.stringify({ u: 'type is unknown' }),
    );
    assert.deepEqual(model.setType(1, 'channel').toUpdateItems(), [
      { id: 'a', type: 'vod', position: '1' },
      { id: 'u', type: 'channel', position: '2' },
    ]);
  });
});

describe('PlaylistModel.rebase', () => {
  it('after a save, the saved list is the new clean base', () => {
    const edited = abc().move(0, 2);
    const saved = edited.rebase(playlist([item('b', '1', 'channel'), item('c', '2'), item('a', '3')]));
    assert.equal(ids(saved), 'b,c,a');
    assert.equal(saved.dirty, false);
    assert.equal(saved.base.map((i) => i.id).join(','), 'b,c,a');
  });

  it('keeps a type the user chose when the relay still does not know it', () => {
    const model = PlaylistModel.fromPlaylist(playlist([item('u', '1', null)])).setType(0, 'channel');
    const saved = model.rebase(playlist([item('u', '1', null)]));
    assert.deepEqual(saved.items.map((i) => [i.id, i.type, i.typeFixed]), [['u', 'channel', false]]);
    assert.equal(saved.dirty, false);
  });

  it('reloading their version keeps mine in the history: undo brings it back', () => {
    const mine = abc().remove(1).add({ id: 'm', type: 'vod' });
    const theirs = mine.rebase(playlist([item('t', '1'), item('a', '2')]));
    assert.equal(ids(theirs), 't,a');
    assert.equal(theirs.dirty, false);
    const back = theirs.undo();
    assert.equal(ids(back), 'a,c,m');
    assert.equal(back.dirty, true, 'mine is now a change against their base');
  });
});

describe('PlaylistModel immutability', () => {
  it('items cannot be mutated in place', () => {
    const model = abc();
    assert.throws(() => (model.items as unknown as unknown[]).push({}));
  });
});

describe('PlaylistModel.has', () => {
  it('answers for the model it is asked of, across add, remove, move and undo', () => {
    const model = abc();
    assert.deepEqual(['a', 'b', 'c', 'x'].map((id) => model.has(id)), [true, true, true, false]);
    const added = model.add({ id: 'x', type: 'vod' });
    assert.equal(added.has('x'), true);
    assert.equal(model.has('x'), false, 'the earlier model is unchanged');
    const removed = added.remove(0);
    assert.equal(removed.has('a'), false);
    assert.equal(removed.move(0, 2).has('b'), true);
    assert.equal(removed.undo().has('a'), true);
  });
});
