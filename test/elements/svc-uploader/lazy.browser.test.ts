// <svc-uploader> loads its queue, transfer and event watcher only when it needs them: when the
// first file is added, or when uploads wait to be shown again after a reload. Its own page (one
// test file is one page), so nothing was loaded before.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { control, videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;
declare const afterEach: (body: () => Promise<void> | void) => void;

afterEach(async () => {
  await control('/reset', {});
  sessionStorage.clear();
});

const loaded = (module: string) => performance.getEntriesByType('resource').some((entry) => entry.name.includes(module));

describe('<svc-uploader> lazy machinery', () => {
  it('renders and waits without the queue; the first file loads it and shows its row at once', async () => {
    const el = await fixture<SvcUploader>(html`<svc-uploader multiple></svc-uploader>`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const module of ['upload-queue', 'core/sse', 'upload-form', 'video-signature']) expect(loaded(module), module).to.equal(false);
    const file = await videoFile('lazy-2s.mp4');
    const note = new File(['not a video'], 'notes.txt', { type: 'text/plain' });
    const adding = el.addFiles([file, note]);
    // The rows are there before the code that runs them has arrived.
    expect(el.items.map((i) => [i.name, i.state])).to.deep.equal([
      ['lazy-2s.mp4', 'queued'],
      ['notes.txt', 'queued'],
    ]);
    expect(el.state).to.equal('uploading');
    await adding;
    expect(loaded('upload-queue')).to.equal(true);
    expect(el.items.find((i) => i.name === 'notes.txt')!.state).to.equal('failed');
    // The rows' styles came with their template.
    expect(getComputedStyle(el.shadowRoot!.querySelector('[part~=item]')!).display).to.equal('grid');
    await oneEvent(el, 'svc-upload-ready');
    expect(el.items.map((i) => i.state)).to.deep.equal(['ready', 'failed']);
  });

});
