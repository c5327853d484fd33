// <svc-player> in real browsers (Chromium, Firefox, WebKit) against the real relay (through the
// test server's /svc proxy) and the local service's player origin.
import { expect, waitUntil } from '@open-wc/testing';
import { seedVod, testEnv, trustRelayOrigin, type TestEnv } from '../../support/browser.js';
import type { RelayClient } from '../../../src/core/relay-client.js';
import type { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import { holdEmbeds, mount, Player, recordEmbeds, relay, requestedUrls, wrapClient } from './helpers.js';

// Mocha globals, provided by web-test-runner.
type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

let env: TestEnv;
let iframeOrigin: string;
let playerOrigin: string;
let vodId: string;
const ids: Record<'vod' | 'channel' | 'playlist', string> = { vod: '', channel: '', playlist: '' };

before(async () => {
  performance.setResourceTimingBufferSize(10_000);
  env = await testEnv();
  playerOrigin = new URL(env.player_url).origin;
  // The test stack runs the observed profile: iframe codes point at the service's iframe origin.
  iframeOrigin = ((await (await fetch('/svc/config')).json()) as { iframe_origins: string[] }).iframe_origins.find((o) => o !== playerOrigin)!;
  vodId = (await seedVod()).vod_id;
  const playlist = await relay<{ id: string }>('POST', '/playlists', { title: 'Player test list', description: 'x' });
  await relay('PUT', `/playlists/${playlist.id}/content`, { items: [{ id: vodId, type: 'vod' }] });
  const channel = await relay<{ id: string }>('POST', '/channels', {
    title: 'Player test channel',
    description: 'x',
    region: 'europe',
    rendition_count: 1,
  });
  Object.assign(ids, { vod: vodId, channel: channel.id, playlist: playlist.id });
});

afterEach(() => {
  for (const el of document.querySelectorAll('svc-player')) el.remove();
});

const iframeSrcOf = (kind: keyof typeof ids) =>
  `${iframeOrigin}/${{ vod: 'vod', channel: 'live', playlist: 'playlist' }[kind]}/${env.account_id}/${ids[kind]}`;

const contentIdOf = (kind: keyof typeof ids) =>
  `${env.account_id}-${{ vod: 'vod', channel: 'live', playlist: 'playlist' }[kind]}-${ids[kind]}`;

/** The node player.js put after its script (the local service's player box). */
const playerBox = (el: SvcPlayer) => el.querySelector<HTMLElement>('[slot="player"] > .svc-video-player-box');

/** Removes the content while its embed request is held, then lets the late answer reach the element. */
async function removeContentWhileHeld(el: SvcPlayer, hold: ReturnType<typeof holdEmbeds>) {
  expect(el.state).to.equal('loading');
  el.contentId = null;
  await el.updateComplete;
  expect(el.state).to.equal('idle');
  hold.release();
  await waitUntil(() => hold.late, 'the held request is sent');
  await hold.late;
  // Let its continuation in the element run (promise jobs and a task: the modules are already loaded).
  await new Promise((resolve) => setTimeout(resolve, 50));
  await el.updateComplete;
}

describe('<svc-player> renders real players', () => {
  for (const kind of ['vod', 'channel', 'playlist'] as const) {
    it(`${kind}, script variant: injects the validated script in light DOM and player.js renders`, async () => {
      const { el, ready } = mount({ kind, 'content-id': ids[kind], loading: 'eager' });
      const detail = await ready;
      expect(detail.kind).to.equal(kind);
      expect(detail.contentId).to.equal(ids[kind]);
      expect(detail.variant).to.equal('javascript');
      const script = detail.element as HTMLScriptElement;
      expect(script.tagName).to.equal('SCRIPT');
      expect(script.parentElement?.parentElement).to.equal(el, 'light DOM, in the container');
      expect(script.src).to.equal(`${playerOrigin}/js/player.js?contentId=${contentIdOf(kind)}`);
      expect(script.id).to.equal(contentIdOf(kind));
      // Only validated attributes (player.js adds its own data-svc-player marker).
      const names = [...script.attributes].map((a) => a.name).filter((name) => name !== 'data-svc-player');
      expect(names.sort()).to.deep.equal(['class', 'height', 'id', 'src', 'width']);
      expect(el.state).to.equal('ready');
      expect(el.getAttribute('state')).to.equal('ready');
      await waitUntil(() => script.getAttribute('data-svc-player') === 'ready', 'player.js rendered', { timeout: 10_000 });
      const box = playerBox(el)!;
      expect(box.dataset.contentId).to.equal(contentIdOf(kind));
      if (kind === 'channel') expect(box.querySelector('.svc-video-player-offline')?.textContent).to.contain('offline');
      else expect(box.querySelector('video')?.src).to.contain(`${playerOrigin}/media/${vodId}`);
      if (kind === 'playlist') {
        // The playlist's controls share the box with the video instead of being clipped or overflowing.
        await waitUntil(() => box.querySelector('video')!.readyState >= 1, 'video metadata', { timeout: 10_000 });
        const next = box.querySelector('.svc-video-player-next')!.getBoundingClientRect();
        const host = el.getBoundingClientRect();
        expect(next.height).to.be.greaterThan(0);
        expect(next.bottom).to.be.at.most(host.bottom + 0.5);
        expect(box.querySelector('video')!.getBoundingClientRect().top).to.be.at.least(host.top - 0.5);
      }
    });

    it(`${kind}, iframe variant: injects a titled iframe on the iframe origin`, async () => {
      const { el, ready } = mount({ kind, 'content-id': ids[kind], variant: 'iframe', loading: 'eager' });
      const detail = await ready;
      expect(detail.variant).to.equal('iframe');
      const iframe = detail.element as HTMLIFrameElement;
      expect(iframe.tagName).to.equal('IFRAME');
      expect(iframe.parentElement?.parentElement).to.equal(el);
      expect(iframe.src).to.equal(iframeSrcOf(kind));
      expect(iframe.title, 'the observed code has no title: the element gives one').to.equal('Video player');
      expect(iframe.hasAttribute('srcdoc')).to.equal(false);
      expect(iframe.getAttribute('style')).to.not.contain('position:absolute', 'styles from the code are dropped');
      expect(iframe.getAttribute('allow')).to.equal('autoplay');
      expect(iframe.hasAttribute('msallowfullscreen') && iframe.hasAttribute('oallowfullscreen')).to.equal(true);
      const entry = performance.getEntriesByName(iframe.src)[0] as PerformanceResourceTiming | undefined;
      expect(entry?.initiatorType, 'the player page was loaded').to.equal('iframe');
    });
  }

  it("a VOD's video plays (muted)", async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    await ready;
    await waitUntil(() => playerBox(el)?.querySelector('video'), 'the video element', { timeout: 10_000 });
    const video = playerBox(el)!.querySelector('video')!;
    video.muted = true;
    await video.play();
    await waitUntil(() => video.currentTime > 0.2, 'the video advances', { timeout: 10_000 });
    expect(video.paused).to.equal(false);
  });

  it('reserves a 16:9 box before loading, and honours --svc-player-aspect-ratio', async () => {
    const { el } = mount({ style: 'width: 320px' });
    await el.updateComplete;
    expect(el.state).to.equal('idle');
    expect(el.getBoundingClientRect().height).to.be.closeTo(180, 1);
    el.style.setProperty('--svc-player-aspect-ratio', '4 / 3');
    expect(el.getBoundingClientRect().height).to.be.closeTo(240, 1);
  });

  it('shows a loading state (role=status) while the code is on its way', async () => {
    const { el, ready } = mount({ 'content-id': vodId, variant: 'iframe', loading: 'eager' });
    await el.updateComplete; // first render; the load starts and sets the state
    expect(el.state).to.equal('loading');
    await el.updateComplete; // the loading state rendered
    const status = el.shadowRoot!.querySelector('[part="loading"]');
    expect(status?.getAttribute('role')).to.equal('status');
    expect(status?.textContent).to.contain('Loading video');
    await ready;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="loading"]')).to.equal(null);
  });

  it('swaps the player when content-id, kind or variant change', async () => {
    const first = mount({ 'content-id': vodId, loading: 'eager' });
    const old = (await first.ready).element;
    const { el } = first;
    const next = new Promise<HTMLElement>((resolve) =>
      el.addEventListener('svc-player-ready', (event) => resolve(event.detail.element), { once: true }),
    );
    el.kind = 'playlist';
    el.contentId = ids.playlist;
    el.variant = 'iframe';
    const element = await next;
    expect(old.isConnected).to.equal(false);
    expect(element.tagName).to.equal('IFRAME');
    expect(el.querySelectorAll('[slot="player"]').length).to.equal(1);
    expect(el.querySelectorAll('script, iframe').length).to.equal(1);
    expect((element as HTMLIFrameElement).src).to.equal(iframeSrcOf('playlist'));
  });

  it('loads again when moved in the page', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    const first = (await ready).element;
    const again = new Promise<HTMLElement>((resolve) =>
      el.addEventListener('svc-player-ready', (event) => resolve(event.detail.element), { once: true }),
    );
    const box = document.createElement('section');
    document.body.append(box);
    box.append(el);
    const second = await again;
    expect(first.isConnected).to.equal(false);
    expect(second.parentElement?.parentElement).to.equal(el);
    expect(el.querySelectorAll('script').length).to.equal(1);
    box.remove();
  });

  it('refuses an unknown kind or variant before any request', async () => {
    for (const attributes of [{ kind: 'movie' }, { variant: 'flash' }] as Record<string, string>[]) {
      const { el, error } = mount({ 'content-id': vodId, loading: 'eager', ...attributes });
      const calls = recordEmbeds(el);
      expect((await error).code).to.equal('validation_failed');
      expect(el.state).to.equal('error');
      expect(calls).to.deep.equal([]);
      el.remove();
    }
  });

  it('refuses a content-id the relay would refuse before any request (a dot segment would leave the embed route)', async () => {
    for (const id of ['..', 'a/b']) {
      const { el, error } = mount({ 'content-id': id, loading: 'eager' });
      expect((await error).code).to.equal('validation_failed');
      expect(el.state).to.equal('error');
      el.remove();
    }
    const sent = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(sent.filter((path) => path.endsWith('/embed/javascript') || path.includes('a%2Fb'))).to.deep.equal([]);
  });

  it('removes what it injected when removed from the page', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    const script = (await ready).element;
    await waitUntil(() => playerBox(el), 'player.js rendered', { timeout: 10_000 });
    el.remove();
    expect(script.isConnected).to.equal(false);
    expect(el.children.length).to.equal(0);
    expect(document.querySelectorAll('.svc-video-player-box').length).to.equal(0);
  });

  it('drops a stale response: only the latest content is injected', async () => {
    // A player whose network is a test double, so the first answer can be held back.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    let stale: Promise<unknown> | undefined;
    class HeldPlayer extends Player {
      protected override client(): RelayClient {
        const client = super.client();
        const embed = client.embed.bind(client);
        client.embed = async (kind, id, variant, signal) => {
          calls.push(id);
          if (calls.length > 1) return embed(kind, id, variant, signal);
          await held;
          // Ignore the abort, as a network that cannot cancel would: the answer does arrive, late.
          stale = embed(kind, id, variant).then((answer) => answer.code);
          return { code: (await stale) as string };
        };
        return client;
      }
    }
    HeldPlayer.define('svc-player-held');
    const el = document.createElement('svc-player-held') as SvcPlayer;
    el.setAttribute('loading', 'eager');
    el.setAttribute('content-id', ids.playlist);
    el.setAttribute('kind', 'playlist');
    const events: string[] = [];
    el.addEventListener('svc-player-ready', (event) => events.push(event.detail.contentId));
    el.addEventListener('svc-error', (event) => events.push(`error ${event.detail.code}`));
    document.body.append(el);
    await waitUntil(() => calls.length === 1, 'the first request');
    el.kind = 'vod';
    el.contentId = vodId;
    await waitUntil(() => events.length === 1, 'the second load', { timeout: 10_000 });
    release();
    await waitUntil(() => stale, 'the stale request is sent');
    expect(await stale).to.be.a('string', 'the stale answer arrived');
    // Let its continuation in the element run (promise jobs only: the modules are already loaded).
    await new Promise((resolve) => setTimeout(resolve));
    await el.updateComplete;
    expect(events).to.deep.equal([vodId]);
    expect(el.querySelectorAll('script').length).to.equal(1);
    expect(el.querySelector('script')!.id).to.equal(contentIdOf('vod'));
    el.remove();
  });

  it('a load aborted with no newer one (the content removed mid-load) reports nothing and injects nothing', async () => {
    // With player-origin, nothing but the held embed code is awaited: its late answer reaches the load.
    const { el } = mount({ 'content-id': vodId, 'player-origin': playerOrigin, loading: 'eager' });
    const hold = holdEmbeds(el);
    const events: string[] = [];
    el.addEventListener('svc-player-ready', () => events.push('ready'));
    el.addEventListener('svc-error', (event) => events.push(`error ${event.detail.code}`));
    await waitUntil(() => hold.asked.length === 1, 'the embed request');
    expect(hold.asked).to.deep.equal([vodId]);
    await removeContentWhileHeld(el, hold);
    expect(events).to.deep.equal([]);
    expect(el.state).to.equal('idle');
    expect(el.getAttribute('state')).to.equal('idle');
    expect(el.children.length).to.equal(0);
  });

  it('drops a load started from a svc-player-ready listener (the element moved) when it is reset later', async () => {
    // @lit/task records such a load as done once the listener returns, and no longer aborts it.
    const { el, ready } = mount({ 'content-id': vodId, 'player-origin': playerOrigin, loading: 'eager' });
    const hold = holdEmbeds(el, 1);
    const box = document.createElement('div');
    document.body.append(box);
    try {
      let readies = 0;
      el.addEventListener('svc-player-ready', () => ++readies === 1 && box.append(el));
      await ready;
      await waitUntil(() => hold.asked.length === 2, 'the load the move started');
      await removeContentWhileHeld(el, hold);
      expect(readies).to.equal(1);
      expect(el.state).to.equal('idle');
      expect(el.querySelectorAll('[slot=player]').length).to.equal(0);
    } finally {
      box.remove();
    }
  });

  it('is already in its new state when svc-player-ready or svc-error fires', async () => {
    const seen: string[] = [];
    const ok = mount({ 'content-id': vodId, loading: 'eager' });
    ok.el.addEventListener('svc-player-ready', () => seen.push(ok.el.state));
    await ok.ready;
    const failed = mount({ code: '<b>not a player</b>', 'player-origin': playerOrigin, loading: 'eager' });
    failed.el.addEventListener('svc-error', () => seen.push(failed.el.state));
    await failed.error;
    expect(seen).to.deep.equal(['ready', 'error']);
  });

  it('loads nothing below the fold with loading="lazy" until scrolled near', async () => {
    const fresh = (await seedVod()).vod_id;
    const spacer = document.createElement('div');
    spacer.style.height = '400vh';
    const near = mount({ 'content-id': vodId, variant: 'iframe' });
    document.body.append(spacer);
    const far = mount({ 'content-id': fresh, kind: 'vod' });
    const calls = recordEmbeds(far.el);
    const farUrl = `/svc/embed/vod/${fresh}/javascript`;
    try {
      // The visible lazy player loading proves the observers have run for both.
      await near.ready;
      expect(far.el.state).to.equal('idle');
      expect(calls.filter((args) => args[1] === fresh)).to.deep.equal([]);
      expect(requestedUrls().filter((url) => url.endsWith(farUrl))).to.deep.equal([]);
      expect(far.el.children.length).to.equal(0);
      far.el.scrollIntoView();
      await far.ready;
      expect(calls.filter((args) => args[1] === fresh).length).to.equal(1);
      await waitUntil(() => requestedUrls().some((url) => url.endsWith(farUrl)), 'the relay request is recorded');
    } finally {
      spacer.remove();
      window.scrollTo(0, 0);
    }
  });

  it('shows viewers a short message for unknown content; the technical detail is in svc-error and the console', async () => {
    const answer = await (await fetch('/svc/embed/vod/424242/javascript')).json();
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      const { el, error } = mount({ 'content-id': '424242', loading: 'eager' });
      const detail = await error;
      expect(detail).to.deep.equal({ code: answer.error.code, message: answer.error.message });
      expect(detail.message, 'one full stop').not.to.match(/\.\.$/);
      await el.updateComplete;
      expect(el.state).to.equal('error');
      const alert = el.shadowRoot!.querySelector('[part="error"]')!;
      expect(alert.getAttribute('role')).to.equal('alert');
      expect(alert.textContent!.trim()).to.equal('This video is not available.');
      expect(alert.textContent).not.to.contain('424242');
      expect(alert.textContent).not.to.match(/GET|\/v2\/|404/);
      expect(warnings.some((line) => line.includes(detail.code) && line.includes(detail.message))).to.equal(true);
      expect(el.children.length).to.equal(0);
    } finally {
      console.warn = warn;
    }
  });

  it('takes translated viewer messages from the strings property', async () => {
    const { el, error } = mount(
      { code: '<b>not a player</b>', 'player-origin': playerOrigin, loading: 'eager' },
      { properties: { strings: { unavailable: 'Dieses Video ist nicht verfügbar.' } } },
    );
    expect((await error).code).to.equal('embed_rejected');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent!.trim()).to.equal('Dieses Video ist nicht verfügbar.');
  });

  it('says "cannot be shown here" when the relay refuses the identity (unauthorized), with the detail in svc-error and the console', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    // The relay's answer, not an error made here: on the script-tag path the element's SvcError is
    // the build's class, which the test cannot construct.
    const pageFetch = window.fetch;
    window.fetch = (input, init) =>
      String(input).includes('/svc/embed/')
        ? Promise.resolve(
            new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'Sign in: the relay at /svc needs a token.' } }), {
              status: 401,
              headers: { 'Content-Type': 'application/json' },
            }),
          )
        : pageFetch(input, init);
    try {
      const { el, error } = mount({ 'content-id': vodId, loading: 'eager' });
      expect(await error).to.deep.equal({ code: 'unauthorized', message: 'Sign in: the relay at /svc needs a token.' });
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent!.trim()).to.equal('This video cannot be shown here.');
      expect(warnings.some((line) => line.includes('unauthorized') && line.includes('needs a token'))).to.equal(true);
    } finally {
      console.warn = warn;
      window.fetch = pageFetch;
    }
  });

  it('says "cannot be shown here" to viewers when the relay cannot be reached, and why in svc-error', async () => {
    trustRelayOrigin('http://127.0.0.1:9');
    const { el, error } = mount({ 'content-id': vodId, loading: 'eager', relay: 'http://127.0.0.1:9/svc' });
    const detail = await error;
    expect(detail.code).to.equal('relay_unreachable');
    expect(detail.message).to.contain('http://127.0.0.1:9');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent!.trim()).to.equal('This video cannot be shown here.');
  });

  it('takes an embed code in hand (code) with no relay embed request', async () => {
    const code = (await relay<{ code: string }>('GET', `/embed/channel/${ids.channel}/iframe`)).code;
    const since = performance.now();
    const { el, ready } = mount({ code, 'player-origin': playerOrigin, 'iframe-origins': `${playerOrigin} ${iframeOrigin}`, loading: 'eager' });
    const calls = recordEmbeds(el);
    const detail = await ready;
    expect(detail.element.tagName).to.equal('IFRAME');
    expect(detail.contentId).to.equal(contentIdOf('channel'));
    expect(calls).to.deep.equal([]);
    const relayRequests = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime >= since && new URL(entry.name).pathname.startsWith('/svc/'));
    expect(relayRequests.map((entry) => entry.name)).to.deep.equal([]);
  });

  it('gives an untitled iframe a title for screen readers', async () => {
    const code = `<iframe src="${playerOrigin}/embed/${contentIdOf('vod')}" width="100%" height="100%"></iframe>`;
    const { ready } = mount({ code, 'player-origin': playerOrigin, loading: 'eager' });
    expect(((await ready).element as HTMLIFrameElement).title).to.equal('Video player');
  });

  it('copies the CSP nonce to the injected script (attribute, meta, static default)', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager', nonce: 'n-attr' });
    expect(((await ready).element as HTMLScriptElement).nonce).to.equal('n-attr');
    el.remove();
    const meta = document.createElement('meta');
    meta.name = 'svc-nonce';
    meta.content = 'n-meta';
    document.head.append(meta);
    try {
      const second = mount({ 'content-id': vodId, loading: 'eager' });
      expect(((await second.ready).element as HTMLScriptElement).nonce).to.equal('n-meta');
      second.el.remove();
    } finally {
      meta.remove();
    }
    Player.nonce = 'n-static';
    try {
      const third = mount({ 'content-id': vodId, loading: 'eager' });
      expect(((await third.ready).element as HTMLScriptElement).nonce).to.equal('n-static');
    } finally {
      Player.nonce = undefined;
    }
  });

  it('has a read-only state: setting it from outside changes neither the property nor the attribute', async () => {
    const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
    await ready;
    await el.updateComplete;
    // Module code is strict: like a platform read-only property, assigning throws.
    expect(() => ((el as unknown as { state: string }).state = 'error')).to.throw(TypeError);
    await el.updateComplete;
    expect(el.state).to.equal('ready');
    expect(el.getAttribute('state')).to.equal('ready');
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.equal(null);
    el.remove();
    await el.updateComplete;
    expect(el.state).to.equal('idle');
    expect(el.getAttribute('state')).to.equal('idle');
  });

  it('asks the relay with simple public GETs: no custom header, no token, no credentials (no preflight)', async () => {
    // A relay of its own (on another origin, which the page lists), so that the page's shared GET /config is asked again.
    const response = await fetch('/__svc-uploader/relays/player-simple-gets', { method: 'POST', body: JSON.stringify({ allowed_origins: [location.origin] }) });
    const relayUrl = ((await response.json()) as { relay_url: string }).relay_url;
    trustRelayOrigin(relayUrl);
    const sent: { url: string; init?: RequestInit }[] = [];
    const original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/svc/')) sent.push({ url: String(input), init });
      return original(input, init);
    };
    try {
      const { ready } = mount(
        { 'content-id': vodId, loading: 'eager', relay: relayUrl },
        { properties: { token: () => 'secret-token' } },
      );
      await ready;
    } finally {
      window.fetch = original;
    }
    expect(sent.map(({ url }) => new URL(url).pathname).sort()).to.deep.equal(['/svc/config', `/svc/embed/vod/${vodId}/javascript`]);
    for (const { init } of sent) {
      expect(init?.headers, 'no custom header').to.equal(undefined);
      expect(init?.credentials, 'no credentials').to.equal(undefined);
      expect(init?.method ?? 'GET').to.equal('GET');
    }
  });

  it('reports a programming error as internal with its message, never as a network failure', async () => {
    const { el, error } = mount({ 'content-id': vodId, loading: 'eager' });
    wrapClient(el, (client) => {
      client.embed = () => Promise.reject(new TypeError('embed is broken'));
    });
    expect(await error).to.deep.equal({ code: 'internal', message: 'embed is broken' });
    await el.updateComplete;
    expect(el.state).to.equal('error');
  });

  it('says why with svc-error when a request its client() override makes is cancelled by someone else', async () => {
    const { el, error } = mount({ 'content-id': vodId, loading: 'eager' });
    wrapClient(el, (client) => {
      client.embed = () => Promise.reject(new DOMException('Cancelled by the page', 'AbortError'));
    });
    // Not the element's own cancellation (that one is silent and leaves no error): the load failed.
    expect((await error).code).to.equal('network_error');
    await el.updateComplete;
    expect(el.state).to.equal('error');
    expect(el.shadowRoot!.querySelector('[part=error]')).to.not.equal(null);
  });

  it('is accessible (axe) when ready and in the error state', async () => {
    const ok = mount({ 'content-id': vodId, loading: 'eager' });
    await ok.ready;
    await waitUntil(() => playerBox(ok.el)?.querySelector('video'), 'the video', { timeout: 10_000 });
    await expect(ok.el).to.be.accessible();
    const framed = mount({ 'content-id': vodId, variant: 'iframe', loading: 'eager' });
    await framed.ready;
    await expect(framed.el).to.be.accessible();
    const failed = mount({ code: '<b>not a player</b>', 'player-origin': playerOrigin, loading: 'eager' });
    await failed.error;
    await failed.el.updateComplete;
    await expect(failed.el).to.be.accessible();
  });
});
