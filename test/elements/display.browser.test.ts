// Every element under forced colors (Windows High Contrast) and at 320 CSS px (200 % zoom on a
// small phone), issue 33 items 5 and 6. Forced colors are emulated in Chromium through the
// DevTools protocol (test/support/wtr/display.ts); what is checked is what the engine painted
// (screenshots): the click-to-load player's play button and edge, and the editor's drop marker,
// in the light and the dark scheme. Reflow: at 320 px no element makes the page scroll sideways
// and no word is broken across lines.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import '../../src/elements/define.js';
import type { SvcPlayer } from '../../src/elements/svc-player/svc-player.js';
import type { SvcPlaylistEditor } from '../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { SvcUploader } from '../../src/elements/svc-uploader/svc-uploader.js';
import type { AnnotatedPlaylist } from '../../src/core/relay-client.js';
import { seedVod, videoFile } from '../support/browser.js';
import { inkGaps, screenshot } from '../support/screenshot.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: (this: { timeout(ms: number): void; skip(): void }) => Promise<void>) => void;
declare const afterEach: (body: () => Promise<unknown>) => void;

const DISPLAY = 'svc-display';
const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };

/** Forced colors and a scheme; false where the driver cannot emulate them (not Chromium). */
const display = (media: { forcedColors?: 'active' | 'none'; colorScheme?: 'light' | 'dark' }) => executeServerCommand<boolean, typeof media>(DISPLAY, media);

/** A 320 px viewport where the driver can set one (not WebKitWebDriver); the elements are also put in a 320 px box. */
async function narrow(): Promise<boolean> {
  try {
    await setViewport({ width: 320, height: 640 });
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await display({});
  await setViewport({ width: 800, height: 600 }).catch(() => {});
});

async function relay<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/svc${path}`, { method, headers: JSON_HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A playlist of two real VODs whose titles are long (words to wrap, none to break). */
async function playlist(): Promise<string> {
  const ids = [(await seedVod()).vod_id, (await seedVod()).vod_id];
  const created = await relay<AnnotatedPlaylist>('POST', '/playlists', { title: 'Quarterly results presentation for the regional teams', description: 'display' });
  await relay('PUT', `/playlists/${created.id}/content`, { items: ids.map((id) => ({ id, type: 'vod' })) });
  return created.id;
}

async function editor(narrowBox = false): Promise<SvcPlaylistEditor> {
  const id = await playlist();
  const element = html`<svc-playlist-editor id="display-editor" playlist-id=${id}></svc-playlist-editor>`;
  const el = narrowBox
    ? ((await fixture<HTMLElement>(box(element))).firstElementChild as SvcPlaylistEditor)
    : await fixture<SvcPlaylistEditor>(element);
  await waitUntil(() => el.shadowRoot!.querySelectorAll('li[part~="item"]').length === 2, 'the two rows', { timeout: 15_000 });
  return el;
}

/** Pixels that differ between two pictures of the same box within `region` (a box on the page). */
function changed(a: ImageData, b: ImageData, scale: number, box: DOMRect, region: DOMRect): number {
  let count = 0;
  const y0 = Math.max(0, Math.round((region.top - box.top) * scale));
  const y1 = Math.min(a.height, Math.round((region.bottom - box.top) * scale));
  const x0 = Math.max(0, Math.round((region.left - box.left) * scale));
  const x1 = Math.min(a.width, Math.round((region.right - box.left) * scale));
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const i = (y * a.width + x) * 4;
    if (Math.max(Math.abs(a.data[i]! - b.data[i]!), Math.abs(a.data[i + 1]! - b.data[i + 1]!), Math.abs(a.data[i + 2]! - b.data[i + 2]!)) > 64) count++;
  }
  return count;
}

describe('forced colors (Chromium)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`a click-to-load player without a poster shows its play button and its edge (${colorScheme})`, async function () {
      if (!(await display({ forcedColors: 'active', colorScheme }))) return this.skip();
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
      const { vod_id } = await seedVod();
      const el = await fixture<SvcPlayer>(html`<svc-player id="display-player" content-id=${vod_id} loading="click" style="width: 320px"></svc-player>`);
      await waitUntil(() => el.shadowRoot!.querySelector('button[part~=play]'), 'the play button', { timeout: 10_000 });
      const button = el.shadowRoot!.querySelector('.play')!.getBoundingClientRect();
      const picture = await screenshot('#display-player');
      const { box } = picture;
      expect(inkGaps(picture, button).ink, 'the play button is drawn').to.be.greaterThan(40);
      const edge = new DOMRect(box.left, box.top + box.height / 4, 3, box.height / 2);
      expect(inkGaps(picture, edge).ink, 'the edge is drawn').to.be.greaterThan(0);
    });

    it(`the editor's drop marker shows while dragging (${colorScheme})`, async function () {
      this.timeout(60_000);
      if (!(await display({ forcedColors: 'active', colorScheme }))) return this.skip();
      const el = await editor();
      const rows = el.shadowRoot!.querySelectorAll<HTMLElement>('li[part~="item"]');
      const target = rows[1]!;
      const before = await screenshot('#display-editor');
      const dataTransfer = new DataTransfer();
      rows[0]!.dispatchEvent(new DragEvent('dragstart', { bubbles: true, composed: true, dataTransfer }));
      const rect = target.getBoundingClientRect();
      target.dispatchEvent(new DragEvent('dragover', { bubbles: true, composed: true, cancelable: true, dataTransfer, clientX: rect.left + 20, clientY: rect.bottom - 3 }));
      await el.updateComplete;
      expect(target.dataset.drop).to.equal('after');
      const after = await screenshot('#display-editor');
      const marked = target.getBoundingClientRect();
      const band = new DOMRect(marked.left + 8, marked.bottom - 4, marked.width - 16, 6);
      const differing = changed(before.pixels, after.pixels, after.scale, after.box, band);
      expect(differing, 'pixels of the marker at the row’s bottom edge').to.be.greaterThan(band.width * 2);
      target.dispatchEvent(new DragEvent('dragend', { bubbles: true, composed: true, dataTransfer }));
    });
  }
});

