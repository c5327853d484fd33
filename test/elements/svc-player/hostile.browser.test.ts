// A corpus of hostile and malformed embed codes. Each one must inject nothing, run nothing (a canary
// global that any handler or script in the corpus would set stays unset), send no request to a
// foreign origin (the corpus's foreign URLs point at a canary server that records every request it
// gets, see test/support/wtr/svc-player.ts) and fire `svc-error` with code `embed_rejected`.
import { expect, waitUntil } from '@open-wc/testing';
import { testEnv } from '../../support/browser.js';
import { mount, requestedUrls } from './helpers.js';

// Mocha globals, provided by web-test-runner.
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
  port: number;
  hits: { method: string; url: string; host: string }[];
}

const canary = async (): Promise<Canary> => (await fetch('/__svc-player/canary')).json();

/** Escapes markup the way the service does (`&`, `<`, `>`, `"`, `'` as entities). */
const escape = (markup: string) =>
  markup.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

let P: string; // the player origin
let I: string; // the service's iframe origin (observed: separate from the player origin)
let A: string; // the account id
let C: string; // the canary, as 127.0.0.1:port
let L: string; // the canary, as localhost:port
let ID: string;
let valid: (id?: string, src?: string, extra?: string) => string;

before(async () => {
  performance.setResourceTimingBufferSize(10_000);
  const env = await testEnv();
  P = new URL(env.player_url).origin;
  A = env.account_id;
  const config = (await (await fetch('/svc/config')).json()) as { iframe_origins: string[] };
  I = config.iframe_origins.find((origin) => origin !== P)!;
  [C, L] = (await canary()).origins;
  ID = `${env.account_id}-vod-hostile1`;
  valid = (id = ID, src = `${P}/js/player.js?contentId=${id}`, extra = '') =>
    `<script id="${id}" width="100%" height="100%" src="${src}" class="svc-video-player"${extra}></script>`;
});

afterEach(() => {
  for (const el of document.querySelectorAll('svc-player')) el.remove();
});

const PWN = 'window.__pwned=1';
const PARENT_PWN = 'parent.__pwned=1';

