// <svc-playlist-editor> in real browsers (Chromium, Firefox, WebKit), against the real relay and
// local service (see web-test-runner.config.mjs). What the relay stores is checked with its own GET
// after each step; test/support/wtr/svc-playlist-editor.ts puts items into a playlist behind the
// relay's back.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/svc-playlist-editor/define.js';
import type { SvcPlaylistEditor } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { AnnotatedPlaylist } from '../../../src/core/relay-client.js';
import type { PlaylistErrorDetail } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import { control, seedVod, trustRelayOrigin } from '../../support/browser.js';

// Mocha globals, provided by web-test-runner.
declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;
declare const afterEach: (body: () => Promise<unknown>) => void;

type Ref = { id: string; type: 'vod' | 'channel' | null; title: string };

const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

async function relay<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/svc${path}`, {
    method,
    headers: JSON_HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function helper<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`/__playlist-editor/${path}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

let unique = 0;
const name = (what: string) => `${what} ${Date.now().toString(36)}-${++unique}`;

async function vod(): Promise<Ref> {
  const { vod_id, title } = await seedVod();
  return { id: vod_id, type: 'vod', title };
}

async function channel(): Promise<Ref> {
  const title = name('PE channel');
  const created = await relay<{ id: string }>('POST', '/channels', {
    title,
    description: 'playlist editor test',
    region: 'europe',
    rendition_count: 1,
  });
  return { id: created.id, type: 'channel', title };
}

async function playlistWith(items: Ref[]): Promise<string> {
  const created = await relay<AnnotatedPlaylist>('POST', '/playlists', { title: name('PE list'), description: 'test' });
  if (items.length) {
    await relay('PUT', `/playlists/${created.id}/content`, { items: items.map(({ id, type }) => ({ id, type })) });
  }
  return created.id;
}

/** What the relay holds now: `[id, type]` in order. */
async function stored(id: string): Promise<[string, string | null][]> {
  const playlist = await relay<AnnotatedPlaylist>('GET', `/playlists/${id}`);
  return (playlist.content.list ?? []).map((item) => [item.id, item.type]);
}

/** Mounts an editor on an existing playlist and resolves once it has loaded. */
async function mount(playlistId: string): Promise<SvcPlaylistEditor> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = document.createElement('svc-playlist-editor');
  el.setAttribute('playlist-id', playlistId);
  const loaded = oneEvent(el, 'svc-playlist-load');
  container.append(el);
  await loaded;
  await el.updateComplete;
  return el;
}

