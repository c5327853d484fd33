// <svc-uploader>: files pasted while it has focus, and the `capture` attribute that makes phones
// offer the camera. Real browser, real relay and local service.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader, SvcUploadReadyDetail, SvcUploadSelectDetail } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

/** A paste of `files` on whatever has focus, as a browser dispatches it. */
function paste(target: EventTarget, files: File[]): ClipboardEvent {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true, cancelable: true });
  // Firefox keeps a constructed event's clipboardData empty (only its own pastes carry files), so
  // the event carries this DataTransfer as a real paste would.
  Object.defineProperty(event, 'clipboardData', { value: data });
  target.dispatchEvent(event);
  return event;
}

const dropzone = (el: SvcUploader) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~=dropzone]')!;
const status = (el: SvcUploader) => el.shadowRoot!.querySelector('[role=status]')!.textContent!.trim();

describe('<svc-uploader> paste and capture', () => {
  it('uploads a video pasted while the drop zone has focus, announced like a chosen one', async () => {
    const el = await fixture<SvcUploader>(html`<svc-uploader></svc-uploader>`);
    const selected: SvcUploadSelectDetail[] = [];
    el.addEventListener('svc-upload-select', (event) => selected.push(event.detail));
    const ready: SvcUploadReadyDetail[] = [];
    el.addEventListener('svc-upload-ready', (event) => ready.push(event.detail));
    dropzone(el).focus();
    const file = await videoFile('sample-2s.mp4');
    const event = paste(el.shadowRoot!.activeElement ?? dropzone(el), [file]);
    expect(event.defaultPrevented, 'the browser does not also paste the file somewhere').to.equal(true);
    expect(selected.map((d) => d.file.name)).to.deep.equal(['sample-2s.mp4']);
    expect(el.items.map((i) => i.name)).to.deep.equal(['sample-2s.mp4']);
    await waitUntil(() => /sample-2s\.mp4/.test(status(el)), 'announced'); // summed up once the task ends
    await waitUntil(() => ready.length === 1, 'the pasted video became ready', { timeout: 25_000 });
    expect(ready[0]!.name).to.equal('sample-2s.mp4');
  });

  it('filters pasted files by accept, like dropped ones, and takes one file unless multiple', async () => {
    const el = await fixture<SvcUploader>(html`<svc-uploader accept="video/webm"></svc-uploader>`);
    el.addEventListener('svc-upload-select', (event) => event.preventDefault()); // check only, send nothing
    const errors: { code: string }[] = [];
    el.addEventListener('svc-error', (event) => errors.push(event.detail));
    dropzone(el).focus();
    const note = new File(['not a video'], 'notes.txt', { type: 'text/plain' });
    paste(dropzone(el), [note]);
    expect(el.items).to.deep.equal([], 'a cancelled selection adds nothing');

    const el2 = await fixture<SvcUploader>(html`<svc-uploader accept="video/webm"></svc-uploader>`);
    el2.addEventListener('svc-error', (event) => errors.push(event.detail));
    dropzone(el2).focus();
    paste(dropzone(el2), [note, await videoFile('beta-3s.webm')]);
    expect(el2.items.map((i) => [i.name, i.state])).to.deep.equal([['notes.txt', 'failed']]);
    expect(errors.map((e) => e.code)).to.deep.equal(['file_rejected']);
    await el2.updateComplete;
    expect(status(el2)).to.match(/notes\.txt.*failed/i);
  });

  it('ignores a paste without files, and a paste elsewhere on the page', async () => {
    const el = await fixture<SvcUploader>(html`<div><input id="other" /><svc-uploader></svc-uploader></div>`);
    const uploader = el.querySelector('svc-uploader') as SvcUploader;
    await uploader.updateComplete;
    const other = el.querySelector('input')!;
    other.focus();
    const elsewhere = paste(other, [new File(['x'], 'x.mp4', { type: 'video/mp4' })]);
    expect(elsewhere.defaultPrevented).to.equal(false);
    dropzone(uploader).focus();
    const text = new ClipboardEvent('paste', { clipboardData: new DataTransfer(), bubbles: true, composed: true, cancelable: true });
    Object.defineProperty(text, 'clipboardData', { value: new DataTransfer() });
    dropzone(uploader).dispatchEvent(text);
    expect(text.defaultPrevented, 'text pastes are left alone').to.equal(false);
    expect(uploader.items).to.deep.equal([]);
  });

  it('passes capture="user" or "environment" to the file input, and nothing else', async () => {
    const el = await fixture<SvcUploader>(html`<svc-uploader capture="environment"></svc-uploader>`);
    const input = () => el.shadowRoot!.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input().getAttribute('capture')).to.equal('environment');
    el.setAttribute('capture', 'user');
    await el.updateComplete;
    expect(input().getAttribute('capture')).to.equal('user');
    el.setAttribute('capture', 'microphone');
    await el.updateComplete;
    expect(input().hasAttribute('capture')).to.equal(false);
    el.removeAttribute('capture');
    await el.updateComplete;
    expect(input().hasAttribute('capture')).to.equal(false);
    expect(input().accept).to.equal('video/*');
  });
});