/** [name, markup (escaped once like the service, unless `raw`)] or a non-string value. */
const corpus = (): [string, unknown][] => [
  ['event handler on the script', escape(valid(ID, undefined, ` onload="${PWN}"`))],
  ['onerror with a foreign script', escape(valid(ID, `${C}/js/player.js?contentId=${ID}`, ` onerror="${PWN}"`))],
  ['event handler on the iframe', escape(`<iframe src="${P}/embed/${ID}" onload="${PWN}"></iframe>`)],
  ['event handler on the wrapper div', escape(`<div onmouseover="${PWN}"><iframe src="${P}/embed/${ID}"></iframe></div>`)],
  ['img onerror', escape(`<img src="${C}/img.png" onerror="${PWN}">`)],
  ['svg onload', escape(`<svg onload="${PWN}"><image href="${C}/svg.png"></image></svg>`)],
  ['svg script', escape(`<svg><script href="${C}/svg.js"></script></svg>`)],
  ['MathML mglyph confusion', escape(`<math><mtext><table><mglyph><style><img src="${C}/m.png" onerror="${PWN}">`)],
  ['javascript: script src', escape(valid(ID, `javascript:${PWN}`))],
  ['javascript: iframe src', escape(`<iframe src="javascript:${PARENT_PWN}"></iframe>`)],
  ['tab-split javascript:', escape(`<iframe src="java\tscript:${PARENT_PWN}"></iframe>`)],
  ['entity-encoded javascript:', escape(`<iframe src="&#106;avascript:${PARENT_PWN}"></iframe>`)],
  ['data: script src', escape(valid(ID, `data:text/javascript,${PWN}`))],
  ['data: iframe src', escape(`<iframe src="data:text/html;base64,${btoa(`<script>${PARENT_PWN}</script>`)}"></iframe>`)],
  ['srcdoc', escape(`<iframe src="${P}/embed/${ID}" srcdoc="&lt;img src=${C}/sd.png onerror=${PARENT_PWN}&gt;"></iframe>`)],
  ['sandbox with srcdoc', escape(`<iframe sandbox="allow-scripts" srcdoc="x" src="${P}/embed/${ID}"></iframe>`)],
  ['another port', escape(valid(ID, `${C}/js/player.js?contentId=${ID}`))],
  ['another host spelling (localhost)', escape(valid(ID, `${L}/js/player.js?contentId=${ID}`))],
  ['userinfo look-alike', escape(valid(ID, `${P}@${C.slice('http://'.length)}/js/player.js?contentId=${ID}`))],
  ['credentials on the player origin', escape(valid(ID, `${P.replace('://', '://user:pass@')}/js/player.js?contentId=${ID}`))],
  ['punycode host', escape(valid(ID, `http://xn--80ak6aa92e.com/js/player.js?contentId=${ID}`))],
  ['backslashes', escape(valid(ID, `http:\\\\${C.slice('http://'.length)}\\js\\player.js?contentId=${ID}`))],
  ['protocol-relative', escape(valid(ID, `//${C.slice('http://'.length)}/js/player.js?contentId=${ID}`))],
  ['foreign iframe', escape(`<iframe src="${C}/embed/${ID}"></iframe>`)],
  // Look-alikes of the observed iframe code (iframe origin, /<vod|live|playlist>/<account>/<id>).
  ['observed path on a foreign origin', escape(`<iframe src="${C}/vod/${A}/hostile1" allowfullscreen></iframe>`)],
  ['observed path on another host spelling', escape(`<iframe src="${I.replace('127.0.0.1', 'localhost')}/vod/${A}/hostile1"></iframe>`)],
  ['iframe origin as userinfo', escape(`<iframe src="${I}@${C.slice('http://'.length)}/vod/${A}/hostile1"></iframe>`)],
  ['unknown segment on the iframe origin', escape(`<iframe src="${I}/video/${A}/hostile1"></iframe>`)],
  ['segment look-alike on the iframe origin', escape(`<iframe src="${I}/vods/${A}/hostile1"></iframe>`)],
  ['a fourth segment on the iframe origin', escape(`<iframe src="${I}/vod/${A}/hostile1/x"></iframe>`)],
  ['a query on the content path', escape(`<iframe src="${I}/vod/${A}/hostile1?next=${C}/q"></iframe>`)],
  ['escaped slashes in the content path', escape(`<iframe src="${I}/vod/${A}%2F..%2F..%2Fembed/hostile1"></iframe>`)],
  ['event handler on the observed iframe', escape(`<iframe src="${I}/vod/${A}/hostile1" frameborder="0" oallowfullscreen onload="${PARENT_PWN}"></iframe>`)],
  ['script src on the iframe origin', escape(valid(ID, `${I}/js/player.js?contentId=${ID}`))],
  ['iframe on the player origin off /embed/', escape(`<iframe src="${P}/js/player.js?contentId=${ID}"></iframe>`)],
  ['another script path', escape(valid(ID, `${P}/js/evil.js?contentId=${ID}`))],
  ['an extra query parameter', escape(valid(ID, `${P}/js/player.js?contentId=${ID}&callback=x`))],
  ['contentId differing from id', escape(valid(ID, `${P}/js/player.js?contentId=${ID}x`))],
  ['element before', escape(`<img src="${C}/before.png" onerror="${PWN}">${valid()}`)],
  ['element after', escape(`${valid()}<img src="${C}/after.png" onerror="${PWN}">`)],
  ['a second, foreign script', escape(valid() + valid(ID, `${C}/js/player.js?contentId=${ID}`))],
  ['base href before', escape(`<base href="${C}/">${valid()}`)],
  ['script nested in a div', escape(`<div>${valid()}</div>`)],
  ['iframe nested in an iframe', escape(`<iframe src="${P}/embed/${ID}"><iframe src="${C}/embed/x"></iframe></iframe>`)],
  ['template with a script', escape(`<template><script src="${C}/t.js"></script></template>`)],
  ['style @import', escape(`<style>@import url("${C}/x.css");</style>`)],
  ['link stylesheet', escape(`<link rel="stylesheet" href="${C}/x.css">`)],
  ['object', escape(`<object data="${C}/x.swf"></object>`)],
  ['meta refresh', escape(`<meta http-equiv="refresh" content="0;url=javascript:${PWN}">`)],
  ['inline script text', escape(valid().replace('></script>', `>${PWN}</script>`))],
  ['inline script without src', escape(`<script>${PWN}</script>`)],
  ['type=module', escape(valid(ID, undefined, ' type="module"'))],
  ['double-escaped valid code', escape(escape(valid()))],
  ['double-escaped hostile code', escape(escape(`<img src="${C}/de.png" onerror="${PWN}">`))],
  ['comment before', escape(`<!-- hello -->${valid()}`)],
  ['comment hiding markup', escape(`${valid()}<!--<img src="${C}/c.png" onerror="${PWN}">-->`)],
  ['CDATA', escape(`<![CDATA[<img src="${C}/cd.png" onerror="${PWN}">]]>`)],
  ['unclosed tag', escape(`<script id="${ID}" src="${P}/js/player.js?contentId=${ID}"`)],
  ['unclosed quote', escape(`<script id="${ID} src="${C}/js/player.js?contentId=${ID}"></script>`)],
  ['self-closing script', escape(valid().replace('></script>', '/>'))],
  ['upper-case tag', escape(valid().replace('<script', '<SCRIPT').replace('</script', '</SCRIPT'))],
  ['a tag broken by another', escape(`<scr<script>ipt src="${C}/b.js"></script>`)],
  ['NUL inside', escape(valid()).replace('&gt;&lt;', '&gt;\u0000&lt;')],
  ['raw (unescaped) hostile markup', `<img src="${C}/raw.png" onerror="${PWN}">`],
  ['plain text', 'hello'],
  ['empty code', ''],
  ['white space only', ' \n\t '],
  ['a number', 42],
  ['an object that stringifies to a valid code', { toString: () => escape(valid()) }],
];