function $<T extends Element = HTMLElement>(el: SvcPlaylistEditor, selector: string): T {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

const rows = (el: SvcPlaylistEditor) => [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[part~="item"]')];
/** What the element shows: `[id, badge text]` in order. */
const shown = (el: SvcPlaylistEditor) =>
  rows(el).map((row) => [row.dataset.id, row.querySelector('[part~="badge"]')!.textContent!.trim()]);
const row = (el: SvcPlaylistEditor, id: string) => $<HTMLLIElement>(el, `li[part~="item"][data-id="${id}"]`);
const live = (el: SvcPlaylistEditor) => $(el, '[part~="live"]').textContent!.trim();
const active = (el: SvcPlaylistEditor) => el.shadowRoot!.activeElement as HTMLElement | null;
/** A key pressed with a modifier held, through the real keyboard (test/support/browsers/commands.ts). */
async function chord(modifier: 'Alt' | 'Control', key: string): Promise<void> {
  await executeServerCommand('svc-key-chord', { modifier, key });
}
const badge = (ref: Ref) => (ref.type === 'vod' ? 'VOD' : 'Channel');

async function click(el: SvcPlaylistEditor, selector: string): Promise<void> {
  $<HTMLButtonElement>(el, selector).click();
  await el.updateComplete;
}

async function addFromLibrary(el: SvcPlaylistEditor, ref: Ref): Promise<void> {
  const selector = `li[part~="library-item"][data-id="${ref.id}"] button`;
  await waitUntil(() => el.shadowRoot!.querySelector(selector), `library shows ${ref.id}`, { timeout: 10_000 });
  const changed = oneEvent(el, 'svc-playlist-change');
  await click(el, selector);
  expect((await changed).detail.kind).to.equal('add');
}

async function save(el: SvcPlaylistEditor): Promise<CustomEvent> {
  const saved = oneEvent(el, 'svc-playlist-save');
  await click(el, 'button[part~="save"]');
  return saved;
}

describe('<svc-playlist-editor>', function () {
  afterEach(() => control('/settings', { list_item_types: true }));
  this.timeout(60_000);

  it('creates a playlist, adds two VODs and a channel from the library, reorders, saves; a fresh element shows exactly that; a removal sticks', async () => {
    const [v1, v2, ch] = await Promise.all([vod(), vod(), channel()]);
    const el = await fixture<SvcPlaylistEditor>(html`<svc-playlist-editor></svc-playlist-editor>`);
    expect(el.getAttribute('state')).to.equal('create');

    // The form refuses an empty title, with the reason shown and tied to the field.
    await click(el, 'form[part~="form"] button[type="submit"]');
    expect($(el, '#title').getAttribute('aria-invalid')).to.equal('true');
    expect($(el, '#title-error').textContent).to.contain('Enter a title');
    expect(el.hasAttribute('playlist-id')).to.equal(false);

    const title = name('Road trip');
    $<HTMLInputElement>(el, '#title').value = title;
    $<HTMLTextAreaElement>(el, '#description').value = 'Videos from the road';
    const created = oneEvent(el, 'svc-playlist-create');
    await click(el, 'form[part~="form"] button[type="submit"]');
    const { detail } = await created;
    expect(el.getAttribute('playlist-id')).to.equal(detail.playlistId);
    expect(detail.playlist.title).to.equal(title);
    await el.updateComplete;
    expect(active(el)?.id).to.equal('playlist-heading', 'focus moves to the new playlist');
    expect($(el, '[part~="title"]').textContent).to.equal(title);
    expect($(el, '[part~="description"]').textContent).to.equal('Videos from the road');
    const id = detail.playlistId;
    expect(await stored(id)).to.deep.equal([]);

    await addFromLibrary(el, v1);
    await addFromLibrary(el, v2);
    // The filter box narrows the library by title or id, typed with the real keyboard.
    const libraryIds = () =>
      [...el.shadowRoot!.querySelectorAll<HTMLElement>('li[part~="library-item"]')].map((item) => item.dataset.id);
    expect(libraryIds()).to.include.members([v1.id, v2.id, ch.id]);
    $(el, 'input[part~="filter"]').focus();
    await sendKeys({ type: 'no such thing' });
    await el.updateComplete;
    expect(libraryIds()).to.deep.equal([]);
    expect($(el, '[part~="library"]').textContent).to.contain('Nothing in your library matches “no such thing”.');
    $<HTMLInputElement>(el, 'input[part~="filter"]').select();
    await sendKeys({ type: ch.title });
    await el.updateComplete;
    expect(libraryIds()).to.deep.equal([ch.id]);
    await addFromLibrary(el, ch);
    $<HTMLInputElement>(el, 'input[part~="filter"]').select();
    await sendKeys({ press: 'Backspace' });
    await el.updateComplete;
    expect(libraryIds()).to.include.members([v1.id, v2.id, ch.id]);
    expect(shown(el)).to.deep.equal([
      [v1.id, 'VOD'],
      [v2.id, 'VOD'],
      [ch.id, 'Channel'],
    ]);
    expect(el.hasAttribute('dirty')).to.equal(true);
    expect($(el, '[part~="dirty"]').textContent).to.equal('Unsaved changes');
    // A library item already in the list cannot be added twice.
    const again = $<HTMLButtonElement>(el, `li[part~="library-item"][data-id="${v1.id}"] button`);
    expect(again.getAttribute('aria-disabled')).to.equal('true');
    again.click();
    await el.updateComplete;
    expect(rows(el)).to.have.length(3);

    // Reorder: the channel to the top with its Up button (twice), then v1 below v2 by drag and drop.
    await click(el, `li[data-id="${ch.id}"] button[data-action="up"]`);
    await click(el, `li[data-id="${ch.id}"] button[data-action="up"]`);
    expect(live(el)).to.equal(`Moved ${ch.title} to position 1 of 3.`);
    const from = row(el, v1.id);
    const to = row(el, v2.id);
    const transfer = new DataTransfer();
    from.dispatchEvent(new DragEvent('dragstart', { bubbles: true, dataTransfer: transfer }));
    await el.updateComplete;
    const box = to.getBoundingClientRect();
    to.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer, clientY: box.bottom - 2 }));
    await el.updateComplete;
    expect(to.dataset.drop).to.equal('after');
    to.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer, clientY: box.bottom - 2 }));
    from.dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: transfer }));
    await el.updateComplete;
    expect(live(el)).to.equal(`Moved ${v1.title} to position 3 of 3.`);
    const order = [ch, v2, v1];
    expect(shown(el)).to.deep.equal(order.map((r) => [r.id, badge(r)]));
    expect(await stored(id)).to.deep.equal([], 'nothing is sent before Save');

    const saved = await save(el);
    expect(saved.detail.items).to.deep.equal(order.map(({ id, type }) => ({ id, type })));
    expect(el.hasAttribute('dirty')).to.equal(false);
    // The test stack's service applies saves after a delay: shown as saved, with a quiet note.
    expect(saved.detail.playlist.pending).to.equal(true);
    await el.updateComplete;
    expect($(el, '[part~="status"]').textContent).to.equal('Saved; the service is still applying it.');
    expect(shown(el)).to.deep.equal(order.map((r) => [r.id, badge(r)]));
    expect(await stored(id)).to.deep.equal(order.map((r) => [r.id, r.type]));

    // A fresh element loading the same playlist shows exactly that order and those types.
    const fresh = await mount(id);
    expect(shown(fresh)).to.deep.equal(order.map((r) => [r.id, badge(r)]));
    expect(rows(fresh).map((r) => r.querySelector('.title')!.textContent)).to.deep.equal(order.map((r) => r.title));

    // Remove one, save, reload: it is gone and the rest kept in order.
    await click(fresh, `li[data-id="${v2.id}"] button[data-action="remove"]`);
    expect(live(fresh)).to.equal(`Removed ${v2.title}. Items left: 2.`);
    await save(fresh);
    expect(await stored(id)).to.deep.equal([
      [ch.id, 'channel'],
      [v1.id, 'vod'],
    ]);
    const third = await mount(id);
    expect(shown(third)).to.deep.equal([
      [ch.id, 'Channel'],
      [v1.id, 'VOD'],
    ]);
  });

  it('two editors on one playlist: the second save shows the conflict and overwrites nothing unless chosen', async () => {
    const [v1, v2, ch] = await Promise.all([vod(), vod(), channel()]);
    const id = await playlistWith([v1]);
    const a = await mount(id);
    const b = await mount(id);

    await addFromLibrary(a, v2);
    await save(a);
    const theirs: [string, string][] = [
      [v1.id, 'vod'],
      [v2.id, 'vod'],
    ];
    expect(await stored(id)).to.deep.equal(theirs);

    await addFromLibrary(b, ch);
    await click(b, `li[data-id="${ch.id}"] button[data-action="up"]`);
    const conflict = oneEvent(b, 'svc-playlist-conflict');
    await click(b, 'button[part~="save"]');
    const { detail } = await conflict;
    await b.updateComplete;
    expect(detail.current.content.list!.map((item: { id: string }) => item.id)).to.deep.equal([v1.id, v2.id]);
    expect(detail.items.map((item: { id: string }) => item.id)).to.deep.equal([ch.id, v1.id]);
    expect(b.getAttribute('state')).to.equal('conflict');
    expect($(b, '[part~="conflict"]').textContent).to.contain('Someone else changed this playlist');
    expect(active(b)?.id).to.equal('conflict-heading', 'focus goes to the conflict');
    expect($(b, 'button[part~="save"]').getAttribute('aria-disabled')).to.equal('true');
    expect($(b, '[part~="reason"]').textContent).to.contain('choose what to do');
    expect(await stored(id)).to.deep.equal(theirs, 'the conflicting save overwrote nothing');
    expect(shown(b).map(([rowId]) => rowId)).to.deep.equal([ch.id, v1.id], 'my edits are still on screen');

    // "Reload their version" asks first; cancelling keeps mine and overwrites nothing.
    await click(b, 'button[data-action="reload"]');
    expect($(b, '[part~="conflict"]').textContent).to.contain('Discard your changes');
    await click(b, 'button[data-action="cancel-reload"]');
    expect(shown(b).map(([rowId]) => rowId)).to.deep.equal([ch.id, v1.id]);
    expect(await stored(id)).to.deep.equal(theirs);

    // "Overwrite with mine" does overwrite, deliberately.
    const saved = oneEvent(b, 'svc-playlist-save');
    await click(b, 'button[data-action="overwrite"]');
    expect((await saved).detail.overwrite).to.equal(true);
    expect(await stored(id)).to.deep.equal([
      [ch.id, 'channel'],
      [v1.id, 'vod'],
    ]);
    expect(b.getAttribute('state')).to.equal('ready');
    expect(b.hasAttribute('dirty')).to.equal(false);
    expect(active(b)?.id).to.equal('playlist-heading', 'focus moves to the title once the panel is gone');
  });

  it('after a conflict, "Reload their version" (confirmed) shows theirs, keeps theirs stored, and undo brings mine back', async () => {
    const [v1, v2] = await Promise.all([vod(), vod()]);
    const id = await playlistWith([v1, v2]);
    const a = await mount(id);
    const b = await mount(id);

    await click(a, `li[data-id="${v2.id}"] button[data-action="up"]`);
    await save(a);
    await click(b, `li[data-id="${v1.id}"] button[data-action="remove"]`);
    const conflict = oneEvent(b, 'svc-playlist-conflict');
    await click(b, 'button[part~="save"]');
    await conflict;
    await b.updateComplete;
    const theirs: [string, string][] = [
      [v2.id, 'vod'],
      [v1.id, 'vod'],
    ];
    expect(await stored(id)).to.deep.equal(theirs);

    await click(b, 'button[data-action="reload"]');
    const loaded = oneEvent(b, 'svc-playlist-load');
    await click(b, 'button[data-action="confirm-reload"]');
    await loaded;
    await b.updateComplete;
    expect(shown(b).map(([rowId]) => rowId)).to.deep.equal([v2.id, v1.id]);
    expect(b.hasAttribute('dirty')).to.equal(false);
    expect(b.shadowRoot!.querySelector('[part~="conflict"]')).to.equal(null);
    expect(await stored(id)).to.deep.equal(theirs, 'reloading sends nothing');
    expect(active(b)?.id).to.equal('playlist-heading');

    await click(b, 'button[part~="undo"]');
    expect(shown(b).map(([rowId]) => rowId)).to.deep.equal([v2.id], 'mine is back, as a change against theirs');
    expect(b.hasAttribute('dirty')).to.equal(true);
  });

  it('an item the relay cannot type blocks saving until typed, and is never dropped', async () => {
    const v1 = await vod();
    const id = await playlistWith([v1]);
    // The service gives no item types here (as the seed shows), so the relay can only use its own knowledge.
    await control('/settings', { list_item_types: false });
    // A channel made on the service directly: the relay has never heard of it.
    const hidden = await helper<{ id: string; title: string }>('upstream-channel', { title: name('Hidden channel') });
    await helper('upstream-content', {
      playlist_id: id,
      items: [
        { id: v1.id, type: 'vod' },
        { id: hidden.id, type: 'channel' },
      ],
    });
    // The test stack's service shows a change after a delay (eventual consistency).
    await waitUntil(async () => (await stored(id)).length === 2, 'the service shows the change', { timeout: 10_000 });
    expect(await stored(id)).to.deep.equal([
      [v1.id, 'vod'],
      [hidden.id, null],
    ]);

    const el = await mount(id);
    expect(shown(el)).to.deep.equal([
      [v1.id, 'VOD'],
      [hidden.id, 'Unknown type'],
    ]);
    const select = $<HTMLSelectElement>(el, `li[data-id="${hidden.id}"] select[part~="type-select"]`);
    expect(select.getAttribute('aria-label')).to.equal(`Type of ${hidden.title}`);
    expect(select.value).to.equal('', 'no type is pre-chosen');

    // Remove the known item: the list is dirty, but Save is blocked with the reason shown.
    await click(el, `li[data-id="${v1.id}"] button[data-action="remove"]`);
    expect(live(el)).to.equal(`Removed ${v1.title}. Items left: 1.`);
    expect(el.hasAttribute('dirty')).to.equal(true);
    const saveButton = $<HTMLButtonElement>(el, 'button[part~="save"]');
    expect(saveButton.getAttribute('aria-disabled')).to.equal('true');
    const reason = $(el, '[part~="reason"]');
    expect(reason.hidden).to.equal(false);
    expect(reason.textContent).to.contain('Unknown type');
    expect(saveButton.getAttribute('aria-describedby')).to.equal(reason.id);
    // Pressing it says why and sends nothing; saving through the API is refused too, with a stable code.
    saveButton.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(live(el)).to.equal(reason.textContent!.trim());
    const refused = oneEvent(el, 'svc-error');
    expect(await el.save()).to.equal(false);
    expect(((await refused).detail as PlaylistErrorDetail).code).to.equal('type_required');
    expect(await stored(id)).to.deep.equal([
      [v1.id, 'vod'],
      [hidden.id, null],
    ]);

    // Typed wrongly (it is a channel, not a VOD), the service refuses the save: the error is shown
    // and the list is untouched, on screen and stored.
    const typeSelect = $<HTMLSelectElement>(el, `li[data-id="${hidden.id}"] select[part~="type-select"]`);
    typeSelect.value = 'vod';
    typeSelect.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const wrong = oneEvent(el, 'svc-error');
    await click(el, 'button[part~="save"]');
    expect((await wrong).detail.code).to.not.equal('conflict');
    await el.updateComplete;
    expect($(el, '[part~="error"]').textContent).to.contain('The playlist was not saved');
    expect(shown(el)).to.deep.equal([[hidden.id, 'VOD']]);
    expect(el.hasAttribute('dirty')).to.equal(true);
    expect(await stored(id)).to.deep.equal([
      [v1.id, 'vod'],
      [hidden.id, null],
    ]);

    // Typed rightly, it saves; the item is kept with the chosen type.
    typeSelect.value = 'channel';
    typeSelect.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(live(el)).to.equal(`${hidden.title} is now a Channel.`);
    expect(saveButton.getAttribute('aria-disabled')).to.equal('false');
    expect(reason.hidden).to.equal(true);
    const saved = await save(el);
    expect(saved.detail.items).to.deep.equal([{ id: hidden.id, type: 'channel' }]);
    expect((await stored(id)).map(([itemId]) => itemId)).to.deep.equal([hidden.id]);
    expect(shown(el)).to.deep.equal([[hidden.id, 'Channel']]);
    expect(typeSelect.value).to.equal('channel');
    expect(el.hasAttribute('dirty')).to.equal(false);
    // The relay remembers the type the service accepted: a fresh editor shows it typed.
    const fresh = await mount(id);
    expect(shown(fresh)).to.deep.equal([[hidden.id, 'Channel']]);
  });

  it('reorders by keyboard only, with focus following the item and each move announced; Ctrl+Z undoes; axe finds no violation', async () => {
    const [v1, v2, ch] = await Promise.all([vod(), vod(), channel()]);
    const id = await playlistWith([v1, v2, ch]);
    const el = await mount(id);
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="library-list"]'), 'library loaded', { timeout: 10_000 });
    await expect(el).to.be.accessible();

    row(el, v1.id).focus();
    await chord('Alt', 'ArrowDown');
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, v1.id, ch.id]);
    expect(live(el)).to.equal(`Moved ${v1.title} to position 2 of 3.`);
    expect(active(el)?.dataset.id).to.equal(v1.id, 'focus follows the moved item');

    await chord('Alt', 'ArrowDown');
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, ch.id, v1.id]);
    expect(live(el)).to.equal(`Moved ${v1.title} to position 3 of 3.`);
    expect(active(el)?.dataset.id).to.equal(v1.id);

    // Arrow Up goes to the previous item; Alt+Arrow Up moves it.
    await sendKeys({ press: 'ArrowUp' });
    expect(active(el)?.dataset.id).to.equal(ch.id);
    await chord('Alt', 'ArrowUp');
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([ch.id, v2.id, v1.id]);
    expect(live(el)).to.equal(`Moved ${ch.title} to position 1 of 3.`);

    // Ctrl+Z undoes the last move, and says so.
    await chord('Control', 'z');
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, ch.id, v1.id]);
    expect(live(el)).to.equal('Undid the last change.');

    // The row's Up button, pressed with the keyboard: focus stays on that button, on the moved item.
    row(el, v1.id).focus();
    await sendKeys({ press: 'Tab' });
    expect(active(el)?.dataset.action).to.equal('up');
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, v1.id, ch.id]);
    expect(live(el)).to.equal(`Moved ${v1.title} to position 2 of 3.`);
    expect(active(el)?.dataset.action).to.equal('up');
    expect(active(el)?.closest('li')?.dataset.id).to.equal(v1.id);

    await expect(el).to.be.accessible();
    $(el, 'button[part~="save"]').focus();
    const saved = oneEvent(el, 'svc-playlist-save');
    await sendKeys({ press: 'Enter' });
    await saved;
    await el.updateComplete;
    expect(active(el)?.getAttribute('part')).to.equal('save', 'focus stays on Save after saving');
    const savedOrder: [string, string][] = [
      [v2.id, 'vod'],
      [v1.id, 'vod'],
      [ch.id, 'channel'],
    ];
    expect(await stored(id)).to.deep.equal(savedOrder);

    // Delete on a focused row removes it (announced, focus on the next row); Ctrl+Z brings it back.
    row(el, v1.id).focus();
    await sendKeys({ press: 'Delete' });
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, ch.id]);
    expect(live(el)).to.equal(`Removed ${v1.title}. Items left: 2.`);
    expect(active(el)?.dataset.id).to.equal(ch.id);
    await chord('Control', 'z');
    await el.updateComplete;
    expect(shown(el).map(([rowId]) => rowId)).to.deep.equal([v2.id, v1.id, ch.id]);
    expect(el.hasAttribute('dirty')).to.equal(false);
    expect(await stored(id)).to.deep.equal(savedOrder);
  });

  it('asks before leaving with unsaved changes, and only then; Revert is undoable', async () => {
    const v1 = await vod();
    const id = await playlistWith([v1]);
    const el = await mount(id);
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).to.equal(false);
    await click(el, `li[data-id="${v1.id}"] button[data-action="remove"]`);
    expect(leave()).to.equal(true);
    await click(el, 'button[part~="undo"]');
    expect(leave()).to.equal(false);

    // Revert discards the changes (nothing is sent) and can itself be undone.
    await click(el, `li[data-id="${v1.id}"] button[data-action="remove"]`);
    expect(rows(el)).to.have.length(0);
    const reverted = oneEvent(el, 'svc-playlist-change');
    await click(el, 'button[part~="revert"]');
    expect((await reverted).detail).to.include({ kind: 'revert', dirty: false });
    expect(shown(el)).to.deep.equal([[v1.id, 'VOD']]);
    expect(leave()).to.equal(false);
    await click(el, 'button[part~="undo"]');
    expect(rows(el)).to.have.length(0);
    expect(el.hasAttribute('dirty')).to.equal(true);
    expect(await stored(id)).to.deep.equal([[v1.id, 'vod']]);
  });

  it('adds by id and type, with validation; strings are replaceable; the creation form and the conflict panel are accessible', async () => {
    const [v1, ch] = await Promise.all([vod(), channel()]);
    const id = await playlistWith([v1]);
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = document.createElement('svc-playlist-editor');
    el.strings = { save: 'Speichern', vod: 'Video' };
    el.setAttribute('playlist-id', id);
    const loaded = oneEvent(el, 'svc-playlist-load');
    container.append(el);
    await loaded;
    await el.updateComplete;
    expect($(el, 'button[part~="save"]').textContent!.trim()).to.equal('Speichern');
    expect(shown(el)).to.deep.equal([[v1.id, 'Video']]);

    await click(el, 'form[part~="add-by-id"] button[type="submit"]');
    expect($(el, '#add-id').getAttribute('aria-invalid')).to.equal('true');
    expect($(el, '#add-type').getAttribute('aria-invalid')).to.equal('true');
    expect(active(el)?.id).to.equal('add-id');
    $<HTMLInputElement>(el, '#add-id').value = v1.id;
    $<HTMLSelectElement>(el, '#add-type').value = 'vod';
    await click(el, 'form[part~="add-by-id"] button[type="submit"]');
    expect($(el, '#add-id-error').textContent).to.contain('already in the playlist');
    expect(rows(el)).to.have.length(1);

    $<HTMLInputElement>(el, '#add-id').value = ch.id;
    $<HTMLSelectElement>(el, '#add-type').value = 'channel';
    await click(el, 'form[part~="add-by-id"] button[type="submit"]');
    expect(shown(el)).to.deep.equal([
      [v1.id, 'Video'],
      [ch.id, 'Channel'],
    ]);
    await save(el);
    expect(await stored(id)).to.deep.equal([
      [v1.id, 'vod'],
      [ch.id, 'channel'],
    ]);

    const form = await fixture<SvcPlaylistEditor>(html`<svc-playlist-editor></svc-playlist-editor>`);
    await click(form, 'form[part~="form"] button[type="submit"]');
    await expect(form).to.be.accessible();

    const other = await mount(id);
    await click(el, `li[data-id="${v1.id}"] button[data-action="remove"]`);
    await save(el);
    await click(other, `li[data-id="${ch.id}"] button[data-action="remove"]`);
    const conflict = oneEvent(other, 'svc-playlist-conflict');
    await click(other, 'button[part~="save"]');
    await conflict;
    await other.updateComplete;
    await expect(other).to.be.accessible();
  });

  it('reports a playlist it cannot load with svc-error and a retry', async () => {
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = document.createElement('svc-playlist-editor');
    el.setAttribute('playlist-id', 'no-such-playlist');
    const failed = oneEvent(el, 'svc-error');
    container.append(el);
    const { detail } = await failed;
    expect(detail.code).to.equal('not_found');
    expect((detail as PlaylistErrorDetail).playlistId).to.equal('no-such-playlist');
    await el.updateComplete;
    expect(el.getAttribute('state')).to.equal('error');
    expect($(el, '[part~="error"]').textContent).to.contain('There is no playlist “no-such-playlist”');
    // Trying again cannot help: the element offers a new playlist instead.
    expect(el.shadowRoot!.querySelectorAll('button').length).to.equal(1);
    expect($(el, 'button').textContent!.trim()).to.equal('Create a new playlist');
    await click(el, 'button');
    expect(el.hasAttribute('playlist-id')).to.equal(false);
    expect(el.getAttribute('state')).to.equal('create');
    expect(el.shadowRoot!.querySelector('form[part~="form"]')).to.not.equal(null);
  });

  it('offers "Try again" when loading failed for another reason', async () => {
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = document.createElement('svc-playlist-editor');
    trustRelayOrigin('http://127.0.0.1:9');
    el.setAttribute('relay', 'http://127.0.0.1:9/svc');
    el.setAttribute('playlist-id', 'p1');
    const failed = oneEvent(el, 'svc-error');
    container.append(el);
    expect((await failed).detail.code).to.equal('relay_unreachable');
    await el.updateComplete;
    expect($(el, '[part~="error"]').textContent).to.contain('could not be loaded');
    expect($(el, 'button').textContent!.trim()).to.equal('Try again');
  });
});