/** Words of the element's visible text that are broken across two lines (none may be). */
function brokenWords(root: ShadowRoot): string[] {
  const broken: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const parent = node.parentElement;
    if (!parent || parent.getBoundingClientRect().width <= 1 || parent.closest('.visually-hidden, [hidden], option, select, style')) continue;
    // Tokens between spaces, hyphens and slashes (where a line may break).
    for (const match of node.data.matchAll(/[^\s\-/]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}

/** The element in a 320 px box that scrolls when anything in it overflows. */
const box = (content: unknown) => html`<div class="narrow" style="max-width: 320px; overflow: auto">${content}</div>`;

function expectReflow(el: HTMLElement, viewport: boolean): void {
  const wrapper = el.closest<HTMLElement>('.narrow')!;
  expect(wrapper.scrollWidth, 'nothing overflows the 320 px box').to.be.at.most(wrapper.clientWidth);
  if (viewport) {
    const page = document.documentElement;
    expect(page.scrollWidth, 'the page does not scroll sideways').to.be.at.most(page.clientWidth);
  }
  expect(brokenWords(el.shadowRoot!), 'words broken mid-token').to.deep.equal([]);
}

describe('reflow at 320 CSS px', () => {
  it('<svc-uploader> with a row', async function () {
    this.timeout(60_000);
    const viewport = await narrow();
    const el = (await fixture<HTMLElement>(box(html`<svc-uploader multiple></svc-uploader>`))).firstElementChild as SvcUploader;
    el.addEventListener('svc-upload-select', (event) => event.preventDefault(), { once: true });
    await el.addFiles([await videoFile('sample-2s.mp4'), new File(['not a video'], 'meeting-notes-2026.txt', { type: 'text/plain' })]);
    await waitUntil(() => el.shadowRoot!.querySelector('li[data-state=failed]'), 'the rejected row');
    expectReflow(el, viewport);
  });

  it('<svc-player loading="click">', async () => {
    const viewport = await narrow();
    const { vod_id } = await seedVod();
    const el = (await fixture<HTMLElement>(box(html`<svc-player content-id=${vod_id} loading="click"></svc-player>`))).firstElementChild as SvcPlayer;
    await waitUntil(() => el.shadowRoot!.querySelector('button[part~=play]'), 'the play button', { timeout: 10_000 });
    expectReflow(el, viewport);
  });

  it('<svc-playlist-editor> with two rows and its library', async function () {
    this.timeout(60_000);
    const viewport = await narrow();
    const el = await editor(true);
    await waitUntil(() => el.shadowRoot!.querySelector('li[part~="library-item"]'), 'the library', { timeout: 15_000 });
    expectReflow(el, viewport);
  });

  it('<svc-channel-setup>', async () => {
    const viewport = await narrow();
    const el = (await fixture<HTMLElement>(box(html`<svc-channel-setup></svc-channel-setup>`))).firstElementChild as HTMLElement;
    await waitUntil(() => el.shadowRoot!.querySelector('form, input'), 'the form');
    expectReflow(el, viewport);
  });
});
