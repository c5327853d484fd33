// <svc-playlist-editor> across changes of what it shows and where it is: another playlist-id shows
// that playlist (and only it), and moving the element in the page (disconnected, then connected
// again) leaves nothing half-loaded.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/elements/svc-playlist-editor/define.js';
import type { SvcPlaylistEditor } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { AnnotatedPlaylist } from '../../../src/core/relay-client.js';
import { relay, seedVod } from '../../support/browser.js';

declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

async function playlistWith(vodIds: string[]): Promise<string> {
  const { id } = await relay<AnnotatedPlaylist>('POST', '/playlists', { title: `PE lifecycle ${Date.now().toString(36)}`, description: 'test' });
  await relay('PUT', `/playlists/${id}/content`, { items: vodIds.map((vodId) => ({ id: vodId, type: 'vod' })) });
  return id;
}

const rowIds = (el: SvcPlaylistEditor) =>
  [...el.shadowRoot!.querySelectorAll<HTMLElement>('li[part~="item"]')].map((row) => row.dataset.id);

describe('<svc-playlist-editor> lifecycle', function () {
  this.timeout(60_000);

  it('shows another playlist when playlist-id changes, without the edits of the first', async () => {
    const [a, b] = await Promise.all([seedVod(), seedVod()]);
    const [first, second] = await Promise.all([playlistWith([a.vod_id]), playlistWith([b.vod_id])]);
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = document.createElement('svc-playlist-editor');
    el.setAttribute('playlist-id', first);
    const loaded = oneEvent(el, 'svc-playlist-load');
    container.append(el);
    await loaded;
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[data-action="remove"]')!.click();
    await el.updateComplete;
    expect(el.dirty).to.equal(true);

    const next = oneEvent(el, 'svc-playlist-load');
    el.playlistId = second;
    await el.updateComplete;
    expect(el.getAttribute('state')).to.equal('loading');
    expect((await next).detail.playlistId).to.equal(second);
    await el.updateComplete;
    expect(rowIds(el)).to.deep.equal([b.vod_id]);
    expect(el.dirty).to.equal(false);
    expect(el.hasAttribute('dirty')).to.equal(false);
    el.undo();
    await el.updateComplete;
    expect(rowIds(el)).to.deep.equal([b.vod_id], 'the first playlist\'s history is gone');
  });

  it('moved in the page while loading, it still loads the playlist and the library', async () => {
    const vod = await seedVod();
    const id = await playlistWith([vod.vod_id]);
    const [from, to] = [await fixture<HTMLDivElement>(html`<div></div>`), await fixture<HTMLDivElement>(html`<div></div>`)];
    const el = document.createElement('svc-playlist-editor');
    el.setAttribute('playlist-id', id);
    from.append(el);
    await el.updateComplete;
    const loaded = oneEvent(el, 'svc-playlist-load');
    to.append(el); // disconnected and connected again, the load in flight cut off
    await loaded;
    await el.updateComplete;
    expect(rowIds(el)).to.deep.equal([vod.vod_id]);
    // And once shown, moved again while the library loads: the library still arrives.
    to.append(document.createElement('span'));
    from.append(el);
    await waitUntil(() => el.shadowRoot!.querySelector(`li[part~="library-item"][data-id="${vod.vod_id}"]`), 'the library', { timeout: 10_000 });
    expect(el.shadowRoot!.querySelector('[part~="library"] [part~="error"]')).to.equal(null);
  });
});
