// Trust comes from the site owner (the page's head and its relay's GET /config), never from what a
// post's author writes in the body: an attacker's relay, player origin, iframe origins or embed code
// in the element's attributes (or a <meta> or <base> in the body) loads no script and no frame from
// the attacker's origin, and fires `svc-error` with `origin_not_trusted` (or `embed_rejected` for a
// code off the trusted origins). The attacker here is a real server (the canary of
// test/support/wtr/svc-player.ts) that answers as a relay and serves a player.js marking the page;
// the first test proves that a page which does trust it runs its script, so the checks can fail.
import { expect, waitUntil } from '@open-wc/testing';
import { seedVod, testEnv, trustRelayOrigin } from '../../support/browser.js';
import { mount, requestedUrls, type Mounted } from './helpers.js';

type Body = (this: { timeout(ms: number): void }) => unknown;
declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: Body) => void;
declare const before: (body: Body) => void;
declare const afterEach: (body: Body) => void;

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

interface Canary {
  origins: [string, string];
  hits: { method: string; url: string; host: string }[];
}

const canary = async (): Promise<Canary> => (await fetch('/__svc-player/canary')).json();
const resetCanary = () => fetch('/__svc-player/canary/reset', { method: 'POST' });

const escape = (markup: string) =>
  markup.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

let ATTACKER: string; // the attacker's origin (the canary)
let PLAYER: string; // the trusted player origin (the relay's config)
let vodId: string;
const ID = 'attack1';
const attackerScript = () => escape(`<script id="${ID}" src="${ATTACKER}/js/player.js?contentId=${ID}"></script>`);
const attackerFrame = () => escape(`<iframe src="${ATTACKER}/embed/${ID}"></iframe>`);

before(async function () {
  this.timeout(60_000);
  performance.setResourceTimingBufferSize(10_000);
  [ATTACKER] = (await canary()).origins;
  PLAYER = new URL((await testEnv()).player_url).origin;
  vodId = (await seedVod()).vod_id;
  await resetCanary();
});

afterEach(async () => {
  for (const el of document.querySelectorAll('svc-player, meta[name^="svc-relay"], base, [data-author]')) el.remove();
  delete window.__pwned;
  await resetCanary();
});

/** Asserts the player refused with `code`: nothing injected, nothing ran, no request reached the attacker. */
async function expectRefused(name: string, mounted: Mounted, code: string, before: number) {
  const detail = await mounted.error;
  expect(detail.code, name).to.equal(code);
  expect(detail.message, name).to.be.a('string').and.not.equal('');
  await mounted.el.updateComplete;
  expect(mounted.el.state, name).to.equal('error');
  expect(mounted.el.childNodes.length, `${name}: nothing injected`).to.equal(0);
  expect(document.querySelector(`script[src^="${ATTACKER}"], iframe[src^="${ATTACKER}"]`), `${name}: no attacker element`).to.equal(null);
  expect(window.__pwned, `${name}: nothing ran`).to.equal(undefined);
  const foreign = requestedUrls().slice(before).filter((url) => url.startsWith(ATTACKER));
  expect(foreign, `${name}: the page requested nothing from the attacker`).to.deep.equal([]);
  expect((await canary()).hits, `${name}: the attacker got no request`).to.deep.equal([]);
}

