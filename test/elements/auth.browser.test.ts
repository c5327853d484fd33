// The elements signed in for real, in every engine: a relay with SVC_AUTH=jwt (test/support/wtr/auth.ts),
// reached with the `token` property (Authorization: Bearer) on another origin, and with the HttpOnly
// `svc_token` cookie on the page's own origin and on another origin of the same site (credentials
// included, X-Svc-Request sent). An expired token is `unauthorized` in the element; another user's
// playlist is `forbidden`.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/svc-uploader/define.js';
import '../../src/elements/svc-playlist-editor/define.js';
import '../../src/elements/svc-channel-setup/define.js';
import type { SvcUploader, SvcUploadReadyDetail } from '../../src/elements/svc-uploader/svc-uploader.js';
import type { SvcPlaylistEditor } from '../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import type { SvcChannelSetup } from '../../src/elements/svc-channel-setup/svc-channel-setup.js';
import { fillChannelForm, trustRelay, trustRelayOrigin, videoFile } from '../support/browser.js';

// Mocha's globals (web-test-runner's test framework), declared for this module only.
declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;
declare const before: (body: () => Promise<void>) => void;
declare const afterEach: (body: () => Promise<void>) => void;

const WAIT = { timeout: 25_000 };

async function post<T>(path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

const tokenFor = async (sub: string, ttlS = 600) => (await post<{ token: string }>('/__auth/token', { sub, ttl_s: ttlS })).token;

/** Calls the JWT relay at `base` as `token`'s user, the way a server of the CMS would; throws on an error status. */
async function asUser<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const $ = <T extends Element = HTMLElement>(el: Element, selector: string): T => {
  const found = el.shadowRoot!.querySelector<T>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
};

type ErrorDetail = { code: string; message: string };

function errorsOf(el: Element): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  el.addEventListener('svc-error', (event) => errors.push((event as CustomEvent<ErrorDetail>).detail));
  return errors;
}

/** Sets `relay` and, for bearer sign-in, `token` on an element before it connects. */
function configure<T extends HTMLElement & { token?: unknown }>(el: T, relay: string, token?: string): T {
  el.setAttribute('relay', relay);
  if (token) el.token = () => token;
  return el;
}

/** Uploads a real video with the uploader and resolves with the ready event's detail. */
async function uploadToReady(relay: string, token?: string): Promise<SvcUploadReadyDetail> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = configure(document.createElement('svc-uploader') as SvcUploader, relay, token);
  const errors = errorsOf(el);
  container.append(el);
  const ready = oneEvent(el, 'svc-upload-ready');
  const file = await videoFile('signed-in-2s.mp4');
  const input = $<HTMLInputElement>(el, 'input[type="file"]');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  const { detail } = (await Promise.race([
    ready,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`no ready event; errors: ${JSON.stringify(errors)}`)), WAIT.timeout)),
  ])) as CustomEvent<SvcUploadReadyDetail>;
  expect(errors).to.deep.equal([]);
  await waitUntil(() => el.shadowRoot!.textContent!.includes('Ready to play'), 'the row says ready', WAIT);
  return detail;
}

/** Creates a channel through the form and resolves with its id, once its ingest settings are shown. */
async function createChannel(relay: string, token?: string): Promise<string> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = configure(document.createElement('svc-channel-setup') as SvcChannelSetup, relay, token);
  const errors = errorsOf(el);
  container.append(el);
  await fillChannelForm(el, `Signed-in channel ${Date.now().toString(36)}`, 'JWT relay');
  const created = oneEvent(el, 'svc-channel-create');
  $<HTMLButtonElement>(el, 'button[type="submit"]').click();
  const { detail } = (await created) as CustomEvent<{ id: string }>;
  await waitUntil(() => el.getAttribute('state') === 'created', 'the ingest settings shown', WAIT);
  expect($(el, '#value-id').textContent!.trim()).to.equal(detail.id);
  expect(errors).to.deep.equal([]);
  return detail.id;
}

/** Creates a playlist with the editor, adds `ids` from the library, saves; resolves with the playlist id. */
async function editPlaylist(relay: string, ids: string[], token?: string): Promise<string> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = configure(document.createElement('svc-playlist-editor') as SvcPlaylistEditor, relay, token);
  const errors = errorsOf(el);
  container.append(el);
  await waitUntil(() => el.shadowRoot!.querySelector('#title'), 'the create form', WAIT);
  $<HTMLInputElement>(el, '#title').value = `Signed-in list ${Date.now().toString(36)}`;
  const created = oneEvent(el, 'svc-playlist-create');
  $<HTMLButtonElement>(el, 'form[part~="form"] button[type="submit"]').click();
  const { detail } = (await created) as CustomEvent<{ playlistId: string }>;
  for (const id of ids) {
    const selector = `li[part~="library-item"][data-id="${id}"] button`;
    await waitUntil(() => el.shadowRoot!.querySelector(selector), `the library shows ${id}`, WAIT);
    $<HTMLButtonElement>(el, selector).click();
    await el.updateComplete;
  }
  const saved = oneEvent(el, 'svc-playlist-save');
  $<HTMLButtonElement>(el, 'button[part~="save"]').click();
  await saved;
  expect(errors).to.deep.equal([]);
  return detail.playlistId;
}

