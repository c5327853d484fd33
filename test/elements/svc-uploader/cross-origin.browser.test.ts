// <svc-uploader> with the relay on another origin than the page (as after `npm pack` into a site:
// the relay on its own port, the page on another): the uploader reaches "ready" by the relay's
// event stream, with every preflight passed and no console error; a relay that refuses the page's
// origin or cannot be reached is named as such.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader, SvcUploadErrorDetail, SvcUploadReadyDetail } from '../../../src/elements/svc-uploader/svc-uploader.js';
import { RelayClient } from '../../../src/core/relay-client.js';
import { control, trustRelayOrigin, videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: (this: { timeout(ms: number): void }) => Promise<void> | void) => void;
declare const afterEach: (body: () => Promise<void> | void) => void;

// Names served by test/support/wtr/svc-uploader.ts (a Node module, so not imported here).
const CONSOLE = 'svc-uploader-console';
const RELAYS = '/__svc-uploader/relays/';

interface RelayRecord {
  method: string;
  path: string;
  origin: string | null;
  status: number;
  type: string | null;
}

async function startRelay(name: string, allowedOrigins: string[]): Promise<string> {
  const response = await fetch(`${RELAYS}${name}`, { method: 'POST', body: JSON.stringify({ allowed_origins: allowedOrigins }) });
  const relay = ((await response.json()) as { relay_url: string }).relay_url;
  trustRelayOrigin(relay); // the page's owner uses this relay
  return relay;
}

const relayLog = async (name: string): Promise<RelayRecord[]> => (await fetch(`${RELAYS}${name}/log`)).json();

/** The page's console errors so far; false where the driver cannot read the console (WebKitWebDriver). */
const consoleErrors = () => executeServerCommand<string[] | false, { action: string }>(CONSOLE, { action: 'read' });

afterEach(async () => {
  await control('/reset', {});
});

describe('<svc-uploader> with the relay on another origin', () => {
  it('reaches "ready" by the event stream, passing every preflight, with no console error', async function () {
    this.timeout(60_000);
    await executeServerCommand(CONSOLE, { action: 'start' });
    const before = (await consoleErrors()) || [];
    const relay = await startRelay('allowed', [location.origin]);
    expect(new URL(relay).origin).not.to.equal(location.origin);
    // Long enough that "ready" happens after the stream opened (its catch-up read says "processing").
    await control('/settings', { processing_ms: 1500 });
    const el = await fixture<SvcUploader>(html`<svc-uploader relay=${relay}></svc-uploader>`);
    const errors: SvcUploadErrorDetail[] = [];
    el.addEventListener('svc-error', (event) => errors.push(event.detail as SvcUploadErrorDetail));
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input[type=file]')!;
    const transfer = new DataTransfer();
    transfer.items.add(await videoFile('cross-origin-2s.mp4'));
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const { detail } = (await oneEvent(el, 'svc-upload-ready')) as CustomEvent<SvcUploadReadyDetail>;
    expect(errors).to.deep.equal([]);
    expect(el.items[0]!.state).to.equal('ready');

    const log = await relayLog('allowed');
    const from = log.filter((record) => record.origin === location.origin);
    // Every request the page sent was answered, none refused (a refused preflight shows as a 403 OPTIONS).
    expect(from.filter((record) => record.status >= 400), JSON.stringify(from)).to.deep.equal([]);
    expect(from.some((record) => record.method === 'OPTIONS' && record.path === '/svc/events' && record.status === 204)).to.equal(true);
    const stream = from.filter((record) => record.method === 'GET' && record.path === '/svc/events');
    expect(stream.length, 'one event stream').to.be.at.least(1);
    expect(stream[0]!.status).to.equal(200);
    expect(stream[0]!.type).to.match(/^text\/event-stream/);
    // By the stream, not the fallback: the upload's state was read once (the catch-up as the stream
    // opened, while still processing), never polled.
    const reads = from.filter((record) => record.method === 'GET' && record.path === `/svc/uploads/${detail.uploadId}`);
    expect(reads.length, JSON.stringify(reads)).to.be.at.most(1);
    // Where the console cannot be read (WebKit's classic WebDriver), the relay's log above is the
    // evidence: every preflight answered 204 and nothing was refused.
    const logged = await consoleErrors();
    if (logged) expect(logged.slice(before.length), 'console errors').to.deep.equal([]);
  });

  it('names a relay that refuses the page origin (origin_not_allowed, SVC_ALLOWED_ORIGINS)', async () => {
    const relay = await startRelay('refusing', ['https://cms.example']);
    const el = await fixture<SvcUploader>(html`<svc-uploader relay=${relay}></svc-uploader>`);
    el.addFiles([await videoFile('refused-2s.mp4')]);
    const { detail } = (await oneEvent(el, 'svc-error')) as CustomEvent<SvcUploadErrorDetail>;
    expect(detail.code).to.equal('origin_not_allowed');
    expect(detail.message).to.contain(location.origin);
    expect(detail.message).to.contain('SVC_ALLOWED_ORIGINS');
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('li[data-id]')!;
    // The row says it in the viewer's words; the technical explanation is the event's.
    expect(row.textContent).to.contain('This page is not allowed to use the server.');
    expect(row.textContent).not.to.contain('SVC_ALLOWED_ORIGINS');
  });

  it('names a relay that cannot be reached (relay_unreachable), unlike a refusal', async () => {
    // A port nothing listens on: the loopback "discard" port.
    const client = new RelayClient({ baseUrl: 'http://127.0.0.1:9/svc' });
    const failure = await client.library().then(
      () => undefined,
      (error: { code: string; message: string }) => error,
    );
    expect(failure?.code).to.equal('relay_unreachable');
    expect(failure?.message).to.contain('http://127.0.0.1:9');
    expect(failure?.message).not.to.contain('SVC_ALLOWED_ORIGINS');
  });

  it('a same-origin relay that is down is unreachable too, with no probe', async () => {
    let calls = 0;
    const client = new RelayClient({
      baseUrl: '/svc',
      fetch: () => {
        calls++;
        return Promise.reject(new TypeError('Failed to fetch'));
      },
    });
    const failure = await client.config().then(
      () => undefined,
      (error: { code: string }) => error,
    );
    expect(failure?.code).to.equal('relay_unreachable');
    expect(calls).to.equal(1);
  });
});

