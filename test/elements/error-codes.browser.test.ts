// Every error code an element can show, reaching an element through the real path in every engine:
// the local service's faults (a refusal, a slow answer, a dropped connection, a 5xx of the upload
// address), relays of their own (a short timeout, a wrong API key, a small create limit) and a
// second save through the relay. What cannot reach an element is said in docs/relay.md ("Error
// codes an element cannot show"): unsupported_media_type and aborted.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/svc-uploader/define.js';
import '../../src/elements/svc-playlist-editor/define.js';
import '../../src/elements/svc-channel-setup/define.js';
import type { SvcUploader } from '../../src/elements/svc-uploader/svc-uploader.js';
import type { SvcPlaylistEditor } from '../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { SvcChannelSetup } from '../../src/elements/svc-channel-setup/svc-channel-setup.js';
import { errorStrings } from '../../src/elements/shared/strings.js';
import { control, fillChannelForm, relay, trustRelayOrigin, videoFile } from '../support/browser.js';

// Mocha's globals (web-test-runner's test framework), declared for this module only.
declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;
declare const afterEach: (body: () => Promise<void>) => void;

const WAIT = { timeout: 30_000 };
type ErrorDetail = { code: string; message: string };

function errorsOf(el: Element): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  el.addEventListener('svc-error', (event) => errors.push((event as CustomEvent<ErrorDetail>).detail));
  return errors;
}

const $ = <T extends Element = HTMLElement>(el: Element, selector: string): T => {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
};

/** A relay of its own with these settings (test/support/wtr/relays.ts), trusted by the page. */
async function relayWith(name: string, settings: Record<string, unknown>): Promise<string> {
  const response = await fetch(`/__relays/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(settings) });
  const { relay_url } = (await response.json()) as { relay_url: string };
  trustRelayOrigin(relay_url);
  return relay_url;
}

/** A channel setup on `relayUrl` (the page's relay when absent), its form filled and submitted. */
async function submitChannel(relayUrl?: string): Promise<{ el: SvcChannelSetup; errors: ErrorDetail[] }> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = document.createElement('svc-channel-setup') as SvcChannelSetup;
  if (relayUrl) el.setAttribute('relay', relayUrl);
  const errors = errorsOf(el);
  container.append(el);
  await fillChannelForm(el, `Codes ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, 'error codes');
  $<HTMLButtonElement>(el, 'button[type="submit"]').click();
  return { el, errors };
}

/** Waits for the channel form's failure and checks the code in the event and its text in the element. */
async function failsWith(el: SvcChannelSetup, errors: ErrorDetail[], code: keyof typeof errorStrings): Promise<ErrorDetail> {
  await waitUntil(() => errors.length > 0, `svc-error ${code}`, WAIT);
  expect(errors.map((error) => error.code)).to.deep.equal([code]);
  await el.updateComplete;
  expect($(el, '[part="error"]').textContent).to.contain(errorStrings[code]);
  return errors[0]!;
}

/** An uploader given one real video; resolves with it and its svc-error events. */
async function uploadOne(name: string): Promise<{ el: SvcUploader; errors: ErrorDetail[] }> {
  const el = await fixture<SvcUploader>(html`<svc-uploader></svc-uploader>`);
  const errors = errorsOf(el);
  const input = $<HTMLInputElement>(el, 'input[type=file]');
  const transfer = new DataTransfer();
  transfer.items.add(await videoFile(name));
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return { el, errors };
}

