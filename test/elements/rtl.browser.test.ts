// Arabic lays out right to left, checked on the pixels the engine painted (not on the DOM): the
// uploader's and the editor's start-aligned text is drawn on the right in Arabic and on the left
// in English, with the same page, width and content.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/svc-playlist-editor/define.js';
import '../../src/elements/svc-uploader/define.js';
import type { SvcPlaylistEditor } from '../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { SvcUploader } from '../../src/elements/svc-uploader/svc-uploader.js';
import ar from '../../src/elements/locales/ar.js';
import { relay, seedVod } from '../support/browser.js';
import { inkGaps, screenshot, type Picture } from '../support/screenshot.js';

declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

/** Where the ink of `part` lies across its row in the element's screenshot, 0 (left) to 1 (right). */
function band(picture: Picture, host: Element, part: string, across: string): number {
  const target = host.shadowRoot!.querySelector(`[part~="${part}"]`)!;
  const row = host.shadowRoot!.querySelector(`[part~="${across}"]`)!;
  const { top, bottom } = target.getBoundingClientRect();
  const { left, right } = row.getBoundingClientRect();
  const gaps = inkGaps(picture, new DOMRect(left, top, right - left, bottom - top));
  expect(gaps.ink, `ink in the ${part} band`).to.be.greaterThan(20);
  return gaps.centre;
}

describe('right-to-left in Arabic (screenshots)', function () {
  this.timeout(60_000);

  it('<svc-uploader>: a row lays out from the right in Arabic, from the left in English', async () => {
    const centres: Record<string, number> = {};
    for (const lang of ['en', 'ar']) {
      const page = await fixture<HTMLDivElement>(html`<div id="rtl-${lang}" lang=${lang} style="width: 640px; background: #fff; color: #000; padding: 8px"><svc-uploader></svc-uploader></div>`);
      const uploader = page.querySelector<SvcUploader>('svc-uploader')!;
      if (lang === 'ar') {
        const dropzone = () => uploader.shadowRoot!.querySelector('[part~="dropzone"]')?.textContent?.trim();
        await waitUntil(() => dropzone() === ar['svc-uploader'].dropzoneSingle, 'the Arabic strings', { timeout: 10_000 });
      }
      const rejected = oneEvent(uploader, 'svc-error');
      await uploader.addFiles([new File([], 'a-long-file-name-to-lay-out-in-both-directions.mp4', { type: 'video/mp4' })]);
      await rejected;
      await uploader.updateComplete;
      await waitUntil(() => uploader.shadowRoot!.querySelector('[part~="name"]')?.getBoundingClientRect().width, 'the row, laid out');
      // Painted: WebKit's screenshot showed a row laid out but not yet drawn once in a while.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const picture = await screenshot(`#rtl-${lang}`);
      centres[lang] = band(picture, uploader, 'name', 'item');
    }
    expect(centres.en, 'English: the row starts on the left').to.be.below(0.45);
    expect(centres.ar, 'Arabic: the row starts on the right').to.be.above(0.55);
  });

  it('<svc-playlist-editor>: the title, the toolbar and the rows lay out from the right in Arabic', async () => {
    const { vod_id } = await seedVod();
    const playlist = await relay<{ id: string }>('POST', '/playlists', { title: 'RTL check', description: 'screenshot' });
    await relay('PUT', `/playlists/${playlist.id}/content`, { items: [{ id: vod_id, type: 'vod' }] });
    const centres: Record<string, Record<string, number>> = {};
    for (const lang of ['en', 'ar']) {
      const page = await fixture<HTMLDivElement>(html`<div id="rtl-editor-${lang}" lang=${lang} style="width: 720px; background: #fff; color: #000; padding: 8px"></div>`);
      const editor = document.createElement('svc-playlist-editor') as SvcPlaylistEditor;
      editor.setAttribute('playlist-id', playlist.id);
      const loaded = oneEvent(editor, 'svc-playlist-load');
      page.append(editor);
      await loaded;
      if (lang === 'ar') await waitUntil(() => editor.shadowRoot!.querySelector('[part~="save"]')!.textContent!.trim() === ar['svc-playlist-editor'].save, 'the Arabic strings', { timeout: 10_000 });
      await editor.updateComplete;
      const picture = await screenshot(`#rtl-editor-${lang}`);
      centres[lang] = {
        title: band(picture, editor, 'title', 'header'),
        toolbar: band(picture, editor, 'toolbar', 'header'),
      };
    }
    for (const part of ['title', 'toolbar']) {
      expect(centres.en![part], `English ${part} on the left`).to.be.below(0.5);
      expect(centres.ar![part], `Arabic ${part} on the right`).to.be.above(0.5);
    }
  });
});