describe('<svc-player> takes trust from the site owner, never from a post', () => {
  it('runs the attacker’s player where the owner trusts the attacker’s relay (control: the checks can fail)', async () => {
    trustRelayOrigin(ATTACKER);
    const { ready } = mount({ 'content-id': ID, relay: `${ATTACKER}/svc`, loading: 'eager' });
    await ready;
    await waitUntil(() => window.__pwned === 'attacker', 'the attacker’s script ran');
    const hits = (await canary()).hits.map((hit) => hit.url);
    expect(hits).to.include.members(['/svc/config', `/svc/embed/vod/${ID}/javascript`, `/js/player.js?contentId=${ID}`]);
    expect(requestedUrls().some((url) => url.startsWith(`${ATTACKER}/js/player.js`))).to.equal(true);
  });

  it('refuses a relay attribute on an origin the head does not list (origin_not_trusted)', async () => {
    const relays = [`${ATTACKER}/svc`, `${ATTACKER}/svc/`, `//${ATTACKER.slice('http://'.length)}/svc`, `${ATTACKER.replace('127.0.0.1', 'localhost')}/svc`];
    for (const relay of relays) {
      const before = requestedUrls().length;
      const mounted = mount({ 'content-id': ID, relay, loading: 'eager' });
      await expectRefused(`relay="${relay}"`, mounted, 'origin_not_trusted', before);
      mounted.el.remove();
    }
  });

  it('refuses a relay attribute with credentials, a query or a fragment, even on the page’s origin', async () => {
    for (const relay of [`${location.origin}/svc?x=`, `${location.origin}/svc#x`, `http://user:pw@${location.host}/svc`, 'javascript:alert(1)']) {
      const before = requestedUrls().length;
      const mounted = mount({ 'content-id': vodId, relay, loading: 'eager' });
      await expectRefused(`relay="${relay}"`, mounted, 'origin_not_trusted', before);
      mounted.el.remove();
    }
  });

  it('ignores an author’s <meta> in the body: neither svc-relay-origins nor svc-relay brings in the attacker', async () => {
    const listed = Object.assign(document.createElement('meta'), { name: 'svc-relay-origins', content: ATTACKER });
    const relayMeta = Object.assign(document.createElement('meta'), { name: 'svc-relay', content: `${ATTACKER}/svc` });
    const post = Object.assign(document.createElement('div'), { className: 'post' });
    post.dataset.author = '';
    post.append(listed, relayMeta);
    document.body.append(post);
    const before = requestedUrls().length;
    const mounted = mount({ 'content-id': ID, relay: `${ATTACKER}/svc`, loading: 'eager' });
    await expectRefused('meta svc-relay-origins in the body', mounted, 'origin_not_trusted', before);
    mounted.el.remove();
    // Without a relay attribute, the player uses the page's own /svc, not the body's svc-relay.
    const legit = mount({ 'content-id': vodId, loading: 'eager' });
    const detail = await legit.ready;
    expect((detail.element as HTMLScriptElement).src.startsWith(`${PLAYER}/js/player.js?contentId=`)).to.equal(true);
    expect((await canary()).hits).to.deep.equal([]);
  });

  it('resolves the relay against the page’s address, not an author’s <base href>', async () => {
    const base = Object.assign(document.createElement('base'), { href: `${ATTACKER}/` });
    base.dataset.author = '';
    document.body.append(base);
    expect(document.baseURI).to.equal(`${ATTACKER}/`);
    const { ready } = mount({ 'content-id': vodId, loading: 'eager' });
    const detail = await ready;
    base.remove(); // the test's own relative fetches below must reach the test server
    expect((detail.element as HTMLScriptElement).src.startsWith(`${PLAYER}/js/player.js`)).to.equal(true);
    expect(window.__pwned).to.equal(undefined);
    expect((await canary()).hits).to.deep.equal([]);
  });

  it('refuses a player-origin attribute that would add the attacker’s origin, with the attacker’s code', async () => {
    const before = requestedUrls().length;
    const mounted = mount({ 'player-origin': ATTACKER, code: attackerScript(), loading: 'eager' });
    await expectRefused('player-origin + code', mounted, 'origin_not_trusted', before);
  });

  it('refuses an iframe-origins attribute that would add the attacker’s origin, with the attacker’s frame', async () => {
    const before = requestedUrls().length;
    const mounted = mount({ 'iframe-origins': `${PLAYER} ${ATTACKER}`, code: attackerFrame(), variant: 'iframe', loading: 'eager' });
    await expectRefused('iframe-origins + code', mounted, 'origin_not_trusted', before);
  });

  it('checks a code attribute against the trusted relay’s origins (embed_rejected)', async () => {
    for (const code of [attackerScript(), attackerFrame()]) {
      const before = requestedUrls().length;
      const mounted = mount({ code, loading: 'eager' });
      await expectRefused(`code ${code}`, mounted, 'embed_rejected', before);
      mounted.el.remove();
    }
  });

  it('takes the origins from the page’s relay when a relay path on its origin names others', async () => {
    const before = requestedUrls().length;
    const mounted = mount({ 'content-id': ID, relay: '/__svc-player/lying-relay', loading: 'eager' });
    await expectRefused('lying relay on the page’s origin', mounted, 'embed_rejected', before);
    expect(requestedUrls().slice(before).some((url) => url.endsWith(`/__svc-player/lying-relay/embed/vod/${ID}/javascript`))).to.equal(true);
  });

  it('still loads the legitimate player, also with attributes that narrow to the trusted origins', async () => {
    const narrowing: Record<string, string>[] = [{}, { 'player-origin': PLAYER }, { 'player-origin': `${PLAYER}/`, 'iframe-origins': PLAYER }, { relay: `${location.origin}/svc` }];
    for (const attributes of narrowing) {
      const { el, ready } = mount({ 'content-id': vodId, loading: 'eager', ...attributes });
      const detail = await ready;
      expect((detail.element as HTMLScriptElement).src.startsWith(`${PLAYER}/js/player.js?contentId=`), JSON.stringify(attributes)).to.equal(true);
      el.remove();
    }
    expect(window.__pwned).to.equal(undefined);
    expect((await canary()).hits).to.deep.equal([]);
  });
});

/** What an author writes in a post's body, parsed as the HTML parser parses it. */
function post(markup: string): HTMLElement {
  const div = document.createElement('div');
  div.dataset.author = '';
  div.innerHTML = markup;
  document.body.append(div);
  return div;
}

