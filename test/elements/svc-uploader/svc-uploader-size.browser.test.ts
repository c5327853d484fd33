// <svc-uploader> signs with the real File.size (issue 17: the relay refuses claims above its limit
// and above the service's signed policy, so the claim must be the file's own size), in real
// Chromium against the real relay and local service.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

describe('<svc-uploader> size claim', () => {
  it('sends the real File.size in POST /svc/uploads', async () => {
    const original = window.fetch;
    const claims: unknown[] = [];
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), location.href);
      if (url.pathname === '/svc/uploads' && init?.method === 'POST') claims.push(JSON.parse(String(init.body)).size);
      return original(input, init);
    };
    try {
      const el = await fixture<SvcUploader>(html`<svc-uploader></svc-uploader>`);
      const file = await videoFile('size-2s.mp4');
      const input = el.shadowRoot!.querySelector<HTMLInputElement>('input[type=file]')!;
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await oneEvent(el, 'svc-upload-ready');
      expect(claims).to.deep.equal([file.size]);
      expect(file.size).to.be.greaterThan(1000);
    } finally {
      window.fetch = original;
    }
  });
});
