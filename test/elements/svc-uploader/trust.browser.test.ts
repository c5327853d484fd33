// A `relay` attribute is an author's: on an origin the page's head does not list, the uploader sends
// nothing there (no file, no token) and reports `origin_not_trusted`. The attacker is the canary
// server of test/support/wtr/svc-player.ts, which records every request it gets.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../src/elements/svc-uploader/define.js';
import '../../../src/elements/svc-playlist-editor/define.js';
import '../../../src/elements/svc-channel-setup/define.js';
import type { SvcUploader, SvcUploadErrorDetail } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { trustRelay, trustRelayOrigin, videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

const canary = async (): Promise<{ origins: string[]; hits: unknown[] }> => (await fetch('/__svc-player/canary')).json();

describe('<svc-uploader> and an author’s relay attribute', () => {
  it('sends nothing to a relay on an origin the head does not list (origin_not_trusted), with its token unread', async () => {
    const [attacker] = (await canary()).origins;
    await fetch('/__svc-player/canary/reset', { method: 'POST' });
    let tokenAsked = false;
    const el = await fixture<SvcUploader>(html`<svc-uploader relay=${`${attacker}/svc`}></svc-uploader>`);
    el.token = () => ((tokenAsked = true), 'secret-token');
    el.addFiles([await videoFile('trust-2s.mp4')]);
    const { detail } = (await oneEvent(el, 'svc-error')) as CustomEvent<SvcUploadErrorDetail>;
    expect(detail.code).to.equal('origin_not_trusted');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('li[data-id]')!.textContent).to.contain('This page does not allow this video source.');
    expect((await canary()).hits, 'the attacker got no request').to.deep.equal([]);
    expect(performance.getEntriesByType('resource').filter((entry) => entry.name.startsWith(attacker!))).to.deep.equal([]);
    expect(tokenAsked, 'no request was prepared for it').to.equal(false);
  });

  it('uses a relay on an origin the head lists (control: the same request does reach it)', async () => {
    const [attacker] = (await canary()).origins;
    await fetch('/__svc-player/canary/reset', { method: 'POST' });
    trustRelayOrigin(attacker!);
    try {
      const el = await fixture<SvcUploader>(html`<svc-uploader relay=${`${attacker}/svc`}></svc-uploader>`);
      el.addFiles([await videoFile('trust-2s.mp4')]);
      await oneEvent(el, 'svc-error'); // the canary is no relay: its empty answers fail the upload
      expect((await canary()).hits.length, 'the listed relay was asked').to.be.greaterThan(0);
    } finally {
      document.head.querySelector('meta[name="svc-relay-origins"]')?.remove();
    }
  });
});

describe('<svc-uploader> and markup that clobbers document.head', () => {
  it('uploads to ready with two <form name="head"> or an <img name="head"> in the page, throwing nothing', async () => {
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    window.addEventListener('error', onError);
    try {
      for (const markup of ['<form name="head"></form><form name="head"></form>', '<img name="head" alt="">']) {
        const author = Object.assign(document.createElement('div'), { innerHTML: markup });
        document.body.append(author);
        expect(document.head, `${markup} clobbers document.head`).to.not.be.instanceOf(HTMLHeadElement);
        const el = await fixture<SvcUploader>(html`<svc-uploader></svc-uploader>`);
        const ready = oneEvent(el, 'svc-upload-ready');
        el.addEventListener('svc-error', (event) => errors.push(JSON.stringify((event as CustomEvent).detail)));
        await el.addFiles([await videoFile('trust-2s.mp4')]);
        expect(((await ready) as CustomEvent<{ vodId: string }>).detail.vodId, markup).to.be.a('string');
        author.remove();
      }
      expect(errors).to.deep.equal([]);
    } finally {
      window.removeEventListener('error', onError);
    }
  });
});

const resources = (part: string) => performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => url.includes(part));

// A path on the page's own origin is not a relay of the owner's unless the head lists it: a post's
// author could point an element at any path of the site (a comment form, a lying endpoint).
describe('account elements and a relay path on the page’s origin', () => {
  it('the uploader, the playlist editor and the channel setup send nothing to an unlisted path and ask no token (origin_not_trusted)', async () => {
    const relay = '/__svc-player/lying-relay';
    for (const tag of ['svc-uploader', 'svc-playlist-editor', 'svc-channel-setup']) {
      let tokenAsked = false;
      const el = document.createElement(tag) as HTMLElement & { token?: () => string; addFiles?: (files: File[]) => Promise<void> };
      el.setAttribute('relay', relay);
      if (tag === 'svc-playlist-editor') el.setAttribute('playlist-id', 'pl1');
      el.token = () => ((tokenAsked = true), 'secret-token');
      const failed = oneEvent(el, 'svc-error');
      document.body.append(el);
      if (el.addFiles) void el.addFiles([await videoFile('trust-2s.mp4')]);
      const { detail } = (await failed) as CustomEvent<{ code: string }>;
      el.remove();
      expect(detail.code, tag).to.equal('origin_not_trusted');
      expect(tokenAsked, `${tag}: no token was asked`).to.equal(false);
      expect(resources(relay), `${tag}: nothing was sent to ${relay}`).to.deep.equal([]);
    }
  });

  it('posts the file only to the origin of the configured upload_url, even from a relay the head lists', async () => {
    const relay = `${location.origin}/__svc-player/diverting-relay`;
    await fetch('/__svc-player/canary/reset', { method: 'POST' });
    trustRelay(relay);
    try {
      const el = await fixture<SvcUploader>(html`<svc-uploader relay=${relay}></svc-uploader>`);
      el.addFiles([await videoFile('trust-2s.mp4')]);
      const { detail } = (await oneEvent(el, 'svc-error')) as CustomEvent<SvcUploadErrorDetail>;
      expect(resources(`${relay}/uploads`).length, 'the listed relay was asked to sign').to.be.greaterThan(0);
      expect((await canary()).hits, 'the file went nowhere else').to.deep.equal([]);
      expect(detail.code).to.equal('origin_not_trusted');
    } finally {
      document.querySelector('head > meta[name="svc-relay-origins"]')?.remove();
    }
  });
});