describe('error codes through the real path', function () {
  this.timeout(90_000);
  afterEach(async () => {
    await control('/reset', {});
  });

  it('upstream_rejected: the service refuses the channel; the element shows its reason code, not its trace', async () => {
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/channel', status: 400, count: 1 });
    const { el, errors } = await submitChannel();
    const error = await failsWith(el, errors, 'upstream_rejected');
    expect(error.message).to.equal('The service rejected POST /v2/channel (400): Answer 400 injected by the control API.');
    expect(el.shadowRoot!.textContent).not.to.match(/request_id|trace/);
  });

  it('upstream_timeout: the service answers after the relay stopped waiting', async () => {
    const slow = await relayWith('short-timeout', { timeout_ms: 400, retries: 0 });
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/channel', latency_ms: 3000, count: 1 });
    const { el, errors } = await submitChannel(slow);
    await failsWith(el, errors, 'upstream_timeout');
  });

  it('upstream_credentials: the service refuses the relay\'s API key', async () => {
    const misconfigured = await relayWith('wrong-key', { wrong_key: true });
    const { el, errors } = await submitChannel(misconfigured);
    await failsWith(el, errors, 'upstream_credentials');
  });

  it('rate_limited: a create over the relay\'s limit', async () => {
    // A relay of this run's own (every engine runs this file): its one create is this test's.
    const limited = await relayWith(`one-create-${Math.random().toString(36).slice(2, 10)}`, { create_limit: 1 });
    const first = await submitChannel(limited);
    await waitUntil(() => first.el.getAttribute('state') === 'created', 'the first channel created', WAIT);
    expect(first.errors).to.deep.equal([]);
    const second = await submitChannel(limited);
    await failsWith(second.el, second.errors, 'rate_limited');
  });

  it('upload_failed: the upload address answers 5xx every time', async () => {
    await control('/faults', { origin: 'upload', method: 'POST', status: 500, count: 0 });
    const { el, errors } = await uploadOne('failing-2s.mp4');
    await waitUntil(() => errors.length > 0, 'svc-error', { timeout: 60_000 });
    expect(errors.map((error) => error.code)).to.deep.equal(['upload_failed']);
    await waitUntil(() => el.shadowRoot!.textContent!.includes(errorStrings.upload_failed), 'the row says so', WAIT);
    const { faults } = await control<{ faults: { hits: number }[] }>('/state');
    expect(faults[0]!.hits, 'the upload address answered 500').to.be.greaterThan(0);
  });

  it("payload_too_large: the service's signed policy allows less than the file, and the relay says so", async () => {
    await control('/settings', { policy_max_bytes: 1000 });
    const { el, errors } = await uploadOne('large-2s.mp4');
    await waitUntil(() => errors.length > 0, 'svc-error', { timeout: 60_000 });
    expect(errors.map((error) => error.code)).to.deep.equal(['payload_too_large']);
    expect(errors[0]!.message).to.equal('The file is larger than the upload limit of 1000 bytes.');
    await waitUntil(() => el.shadowRoot!.textContent!.includes(errorStrings.payload_too_large), 'the row says so', WAIT);
  });

  it('network_error: the upload address drops every connection', async () => {
    await control('/faults', { origin: 'upload', method: 'POST', drop: true, count: 0 });
    const { el, errors } = await uploadOne('dropped-2s.mp4');
    await waitUntil(() => errors.length > 0, 'svc-error', { timeout: 60_000 });
    expect(errors.map((error) => error.code)).to.deep.equal(['network_error']);
    await waitUntil(() => el.shadowRoot!.textContent!.includes(errorStrings.network_error), 'the row says so', WAIT);
    const { faults } = await control<{ faults: { hits: number }[] }>('/state');
    expect(faults[0]!.hits, 'tried again before giving up').to.be.greaterThan(1);
  });

  it('conflict and upstream_unavailable in the editor: a save through the relay in between, then the service failing on overwrite', async () => {
    const channel = await relay<{ id: string }>('POST', '/channels', { title: `Codes list ${Date.now().toString(36)}`, description: '', region: 'europe', rendition_count: 1 });
    const list = await relay<{ id: string }>('POST', '/playlists', { title: 'Codes', description: '' });
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = document.createElement('svc-playlist-editor') as SvcPlaylistEditor;
    el.setAttribute('playlist-id', list.id);
    const errors = errorsOf(el);
    const loaded = oneEvent(el, 'svc-playlist-load');
    container.append(el);
    await loaded;
    const add = `li[part~="library-item"][data-id="${channel.id}"] button`;
    await waitUntil(() => el.shadowRoot!.querySelector(add), 'the library shows the channel', WAIT);
    $<HTMLButtonElement>(el, add).click();
    await el.updateComplete;
    // Someone else saves the playlist through the relay meanwhile: the element's base is stale.
    await relay('PUT', `/playlists/${list.id}/content`, { items: [{ id: channel.id, type: 'channel' }] });
    $<HTMLButtonElement>(el, 'button[part~="save"]').click();
    // The relay answers 409 conflict with their version: the element shows it beside ours.
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="conflict"]'), 'the conflict panel', WAIT);
    expect($(el, '#conflict-heading').textContent).to.equal('Someone else changed this playlist');

    // Overwriting while the service fails: 503 on every try of the update.
    await control('/faults', { origin: 'api', method: 'PUT', status: 503, count: 0 });
    $<HTMLButtonElement>(el, '[part~="conflict"] button[data-action="overwrite"]').click();
    await waitUntil(() => errors.length > 0, 'svc-error upstream_unavailable', WAIT);
    expect(errors.map((error) => error.code)).to.deep.equal(['upstream_unavailable']);
    await waitUntil(() => el.shadowRoot!.textContent!.includes(errorStrings.upstream_unavailable), 'the element says so', WAIT);
  });
});