describe('signed in against a SVC_AUTH=jwt relay', function () {
  this.timeout(120_000);
  let crossOrigin = '';
  let sameOrigin = '';

  before(async () => {
    ({ cross_origin: crossOrigin, same_origin: sameOrigin } = await post<{ cross_origin: string; same_origin: string }>('/__auth/relay'));
    // The site owner trusts its relay's origin in the head, as the README's plain-HTML page does, and
    // lists the relay beside the page's own /svc on the page's origin by its URL (a path there is not
    // a relay of the owner's unless listed).
    trustRelayOrigin(crossOrigin);
    trustRelay(sameOrigin);
  });
  afterEach(async () => {
    await post('/__auth/logout');
  });

  it('with the token property: the uploader, the channel setup and the playlist editor on another origin', async () => {
    const user = `bearer-${Date.now().toString(36)}`;
    const token = await tokenFor(user);
    const vod = await uploadToReady(crossOrigin, token);
    const channel = await createChannel(crossOrigin, token);
    const playlist = await editPlaylist(crossOrigin, [vod.vodId, channel], token);
    const saved = await asUser<{ content: { list: { id: string }[] | null } }>(crossOrigin, token, 'GET', `/playlists/${playlist}`);
    expect(saved.content.list!.map((item) => item.id)).to.deep.equal([vod.vodId, channel]);
    const library = await asUser<{ items: { id: string }[] }>(crossOrigin, token, 'GET', '/library');
    expect(library.items.map((item) => item.id)).to.include.members([vod.vodId, channel, playlist]);
    // Without the token the same relay knows no one.
    expect((await fetch(`${crossOrigin}/library`, { headers: { 'X-Svc-Request': '1' } })).status).to.equal(401);
  });

  it('with the svc_token cookie on the page\'s own origin: upload, channel and playlist', async () => {
    const user = `cookie-${Date.now().toString(36)}`;
    await post('/__auth/session', { sub: user });
    expect(document.cookie, 'the cookie is HttpOnly').not.to.contain('svc_token');
    const vod = await uploadToReady(sameOrigin);
    const channel = await createChannel(sameOrigin);
    const playlist = await editPlaylist(sameOrigin, [channel, vod.vodId]);
    const library = await asUser<{ items: { id: string }[] }>(crossOrigin, await tokenFor(user), 'GET', '/library');
    expect(library.items.map((item) => item.id)).to.include.members([vod.vodId, channel, playlist]);
  });

  it('with the svc_token cookie on another origin of the same site, credentials included', async () => {
    const user = `cross-cookie-${Date.now().toString(36)}`;
    await post('/__auth/session', { sub: user });
    const vod = await uploadToReady(crossOrigin);
    const channel = await createChannel(crossOrigin);
    const playlist = await editPlaylist(crossOrigin, [vod.vodId, channel]);
    const library = await asUser<{ items: { id: string }[] }>(crossOrigin, await tokenFor(user), 'GET', '/library');
    expect(library.items.map((item) => item.id)).to.include.members([vod.vodId, channel, playlist]);
  });

  it('shows unauthorized in the element when the token expires mid-session', async () => {
    const user = `expiring-${Date.now().toString(36)}`;
    const lasting = await tokenFor(user);
    const list = await asUser<{ id: string }>(crossOrigin, lasting, 'POST', '/playlists', { title: 'Expiring', description: '' });
    const channel = await asUser<{ id: string }>(crossOrigin, lasting, 'POST', '/channels', { title: `Expiring ${user}`, description: '', region: 'europe', rendition_count: 1 });
    const short = await tokenFor(user, 3);
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = configure(document.createElement('svc-playlist-editor') as SvcPlaylistEditor, crossOrigin, short);
    el.setAttribute('playlist-id', list.id);
    const errors = errorsOf(el);
    container.append(el);
    // Signed in: the playlist and the library load with the token.
    const selector = `li[part~="library-item"][data-id="${channel.id}"] button`;
    await waitUntil(() => el.shadowRoot!.querySelector(selector), 'the library shows the channel', WAIT);
    // The session ends: the relay refuses the token from now on (a positive signal, not a sleep).
    await waitUntil(async () => (await fetch(`${crossOrigin}/library`, { headers: { Authorization: `Bearer ${short}` } })).status === 401, 'the token expired', { timeout: 15_000, interval: 250 });
    $<HTMLButtonElement>(el, selector).click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, 'button[part~="save"]').click();
    await waitUntil(() => errors.length > 0, 'svc-error', WAIT);
    expect(errors.map((error) => error.code)).to.deep.equal(['unauthorized']);
    await waitUntil(() => el.shadowRoot!.querySelector('[role="alert"]')?.textContent?.includes('You are not signed in, or your session has expired. Sign in again.'), 'the element says so', WAIT);
    const still = await asUser<{ content: { list: unknown[] | null } }>(crossOrigin, lasting, 'GET', `/playlists/${list.id}`);
    expect(still.content.list, 'nothing saved').to.equal(null);
  });

  it("shows another user's playlist as forbidden, and changes nothing in it", async () => {
    const owner = await tokenFor(`owner-${Date.now().toString(36)}`);
    const list = await asUser<{ id: string }>(crossOrigin, owner, 'POST', '/playlists', { title: 'Not yours', description: '' });
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const el = configure(document.createElement('svc-playlist-editor') as SvcPlaylistEditor, crossOrigin, await tokenFor(`intruder-${Date.now().toString(36)}`));
    el.setAttribute('playlist-id', list.id);
    const errors = errorsOf(el);
    container.append(el);
    await waitUntil(() => errors.length > 0, 'svc-error', WAIT);
    expect(errors.map((error) => error.code)).to.deep.equal(['forbidden']);
    await el.updateComplete;
    // As documented: not the caller's is shown as no such playlist, with a way to create one instead.
    expect(el.shadowRoot!.querySelector('[role="alert"]')?.textContent).to.contain(`There is no playlist “${list.id}” in your library`);
    const still = await asUser<{ content: { list: unknown[] | null } }>(crossOrigin, owner, 'GET', `/playlists/${list.id}`);
    expect(still.content.list).to.equal(null);
  });
});
