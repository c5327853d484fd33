// <svc-playlist-editor> with a large library (issue 33, item 4): the library scrolls inside its
// list and the element keeps to its box: the page is no taller than the element, whatever the
// library's length (its buttons' visually hidden labels stay inside the scrolling list).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/svc-playlist-editor/define.js';
import type { SvcPlaylistEditor } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { AnnotatedPlaylist } from '../../../src/core/relay-client.js';
import { trustRelayOrigin } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: (this: { timeout(ms: number): void }) => Promise<void>) => void;

const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

/** A relay (test/support/wtr/svc-playlist-editor.ts) whose library holds `count` VODs, with a playlist of the first five. */
async function bigLibrary(count: number): Promise<{ relay: string; playlistId: string }> {
  const answer = await fetch('/__playlist-editor/big-library', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ count, allowed_origins: [location.origin] }) });
  const { relay_url: relay } = (await answer.json()) as { relay_url: string };
  trustRelayOrigin(relay);
  const created = await fetch(`${relay}/playlists`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title: `Big library ${Date.now()}`, description: 'scale' }) });
  expect(created.status).to.equal(201);
  return { relay, playlistId: ((await created.json()) as AnnotatedPlaylist).id };
}

describe('<svc-playlist-editor> with a large library', () => {
  it('keeps to its box with a library of 500 items: the page is no taller than the element', async function () {
    this.timeout(60_000);
    const { relay, playlistId } = await bigLibrary(500);
    const el = await fixture<SvcPlaylistEditor>(html`<svc-playlist-editor relay=${relay} playlist-id=${playlistId}></svc-playlist-editor>`);
    const listed = () => el.shadowRoot!.querySelectorAll('li[part~="library-item"]').length;
    // A hundred are listed, then a line and a button to list all (a keystroke lays out a hundred rows).
    await waitUntil(() => listed() === 100, 'the first 100 library items', { timeout: 30_000 });
    const more = el.shadowRoot!.querySelector<HTMLElement>('[part~="library-more"]')!;
    expect(more.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Showing 100 of 500: type to narrow the list, or show all 500');
    more.querySelector<HTMLButtonElement>('[part~="library-show-all"]')!.click();
    await el.updateComplete;
    expect(listed()).to.equal(500);
    const first = el.shadowRoot!.querySelectorAll('li[part~="library-item"]')[100]!.querySelector('button');
    await waitUntil(() => el.shadowRoot!.activeElement === first, 'focus on the first row that "show all" listed');
    expect(el.shadowRoot!.querySelector('[part~="library-more"]')).to.equal(null);
    const list = el.shadowRoot!.querySelector<HTMLElement>('[part~="library-list"]')!;
    expect(list.scrollHeight, 'the library scrolls inside its list').to.be.greaterThan(list.clientHeight * 5);
    const box = el.getBoundingClientRect();
    const bottom = Math.ceil(box.bottom + window.scrollY);
    const page = document.documentElement.scrollHeight;
    expect(page, `page ${page} px, element ends at ${bottom} px (${Math.round(box.height)} px tall)`).to.be.at.most(bottom + 40);
    expect(document.documentElement.scrollWidth).to.be.at.most(document.documentElement.clientWidth);
    // Typing narrows (and lists a hundred at most again).
    const filter = el.shadowRoot!.querySelector<HTMLInputElement>('#filter')!;
    filter.value = 'video 4';
    filter.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(listed(), 'Library video 4, 40-49, 400-499').to.equal(100);
    expect(el.shadowRoot!.querySelector('[part~="library-more"]')!.textContent).to.contain('Showing 100 of 111');
  });
});