// Named elements in the body shadow the document's properties: `<form name="head">` makes
// `document.head` that form (two of them make it an HTMLCollection), `<img name="head">` that image.
// The head is read through the prototype's getter and only when it is the real one.
describe('<svc-player> and markup that clobbers document.head', () => {
  it('a <form name="head"> holding svc-relay-origins does not bring in the attacker’s relay', async () => {
    post(`<form name="head"><meta name="svc-relay-origins" content="${ATTACKER}"></form>`);
    expect(document.head.tagName, 'the markup does clobber document.head').to.equal('FORM');
    const before = requestedUrls().length;
    const mounted = mount({ 'content-id': ID, relay: `${ATTACKER}/svc`, loading: 'eager' });
    await expectRefused('form name=head + svc-relay-origins', mounted, 'origin_not_trusted', before);
  });

  it('a <form name="head"> holding svc-relay does not move the page’s relay to the attacker', async () => {
    post(`<form name="head"><meta name="svc-relay" content="${ATTACKER}/svc"></form>`);
    const { ready } = mount({ 'content-id': vodId, loading: 'eager' });
    const detail = await ready;
    expect((detail.element as HTMLScriptElement).src.startsWith(`${PLAYER}/js/player.js?contentId=`)).to.equal(true);
    expect(window.__pwned).to.equal(undefined);
    expect((await canary()).hits).to.deep.equal([]);
  });

  it('two <form name="head"> (an HTMLCollection) and an <img name="head"> break no player, and the real head still counts', async () => {
    for (const markup of ['<form name="head"></form><form name="head"></form>', '<img name="head" alt="">']) {
      const author = post(markup);
      expect(document.head, `${markup} clobbers document.head`).to.not.be.instanceOf(HTMLHeadElement);
      const { el, ready } = mount({ 'content-id': vodId, loading: 'eager' });
      const detail = await ready;
      expect((detail.element as HTMLScriptElement).src.startsWith(`${PLAYER}/js/player.js?contentId=`), markup).to.equal(true);
      el.remove();
      // The owner's setting in the real head is still read (control: the attacker's relay runs).
      trustRelayOrigin(ATTACKER);
      const attacked = mount({ 'content-id': ID, relay: `${ATTACKER}/svc`, loading: 'eager' });
      await attacked.ready;
      await waitUntil(() => window.__pwned === 'attacker', `${markup}: the owner's listed relay is used`);
      attacked.el.remove();
      document.querySelector('head > meta[name="svc-relay-origins"]')!.remove();
      delete window.__pwned;
      author.remove();
    }
  });
});

describe('<svc-player> CSP nonce', () => {
  afterEach(() => {
    document.querySelector('head > meta[name="svc-nonce"]')?.remove();
    (customElements.get('svc-player') as unknown as { nonce?: string }).nonce = undefined;
  });

  it('takes <meta name="svc-nonce"> from the head only: one in a post (or a clobbered head) does not beat SvcPlayer.nonce', async () => {
    const SvcPlayer = customElements.get('svc-player') as unknown as { nonce?: string };
    SvcPlayer.nonce = 'site-nonce';
    post(`<meta name="svc-nonce" content="post-nonce"><form name="head"><meta name="svc-nonce" content="form-nonce"></form>`);
    const first = mount({ 'content-id': vodId, loading: 'eager' });
    expect(((await first.ready).element as HTMLScriptElement).nonce).to.equal('site-nonce');
    first.el.remove();
    // Control: the owner's meta in the real head is used.
    const meta = Object.assign(document.createElement('meta'), { name: 'svc-nonce', content: 'head-nonce' });
    document.querySelector('head')!.append(meta);
    const second = mount({ 'content-id': vodId, loading: 'eager' });
    expect(((await second.ready).element as HTMLScriptElement).nonce).to.equal('head-nonce');
  });
});

describe('<svc-player loading="click"> preconnect', () => {
  afterEach(() => {
    for (const link of document.querySelectorAll('link[rel=preconnect]')) link.remove();
  });

  const hover = async (attributes: Record<string, string>): Promise<string[]> => {
    const { el } = mount({ 'content-id': vodId, loading: 'click', ...attributes });
    await waitUntil(() => el.shadowRoot?.querySelector('button[part~=play]'), 'the play button shows', { timeout: 5000 });
    const button = el.shadowRoot!.querySelector<HTMLButtonElement>('button[part~=play]')!;
    button.dispatchEvent(new PointerEvent('pointerenter'));
    button.focus();
    el.remove();
    return [...document.querySelectorAll<HTMLLinkElement>('link[rel=preconnect]')].map((link) => link.href);
  };

  it('never opens a connection to an origin only an attribute names (player-origin, relay)', async () => {
    // The page's relay config is known (a player loaded), so the facade has a trusted origin at hand.
    const loaded = mount({ 'content-id': vodId, loading: 'eager' });
    await loaded.ready;
    loaded.el.remove();
    expect(await hover({ 'player-origin': ATTACKER }), 'player-origin of the attacker').to.deep.equal([]);
    expect(await hover({ relay: `${ATTACKER}/svc` }), 'relay of the attacker').to.deep.equal([]);
    // Control: the trusted origin, from the relay's config, is preconnected.
    expect(await hover({}), 'no attribute').to.deep.equal([`${PLAYER}/`]);
    expect((await canary()).hits).to.deep.equal([]);
  });
});