/** Asserts the element injected nothing, ran nothing and reported `embed_rejected`. */
async function expectRejected(name: string, mounted: ReturnType<typeof mount>, before: number) {
  const detail = await mounted.error;
  const { el } = mounted;
  await el.updateComplete;
  expect(detail.code, name).to.equal('embed_rejected');
  expect(detail.message, name).to.be.a('string').and.not.equal('');
  expect(el.state, name).to.equal('error');
  expect(el.shadowRoot!.querySelector('[part="error"][role="alert"]'), name).to.not.equal(null);
  expect(el.childNodes.length, `${name}: nothing injected`).to.equal(0);
  expect(window.__pwned, `${name}: nothing ran`).to.equal(undefined);
  const foreign = requestedUrls()
    .slice(before)
    .filter((url) => !url.startsWith(`${location.origin}/`));
  expect(foreign, `${name}: no request left the page's origin`).to.deep.equal([]);
  expect((await canary()).hits, `${name}: the canary got no request`).to.deep.equal([]);
}

describe('<svc-player> refuses hostile embed codes', () => {
  it('has canaries that do detect a request and a handler (control)', async () => {
    const scratch = document.createElement('div');
    // Deliberately unsafe, outside the element: proves the checks below can fail.
    scratch.innerHTML = `<img src="${C}/control.png" onerror="${PWN}">`;
    document.body.append(scratch);
    await waitUntil(() => window.__pwned === 1, 'the handler ran');
    await waitUntil(async () => (await canary()).hits.length > 0, 'the canary saw the request');
    expect(requestedUrls().some((url) => url.startsWith(`${C}/control.png`))).to.equal(true);
    scratch.remove();
    delete window.__pwned;
    await fetch('/__svc-player/canary/reset', { method: 'POST' });
  });

  it('has at least 40 cases', () => {
    expect(corpus().length).to.be.at.least(40);
  });

  it('refuses each one given through the code attribute or property', async function () {
    this.timeout(120_000);
    for (const [name, code] of corpus()) {
      const before = requestedUrls().length;
      const mounted =
        typeof code === 'string'
          ? mount({ code, loading: 'eager' })
          : mount({ loading: 'eager' }, { properties: { code } });
      await expectRejected(name, mounted, before);
      mounted.el.remove();
    }
  });

  it('refuses hostile codes that come from the relay', async function () {
    this.timeout(60_000);
    const cases = corpus().filter(([name]) =>
      /handler on the script|another port|userinfo|srcdoc|double-escaped hostile|comment hiding|element after|a number|contentId differing/.test(
        name,
      ),
    );
    cases.push(['a response without code', undefined]);
    expect(cases.length).to.be.at.least(8);
    for (const [index, [name, code]] of cases.entries()) {
      const id = `hostile${index}`;
      const body = code === undefined ? { nothing: true } : { code };
      await fetch(`/__svc-player/relay-codes/${id}`, { method: 'PUT', body: JSON.stringify(body) });
      const before = requestedUrls().length;
      const mounted = mount({ 'content-id': id, relay: '/__svc-player/relay', loading: 'eager' });
      await expectRejected(`relay: ${name}`, mounted, before);
      expect(requestedUrls().slice(before).some((url) => url.endsWith(`/__svc-player/relay/embed/vod/${id}/javascript`))).to.equal(
        true,
      );
      mounted.el.remove();
    }
  });

  it('still has an untouched canary after all of them, once a valid player has loaded', async () => {
    // A valid code for an unknown id: the element accepts it and player.js runs (and reports the
    // content unavailable), which lets every earlier network activity settle first.
    const mounted = mount({ code: escape(valid()), loading: 'eager' });
    await mounted.ready;
    await waitUntil(() => mounted.el.querySelector('script')?.getAttribute('data-svc-player') === 'error', 'player.js ran');
    expect(window.__pwned).to.equal(undefined);
    expect((await canary()).hits).to.deep.equal([]);
  });
});
