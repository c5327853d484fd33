// The script-tag path as a CMS page uses it: one nonced `<script type="module" src="/svc/elements.js">`
// (the loader of dist/cdn/, served by the real relay mounted under /svc of the page's site), under
// the documented strict policy (nonce, relay origin, player origin, Trusted Types) and under a
// 'strict-dynamic' one, in Chromium, Firefox and WebKit: each tag is registered when it appears
// (also when added later, and in a shadow root through `discover`), a click-to-load player shows
// its play button without the player's code (nor Lit) and plays after the click, all with no CSP
// violation and no error.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundleIfStale } from '../../scripts/build.js';
import { writeManifest } from '../../scripts/cdn-manifest.js';
import { launchChromium } from '../support/chromium.js';
import { startRelay } from '../relay/helpers.js';
import { installedEngines, waitInPage, type Engine, type EnginePage } from '../support/browsers/pages.js';
import { documentedPolicy, errorsIn, recorderScript, svcErrorsIn, violationsIn } from '../support/csp.js';
import { makeVideo } from '../support/media.js';
import { startStack, uploadVod, type Stack } from '../support/servers.js';

const NONCE = 'c2NyaXB0LXRhZy10ZXN0';

let stack: Stack;
let server: Server;
let origin: string;
let vodId: string;
let playerOrigin: string;
const pages = new Map<string, { csp: string; body: string }>();

const page = (body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc-elements by script tag</title>
${recorderScript(NONCE)}
<script type="module" nonce="${NONCE}" src="/svc/elements.js"></script>
</head>
<body>
${body}
</body>
</html>`;

before(async () => {
  await buildBundleIfStale();
  stack = await startStack();
  playerOrigin = new URL(stack.service.playerUrl).origin;
  vodId = (await uploadVod(stack.relayUrl, makeVideo({ seconds: 3 }))).vod_id;
  const relay = new URL(stack.relayUrl);
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/svc/')) {
      // The relay mounted under /svc of the page's site, as the README recommends: bytes and
      // headers passed as they are (the encodings the relay chose among them).
      const forward = request({ host: relay.hostname, port: relay.port, path: url, method: req.method, headers: { ...req.headers, host: relay.host } }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
      return;
    }
    const spec = pages.get(url);
    if (!spec) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': spec.csp, 'Cache-Control': 'no-store' });
    res.end(page(spec.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

after(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

/** The page's policy with `scripts` as script-src (the rest as docs/security.md gives it). */
// The stack runs the observed profile: iframe codes point at the service's iframe origin.
const policy = (scripts: string): string => documentedPolicy(scripts, playerOrigin, stack.service.iframeUrl);

const violations = (page: EnginePage) => violationsIn(page, origin);
/** Uncaught errors and `svc-error`s: a page of this test sees neither. */
const errors = async (page: Parameters<typeof errorsIn>[0]) => [...(await errorsIn(page)), ...(await svcErrorsIn(page)).map((detail) => `svc-error ${JSON.stringify(detail)}`)];

/** Holds back every file of ours matching `pattern` until `release()`. */
const hold = async (tab: import('playwright-core').Page, pattern: RegExp) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await tab.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
};

const BODY = (id: string) => `
<svc-player id="eager" content-id="${id}" loading="eager"></svc-player>
<svc-player id="click" content-id="${id}" loading="click" title="Harbour at dawn"></svc-player>
<svc-uploader></svc-uploader>
<div id="host"></div>`;

for (const candidate of installedEngines()) {
  describe(`the script tag (the loader /svc/elements.js) in ${candidate.name}`, { timeout: 180_000 }, () => {
    let engine: Engine;
    before(async () => {
      engine = await candidate.launch();
    });
    after(async () => {
      await engine?.close();
    });

    for (const [name, scripts] of [
      ['the documented policy (nonce, relay origin, player origin)', () => `'nonce-${NONCE}' ${origin} ${playerOrigin}`],
      ["a 'strict-dynamic' policy", () => `'nonce-${NONCE}' 'strict-dynamic'`],
    ] as const) {
      it(`registers each tag when it appears and plays, under ${name}, with no violation`, async () => {
        const path = `/page-${name.length}`;
        pages.set(path, { csp: policy(scripts()), body: BODY(vodId) });
        const tab = await engine.open(origin + path);
        await waitInPage(tab, () => document.querySelector('#eager')?.getAttribute('state') === 'ready');
        // The uploader's code came with its tag; its first paint is there.
        await waitInPage(tab, () => !!customElements.get('svc-uploader') && !!document.querySelector('svc-uploader')!.shadowRoot?.childElementCount);
        // A tag added later, and one in a shadow root given to discover().
        await tab.evaluate(async () => {
          const host = document.querySelector('#host')!;
          const root = host.attachShadow({ mode: 'open' });
          root.append(document.createElement('svc-channel-setup'));
          const loader = (await import(document.querySelector<HTMLScriptElement>('script[src$="elements.js"]')!.src)) as { discover(root: ShadowRoot): void };
          loader.discover(root);
          document.body.append(document.createElement('svc-playlist-editor'));
        });
        await waitInPage(tab, () => !!customElements.get('svc-channel-setup') && !!customElements.get('svc-playlist-editor'));
        await waitInPage(tab, () => !!document.querySelector('#host')!.shadowRoot!.querySelector('svc-channel-setup')!.shadowRoot?.childElementCount);
        // The click-to-load player: its button, then the player after a click.
        await waitInPage(tab, () => !!document.querySelector('#click')!.shadowRoot?.querySelector('[part=play]'));
        const label = await tab.evaluate(() => document.querySelector('#click')!.shadowRoot!.querySelector('[part=play]')!.getAttribute('aria-label'));
        assert.equal(label, 'Play Harbour at dawn');
        await tab.evaluate(() => (document.querySelector('#click')!.shadowRoot!.querySelector('[part=play]') as HTMLElement).click());
        await waitInPage(tab, () => document.querySelector('#click')?.getAttribute('state') === 'ready');
        await waitInPage(tab, () => document.querySelector('#click')!.shadowRoot!.querySelectorAll('[part=play]').length === 0);
        assert.deepEqual(await violations(tab), []);
        assert.deepEqual(await errors(tab), []);
        await tab.close();
      });
    }

    it("names the play button in the page's language before the player's code is there", async () => {
      pages.set('/french', {
        csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
        body: `<div lang="fr"><svc-player content-id="${vodId}" loading="click" title="Le port"></svc-player><svc-player content-id="${vodId}" loading="click"></svc-player></div>`,
      });
      const tab = await engine.open(`${origin}/french`);
      await waitInPage(tab, () => document.querySelectorAll('svc-player')[1]?.shadowRoot?.querySelector('[part~=play]')?.getAttribute('aria-label') === 'Lire la vidéo');
      const { requests, ...labels } = await tab.evaluate(() => ({
        defined: !!customElements.get('svc-player'),
        labels: [...document.querySelectorAll('svc-player')].map((player) => player.shadowRoot!.querySelector('[part~=play]')!.getAttribute('aria-label')),
        requests: performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
      }));
      // French puts narrow no-break spaces inside the guillemets.
      assert.deepEqual({ ...labels, labels: labels.labels.map((label) => label?.replace(/[\u00a0\u202f]/g, ' ')) }, { defined: false, labels: ['Lire « Le port »', 'Lire la vidéo'] });
      // The button's two strings in French, not the whole French translation.
      assert.ok(requests.some((path) => /^\/svc\/play-fr-[\w-]+\.js$/.test(path)), requests.join(' '));
      assert.ok(!requests.some((path) => /^\/svc\/fr-[\w-]+\.js$/.test(path)), requests.join(' '));
      // Nor Lit: the languages' chunk loader comes without it.
      assert.ok(!requests.some((path) => /^\/svc\/core-[\w-]+\.js$/.test(path)), requests.join(' '));
      assert.deepEqual(await violations(tab), []);
      await tab.close();
    });

    it('gives a click-to-load player play() and pause() before its code is there, and defines the player at once in media-chrome', async () => {
      const csp = policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`);
      pages.set('/play-api', { csp, body: `<svc-player id="a" content-id="${vodId}" loading="click" variant="javascript"></svc-player>` });
      const tab = await engine.open(`${origin}/play-api`);
      await waitInPage(tab, () => !!document.querySelector('#a')!.shadowRoot?.querySelector('[part=play]'));
      const early = await tab.evaluate(async () => {
        const player = document.querySelector('#a') as HTMLElement & { play(): Promise<void>; pause(): void };
        const defined = !!customElements.get('svc-player');
        // pause() cancels a play() still waiting for the code, as a media element's does.
        const cancelled = Promise.all(
          [player.play(), player.play()].map((call) =>
            call.then(
              () => 'played',
              (error: DOMException) => error.name,
            ),
          ),
        );
        player.pause();
        return { defined, cancelled: await cancelled };
      });
      assert.deepEqual(early, { defined: false, cancelled: ['AbortError', 'AbortError'] });
      await tab.evaluate(() => (document.querySelector('#a') as HTMLElement & { play(): Promise<void> }).play());
      await waitInPage(tab, () => document.querySelector('#a')?.getAttribute('state') === 'ready');
      assert.equal(await tab.evaluate(() => (document.querySelector('#a') as HTMLElement & { paused: boolean }).paused), false);
      assert.deepEqual(await errors(tab), []);
      await tab.close();

      // media-chrome's controller waits for its media element's tag to be defined: no preview there.
      pages.set('/media-chrome', {
        csp,
        body: `<media-controller><svc-player id="b" slot="media" content-id="${vodId}" loading="click"></svc-player></media-controller>`,
      });
      const chrome = await engine.open(`${origin}/media-chrome`);
      await waitInPage(chrome, () => !!customElements.get('svc-player') && document.querySelector('#b')!.matches(':defined'));
      await chrome.close();
      pages.set('/slotted', { csp, body: `<div><svc-player id="c" slot="media" content-id="${vodId}" loading="click"></svc-player></div>` });
      const slotted = await engine.open(`${origin}/slotted`);
      await waitInPage(slotted, () => !!customElements.get('svc-player'));
      await slotted.close();
    });

    it("shows a page of click-to-load players without the player's code, and loads it on the click", async () => {
      pages.set('/clicks', {
        csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
        body: Array.from({ length: 5 }, (_, i) => `<svc-player content-id="${vodId}" loading="click" title="Video ${i}"></svc-player>`).join('\n'),
      });
      const tab = await engine.open(`${origin}/clicks`);
      await waitInPage(tab, () => [...document.querySelectorAll('svc-player')].every((player) => !!player.shadowRoot?.querySelector('[part=play]')));
      const before = await tab.evaluate(() => ({
        defined: !!customElements.get('svc-player'),
        requests: performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
        states: [...document.querySelectorAll('svc-player')].map((player) => player.getAttribute('state')),
      }));
      assert.equal(before.defined, false, 'the player is not defined before a click');
      // Styled as the element would be (`svc-player[state=idle]`) before its code is there.
      assert.deepEqual(before.states, Array(5).fill('idle'));
      assert.ok(!before.requests.some((path) => /\/svc\/(config|embed)/.test(path)), before.requests.join(' '));
      // Neither the player's code (with Lit, in core-*.js) nor its load.
      assert.ok(!before.requests.some((path) => /\/svc\/(core|load)-/.test(path)), before.requests.join(' '));
      await tab.evaluate(() => (document.querySelectorAll('svc-player')[2]!.shadowRoot!.querySelector('[part=play]') as HTMLElement).click());
      await waitInPage(tab, () => document.querySelectorAll('svc-player')[2]!.getAttribute('state') === 'ready');
      // The others upgraded into their shadow roots: one play button each, still waiting.
      const others = await tab.evaluate(() =>
        [...document.querySelectorAll('svc-player')].map((player) => `${player.getAttribute('state')}:${player.shadowRoot!.querySelectorAll('[part=play]').length}`),
      );
      assert.deepEqual(others, ['idle:1', 'idle:1', 'ready:0', 'idle:1', 'idle:1']);
      assert.deepEqual(await violations(tab), []);
      assert.deepEqual(await errors(tab), []);
      await tab.close();
    });
  });
}

describe('the keyboard on a click-to-load player of the script tag (Chromium)', { timeout: 120_000 }, () => {
  /** Where the focus is: `in player` (the element, its light DOM or its shadow root), else the active element's name; and the part focused in the shadow root. */
  const focus = () => {
    const player = document.querySelector('svc-player')!;
    const active = document.activeElement;
    return { where: active && player.contains(active) ? 'in player' : String(active?.localName), part: player.shadowRoot?.activeElement?.getAttribute('part') ?? null };
  };

  for (const enter of [true, false]) {
    it(enter ? 'keeps the focus in the player when the viewer tabs to the play button and presses Enter' : "moves the focus to the element's own play button when its code arrives", async () => {
      const path = `/keyboard-${enter}`;
      pages.set(path, {
        csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
        body: `<button id="before">before</button><svc-player content-id="${vodId}" loading="click" variant="javascript" title="Harbour"></svc-player>`,
      });
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        await tab.goto(origin + path);
        await tab.waitForFunction(() => !!document.querySelector('svc-player')!.shadowRoot?.querySelector('[part=play]'));
        await tab.focus('#before');
        await tab.keyboard.press('Tab'); // the focus downloads the player's code
        assert.deepEqual(await tab.evaluate(focus), { where: 'in player', part: 'play' });
        if (enter) {
          await tab.keyboard.press('Enter');
          await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
          await tab.waitForFunction(() => document.querySelector('svc-player')!.shadowRoot!.querySelectorAll('[part=play]').length === 0);
          assert.equal((await tab.evaluate(focus)).where, 'in player');
        } else {
          // The element's own button replaced the preview's (its box emptied and hidden), and has the focus.
          await tab.waitForFunction(() => !!customElements.get('svc-player') && !!document.querySelector('svc-player')!.shadowRoot!.querySelector('div[hidden]'));
          assert.equal(await tab.evaluate(() => document.querySelector('svc-player')!.shadowRoot!.querySelectorAll('[part=play]').length), 1);
          assert.deepEqual(await tab.evaluate(focus), { where: 'in player', part: 'play' });
        }
        assert.deepEqual(await errors(tab), []);
      } finally {
        await browser.close();
      }
    });
  }
});

describe('the intent to play a click-to-load player of the script tag (Chromium)', { timeout: 120_000 }, () => {
  const open = async (path: string, players: number) => {
    pages.set(path, {
      csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
      body: Array.from({ length: players }, (_, i) => `<svc-player content-id="${vodId}" loading="click" title="Video ${i}"></svc-player>`).join('\n'),
    });
    const browser = await launchChromium();
    const tab = await browser.newPage();
    await tab.goto(origin + path);
    await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].every((player) => !!player.shadowRoot?.querySelector('[part=play]')));
    return { browser, tab, button: tab.locator('svc-player').first().locator('[part=play]') };
  };
  type Entry = { path: string; start: number; end: number };
  const entries = () =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd }));

  it("requests every file of the player's code at once when the pointer comes onto the play button", async () => {
    const { browser, tab, button } = await open('/intent-files', 3);
    try {
      // Every file of ours held until all of the player's are asked for: a file asked for only once
      // the file importing it has arrived would never be, and the wait below would end unmet.
      const asked: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await tab.route(/\/svc\/[\w.-]+\.js$/, async (route) => {
        asked.push(new URL(route.request().url()).pathname);
        await held;
        await route.continue();
      });
      await button.hover();
      // The player's code with Lit (core), its load with the relay client and the strings (load),
      // and the language picker (locale) (vite.config.ts SHARED_FILES); its own play button
      // (facade) only once it is defined.
      const wanted = ['core', 'load', 'locale'];
      const all = () => wanted.every((name) => asked.some((path) => path.startsWith(`/svc/${name}-`)));
      for (let waited = 0; !all() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      assert.ok(all(), `all asked for before any arrived: ${asked.join(' ')}`);
      await tab.waitForFunction(() => !!customElements.get('svc-player'));
      // Pointing asks the relay nothing.
      assert.ok(!(await tab.evaluate(entries)).some((entry: Entry) => /\/svc\/(config|embed)/.test(entry.path)));
    } finally {
      await browser.close();
    }
  });

  it('loads the player clicked before the other players of the page render (they keep the loader\'s button until then), and every one after', async () => {
    const { browser, tab, button } = await open('/clicked-first', 6);
    try {
      // In the page, from now: when each player's shadow root first changes (the element's first
      // render), and when the clicked player's own player goes into its light DOM.
      await tab.evaluate(() => {
        const seen: Record<string, number> = ((window as unknown as { __seen: Record<string, number> }).__seen = {});
        document.querySelectorAll('svc-player').forEach((player, i) => {
          new MutationObserver(() => (seen[`render ${i}`] ??= performance.now())).observe(player.shadowRoot!, { childList: true });
          if (i == 0) new MutationObserver(() => (seen.injected ??= performance.now())).observe(player, { childList: true });
        });
      });
      await button.click();
      await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
      // Every other player renders its own button then (the loader's box emptied and hidden).
      await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].slice(1).every((player) => !!player.shadowRoot!.querySelector('div[hidden]')));
      const seen = await tab.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen);
      const others = Object.entries(seen).filter(([what]) => /^render [1-5]$/.test(what));
      assert.equal(others.length, 5);
      for (const [what, at] of others) assert.ok(at > seen.injected!, `${what} at ${at} ms, after the clicked player's injection at ${seen.injected} ms`);
      // Another player plays once clicked.
      await tab.click('svc-player:nth-of-type(4) >> [part=play]');
      await tab.waitForFunction(() => document.querySelectorAll('svc-player')[3]!.getAttribute('state') === 'ready');
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  it("gives a player waiting to render its properties at once, renders a change made meanwhile, and loads one made eager at once", async () => {
    const { browser, tab } = await open('/waiting', 3);
    try {
      type Waiting = HTMLElement & { hasUpdated: boolean; aspectRatio?: string };
      await tab.evaluate(() => {
        const [, one, two] = document.querySelectorAll<Waiting>('svc-player');
        one!.aspectRatio = '4/3'; // before the code came
        const record: Record<string, unknown> = ((window as unknown as { __record: Record<string, unknown> }).__record = {});
        // A task after the definition: every player upgraded has had its first update (its
        // properties set before are its own then), those waiting without rendering.
        void customElements.whenDefined('svc-player').then(() =>
          setTimeout(() => {
            record.defined = [one!.hasUpdated, one!.aspectRatio];
            one!.aspectRatio = '1/1';
            two!.setAttribute('loading', 'eager');
          }),
        );
        new MutationObserver(() => two!.getAttribute('state') == 'loading' && (record.oneWhileTwoLoads ??= one!.hasUpdated)).observe(two!, { attributes: true, attributeFilter: ['state'] });
      });
      // Pointing at the first brings the code; the other two wait to render.
      await tab.hover('svc-player >> nth=0 >> [part=play]');
      await tab.waitForFunction(() => document.querySelectorAll('svc-player')[2]!.getAttribute('state') === 'ready');
      await tab.waitForFunction(() => (document.querySelectorAll('svc-player')[1] as Waiting).hasUpdated);
      const record = await tab.evaluate(() => (window as unknown as { __record: Record<string, unknown> }).__record);
      assert.deepEqual(record.defined, [false, '4/3']);
      // The one made eager did not wait for the others' release.
      assert.equal(record.oneWhileTwoLoads, false);
      assert.equal(await tab.evaluate(() => getComputedStyle(document.querySelectorAll('svc-player')[1]!).aspectRatio), '1 / 1');
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  it('loads a player clicked while it waited to render at once, the others still waiting', async () => {
    const { browser, tab } = await open('/waiting-clicked', 4);
    try {
      type Waiting = HTMLElement & { hasUpdated: boolean };
      // When the clicked player's own player goes into its light DOM: whether the second had rendered.
      await tab.evaluate(() => {
        const [, second, third] = document.querySelectorAll<Waiting>('svc-player');
        const record: Record<string, unknown> = ((window as unknown as { __record: Record<string, unknown> }).__record = {});
        new MutationObserver(() => (record.secondRendered ??= second!.hasUpdated)).observe(third!, { childList: true });
      });
      // Pointing at the first brings the code; the others wait to render; then the third is clicked.
      await tab.hover('svc-player >> nth=0 >> [part=play]');
      await tab.waitForFunction(() => !!customElements.get('svc-player'));
      assert.equal(await tab.evaluate(() => document.querySelectorAll<Waiting>('svc-player')[2]!.hasUpdated), false);
      await tab.click('svc-player >> nth=2 >> [part=play]');
      await tab.waitForFunction(() => document.querySelectorAll('svc-player')[2]!.getAttribute('state') === 'ready');
      assert.equal((await tab.evaluate(() => (window as unknown as { __record: Record<string, unknown> }).__record)).secondRendered, false);
      // Every one renders its own button after that.
      await tab.waitForFunction(() => [0, 1, 3].every((i) => !!document.querySelectorAll('svc-player')[i]!.shadowRoot!.querySelector('div[hidden]')));
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  it("plays the service's code without downloading he, and downloads it for a code with another reference", async () => {
    const { browser, tab, button } = await open('/intent-he', 1);
    try {
      await button.click();
      await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
      const heFiles = async () => (await tab.evaluate(entries)).filter((entry: Entry) => /^\/svc\/he-[\w-]+\.js$/.test(entry.path)).length;
      assert.equal(await heFiles(), 0);
      // The same code written with a reference the service does not use: `&LT;` is `<` too.
      await tab.evaluate(async (id) => {
        const { code } = (await (await fetch(`/svc/embed/vod/${id}/javascript`)).json()) as { code: string };
        if (!code.includes('&lt;')) throw new Error(`no &lt; in ${code}`);
        const player = document.createElement('svc-player');
        player.setAttribute('code', code.replaceAll('&lt;', '&LT;'));
        document.body.append(player);
      }, vodId);
      await tab.waitForFunction(() => document.querySelectorAll('svc-player')[1]?.getAttribute('state') === 'ready');
      assert.equal(await heFiles(), 1);
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  for (const how of ['click', 'play()'] as const) {
    it(`loads a player asked for by a ${how} before its code came at once, without a play button of its own (nor its file)`, async () => {
      const { browser, tab, button } = await open(`/intent-${how == 'click' ? 'clicked' : 'play'}`, 1);
      try {
        const release = await hold(tab, /\/svc\/(core|load|locale)-[\w-]+\.js$/);
        if (how == 'click') await button.click();
        else await tab.evaluate(() => void (document.querySelector('svc-player') as HTMLElement & { play(): Promise<void> }).play().catch(() => {}));
        await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
        release();
        await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
        const files = (await tab.evaluate(entries)).map((entry: Entry) => entry.path);
        assert.ok(!files.some((path: string) => path.startsWith('/svc/facade-')), files.join(' '));
        assert.deepEqual(await errors(tab), []);
      } finally {
        await browser.close();
      }
    });
  }

  it('asks the relay for the embed code and the config when the viewer presses the button, and the load takes those answers', async () => {
    const { browser, tab, button } = await open('/intent-press', 2);
    try {
      // Every file of the player's code held back (on a slow network it is all still on its way): the
      // two requests need none of it, not even the relay client's.
      const release = await hold(tab, /\/svc\/(core|facade|load|locale)-[\w-]+\.js$/);
      await button.hover();
      await tab.mouse.down();
      await tab.waitForFunction(() => performance.getEntriesByType('resource').filter((entry) => /\/svc\/(config|embed\/)/.test(new URL(entry.name).pathname)).length === 2);
      // Asked by the preview: the element is not even defined yet.
      assert.equal(await tab.evaluate(() => !!customElements.get('svc-player')), false);
      release();
      await tab.mouse.up();
      await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
      const asked = (await tab.evaluate(entries)).filter((entry: Entry) => /\/svc\/(config|embed\/)/.test(entry.path));
      assert.deepEqual(asked.map((entry: Entry) => entry.path.split('/')[2]).sort(), ['config', 'embed']);
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  for (const key of [undefined, 'Space'] as const) {
    it(`keeps a press ${key ? 'of Space' : 'of the pointer'} on the play button during which the player's code arrives: the release plays`, async () => {
      const { browser, tab, button } = await open(`/intent-held-${key ?? 'pointer'}`, 2);
      try {
        const release = await hold(tab, /\/svc\/(core|facade|load|locale)-[\w-]+\.js$/);
        if (key) {
          await button.focus();
          await tab.keyboard.down(key);
          // Another key released while Space is held (fast typing) does not end the press.
          await tab.keyboard.press('Shift');
        } else {
          await button.hover();
          await tab.mouse.down();
        }
        release();
        // The code arrived while the button is held: the element has rendered its own play button.
        await tab.waitForFunction(() => !!customElements.get('svc-player') && document.querySelector('svc-player')!.shadowRoot!.querySelectorAll('[part=play]').length === 2);
        if (key) await tab.keyboard.up(key);
        else await tab.mouse.up();
        await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
        assert.equal(await tab.evaluate(() => document.querySelectorAll('svc-player')[1]!.getAttribute('state')), 'idle');
        assert.deepEqual(await errors(tab), []);
      } finally {
        await browser.close();
      }
    });
  }

  it('shows the poster and ratio the page set as properties before the code, and asks for the content set as a property', async () => {
    const path = '/intent-properties';
    pages.set(path, {
      csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
      // The second player's attributes are overridden by properties set to null, as the element takes them.
      body: `<svc-player loading="click" title="Harbour"></svc-player>
<svc-player loading="click" title="Null" content-id="${vodId}" aspect-ratio="4/3" poster="${origin}/attribute.jpg"></svc-player>
<script type="module" nonce="${NONCE}">
const [first, second] = document.querySelectorAll('svc-player');
Object.assign(first, { contentId: '${vodId}', aspectRatio: '4/3', poster: '${origin}/poster.jpg' });
Object.assign(second, { aspectRatio: null, poster: null });
</script>`,
    });
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.setViewportSize({ width: 800, height: 1000 });
      await tab.goto(origin + path);
      await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].every((player) => !!player.shadowRoot?.querySelector('[part=play]')));
      // Before any intent: the previews alone, already in the ratio and with the poster the element will show.
      assert.equal(await tab.evaluate(() => !!customElements.get('svc-player')), false);
      const boxes = () =>
        [...document.querySelectorAll('svc-player')].map((player) => {
          const rect = player.getBoundingClientRect();
          return { ratio: Math.round((rect.width / rect.height) * 100) / 100, poster: player.shadowRoot!.querySelector('img[part=poster]')?.getAttribute('src') ?? null };
        });
      const expected = [
        { ratio: 1.33, poster: `${origin}/poster.jpg` },
        { ratio: 1.78, poster: null },
      ];
      assert.deepEqual(await tab.evaluate(boxes), expected);
      await tab.locator('svc-player [part=play]').first().click();
      await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
      const embeds = await tab.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname).filter((path) => path.startsWith('/svc/embed/')));
      assert.deepEqual(embeds, [`/svc/embed/vod/${vodId}/javascript`]);
      // The element, upgraded, shows the second one as its preview did: nothing moved.
      assert.deepEqual((await tab.evaluate(boxes))[1], expected[1]);
    } finally {
      await browser.close();
    }
  });
});

describe('a loading property the page sets before the code comes (Chromium)', { timeout: 120_000 }, () => {
  it('loads a player its script made eager, as the element takes the property', async () => {
    const path = '/loading-property';
    pages.set(path, {
      csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`),
      body: `<svc-player loading="click" content-id="${vodId}" title="Harbour"></svc-player>
<script type="module" nonce="${NONCE}">document.querySelector('svc-player').loading = 'eager';</script>`,
    });
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(origin + path);
      // No click, no pointer: the element loads as soon as its code is there.
      await tab.waitForFunction(() => document.querySelector('svc-player')!.getAttribute('state') === 'ready');
      assert.equal(await tab.evaluate(() => document.querySelector('svc-player')!.getAttribute('loading')), 'click');
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });
});

describe('a release under a running relay', { timeout: 120_000 }, () => {
  it('runs the new code on the next page load (the entry is revalidated, its new chunks fetched)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-release-'));
    const release = (version: string) => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      const part = `part-${version.repeat(8)}.js`;
      writeFileSync(join(dir, 'elements.js'), `import('./${part}').then((m) => { document.title = m.version; });\n`);
      writeFileSync(join(dir, part), `export const version = '${version}';\n`);
      writeManifest(dir, ['elements.js', part]);
    };
    release('A');
    const relay = await startRelay({ ...serviceFree(), elementsBundlePath: join(dir, 'elements.js') });
    const pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>-</title><script type="module" src="${relay.url}/elements.js"></script>`);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    const address = pageServer.address();
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
      await tab.goto(url);
      await tab.waitForFunction(() => document.title === 'A');
      release('B');
      await tab.goto(url); // the next page load, with the browser's cache
      await tab.waitForFunction(() => document.title !== '-');
      assert.equal(await tab.title(), 'B');
    } finally {
      await browser.close();
      await new Promise((resolve) => pageServer.close(resolve));
      await relay.close();
    }
  });
});

/** Relay options with a service nobody calls (this page asks the relay for files only). */
function serviceFree() {
  return { apiKey: 'release-key-0123456789', baseUrl: 'http://127.0.0.1:9/', uploadUrl: 'http://127.0.0.1:9/upload', playerUrl: 'http://127.0.0.1:9/', auth: 'dev' as const, database: ':memory:', logger: () => {} };
}

describe('the script tag when a file of the elements fails or is slow (Chromium)', { timeout: 120_000 }, () => {
  type Player = HTMLElement & { play(): Promise<void>; pause(): void };
  /** A fresh Chromium on `body` under the documented policy; nothing of ours is cached between tests. */
  const open = async (path: string, body: string) => {
    pages.set(path, { csp: policy(`'nonce-${NONCE}' ${origin} ${playerOrigin}`), body });
    const browser = await launchChromium();
    return { browser, tab: await browser.newPage() };
  };
  it("fires the element's svc-error (network_error) when its code cannot be downloaded, and tries again on the next click or discover()", async () => {
    const { browser, tab } = await open('/fails', `<svc-uploader></svc-uploader><svc-player id="p" content-id="${vodId}" loading="click" title="Harbour"></svc-player>`);
    try {
      // The player's code (with Lit) and the uploader's own file do not come.
      await tab.route(/\/svc\/(core|svc-uploader)-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/fails`);
      await tab.waitForFunction(() => !!document.querySelector('#p')!.shadowRoot?.querySelector('[part=play]'));
      await tab.waitForFunction(() => (window as unknown as { __svcErrors: unknown[] }).__svcErrors.length === 1);
      // play() rejects as the element's own does for a chunk it could not download: an error with the code.
      const rejected = await tab.evaluate(() =>
        (document.querySelector('#p') as Player).play().then(
          () => 'played',
          (error: Error & { code?: string }) => [error instanceof Error, error.code],
        ),
      );
      assert.deepEqual(rejected, [true, 'network_error']);
      await tab.click('#p >> [part=play]');
      await tab.waitForFunction(() => (window as unknown as { __svcErrors: unknown[] }).__svcErrors.length === 3);
      assert.equal(await tab.evaluate(() => document.querySelector('#p')!.getAttribute('state')), 'error');
      const details = await svcErrorsIn<{ code: string; message: string }>(tab);
      assert.deepEqual(details.map((detail) => detail.code), ['network_error', 'network_error', 'network_error']);
      assert.deepEqual(details.map((detail) => /<(svc-[\w-]+)>/.exec(detail.message)?.[1]).sort(), ['svc-player', 'svc-player', 'svc-uploader']);
      // Back online: a click on the same button plays; discover() brings the uploader.
      await tab.unroute(/\/svc\/(core|svc-uploader)-[\w-]+\.js$/);
      await tab.click('#p >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#p')!.getAttribute('state') === 'ready');
      await tab.evaluate(async () => ((await import(document.querySelector<HTMLScriptElement>('script[src$="elements.js"]')!.src)) as { discover(): void }).discover());
      await tab.waitForFunction(() => !!document.querySelector('svc-uploader')!.shadowRoot?.childElementCount);
      assert.deepEqual(await errorsIn(tab), []);
    } finally {
      await browser.close();
    }
  });

  it("hands a player whose click found no code over to the element's own play button once the code comes another way", async () => {
    const players = ['a', 'b'].map((id) => `<svc-player id="${id}" content-id="${vodId}" loading="click" title="${id}"></svc-player>`).join('');
    const { browser, tab } = await open('/fails-then-other', players);
    try {
      await tab.route(/\/svc\/core-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/fails-then-other`);
      await tab.click('#a >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#a')!.getAttribute('state') === 'error');
      // Back online, the code comes for the other player (the pointer on its button).
      await tab.unroute(/\/svc\/core-[\w-]+\.js$/);
      await tab.hover('#b >> [part=play]');
      // The first shows one play button, the element's own (the loader's box emptied and hidden), which plays.
      await tab.waitForFunction(() => {
        const root = document.querySelector('#a')!.shadowRoot!;
        return !!customElements.get('svc-player') && root.querySelectorAll('[part=play]').length === 1 && !!root.querySelector('div[hidden]');
      });
      await tab.click('#a >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#a')!.getAttribute('state') === 'ready');
    } finally {
      await browser.close();
    }
  });

  it('fires one svc-error for a click whose load file cannot be downloaded', async () => {
    const { browser, tab } = await open('/no-load', `<svc-player id="p" content-id="${vodId}" loading="click" title="Harbour"></svc-player>`);
    try {
      // The file of the player's load (vite.config.ts SHARED_FILES).
      await tab.route(/\/svc\/load-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/no-load`);
      await tab.click('#p >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#p')!.getAttribute('state') === 'error' && !!document.querySelector('#p')!.shadowRoot!.querySelector('[part=error]'));
      // Every update after the failure, and the click's own load, would each have reported it again.
      await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
      assert.deepEqual((await svcErrorsIn<{ code: string }>(tab)).map((detail) => detail.code), ['network_error']);
      // The element's own play() tries again and rejects as the loader's stand-in does: an error with the code.
      const rejected = await tab.evaluate(() =>
        (document.querySelector('#p') as Player).play().then(
          () => 'played',
          (error: Error & { code?: string }) => [error instanceof Error, error.code],
        ),
      );
      assert.deepEqual(rejected, [true, 'network_error']);
      assert.equal((await svcErrorsIn(tab)).length, 2);
      // Back online, other content: the play button again.
      await tab.unroute(/\/svc\/load-[\w-]+\.js$/);
      await tab.evaluate(() => document.querySelector('#p')!.setAttribute('variant', 'iframe'));
      await tab.waitForFunction(() => document.querySelector('#p')!.getAttribute('state') === 'idle' && !!document.querySelector('#p')!.shadowRoot!.querySelector('[part=play]'));
    } finally {
      await browser.close();
    }
  });

  it('keeps the play buttons of the players nobody clicked when the load file fails: the one clicked reports it, and another plays once the file comes', async () => {
    const body = ['a', 'b', 'c'].map((id) => `<svc-player id="${id}" content-id="${vodId}" loading="click" title="${id}"></svc-player>`).join('');
    const { browser, tab } = await open('/no-load-many', body);
    try {
      await tab.route(/\/svc\/load-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/no-load-many`);
      // Pointing at one brings the player's code, its load file failing: every player upgrades, and
      // keeps the loader's button (its own needs the strings of that file), reporting nothing yet;
      // the players not pointed at render after a second (svc-player/script-tag.ts).
      await tab.hover('#a >> [part=play]');
      await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].every((player) => player.matches(':defined') && (player as unknown as { hasUpdated: boolean }).hasUpdated));
      await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const shown = () => [...document.querySelectorAll('svc-player')].map((player) => [player.getAttribute('state'), player.shadowRoot!.querySelectorAll('[part=play]').length]);
      assert.deepEqual(await tab.evaluate(shown), [['idle', 1], ['idle', 1], ['idle', 1]]);
      assert.deepEqual(await svcErrorsIn(tab), []);
      await tab.click('#a >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#a')!.getAttribute('state') === 'error');
      assert.deepEqual(await tab.evaluate(shown), [['error', 0], ['idle', 1], ['idle', 1]]);
      assert.deepEqual((await svcErrorsIn<{ code: string }>(tab)).map((detail) => detail.code), ['network_error']);
      await tab.unroute(/\/svc\/load-[\w-]+\.js$/);
      await tab.click('#b >> [part=play]');
      await tab.waitForFunction(() => document.querySelector('#b')!.getAttribute('state') === 'ready');
      assert.equal(await tab.evaluate(() => document.querySelector('#c')!.getAttribute('state')), 'idle');
    } finally {
      await browser.close();
    }
  });

  for (const file of ['facade', 'load']) {
    it(`keeps the loader's play buttons when the player's own cannot be downloaded (its ${file} file): no error, and a click plays (or reports it, for that player alone)`, async () => {
      const body = ['a', 'b', 'c'].map((id) => `<svc-player id="${id}" content-id="${vodId}" loading="click" title="${id}"></svc-player>`).join('');
      const { browser, tab } = await open(`/no-${file}-many`, body);
      try {
        const pattern = new RegExp(`/svc/${file}-[\\w-]+\\.js$`);
        await tab.route(pattern, (route) => route.abort());
        await tab.goto(`${origin}/no-${file}-many`);
        await tab.hover('#a >> [part=play]');
        // Every player rendered (those not pointed at once they stop waiting: svc-player/script-tag.ts).
        await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].every((player) => player.matches(':defined') && (player as unknown as { hasUpdated: boolean }).hasUpdated));
        await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
        const shown = () => [...document.querySelectorAll('svc-player')].map((player) => [player.getAttribute('state'), player.shadowRoot!.querySelectorAll('[part=play]').length]);
        assert.deepEqual(await tab.evaluate(shown), [['idle', 1], ['idle', 1], ['idle', 1]]);
        assert.deepEqual(await svcErrorsIn(tab), []);
        await tab.click('#b >> [part=play]');
        if (file == 'facade') {
          // The player's load needs none of the button's file: it plays.
          await tab.waitForFunction(() => document.querySelector('#b')!.getAttribute('state') === 'ready');
          assert.deepEqual(await svcErrorsIn(tab), []);
        } else {
          // The load file has the strings too: the clicked player reports it, the others keep their button.
          await tab.waitForFunction(() => document.querySelector('#b')!.getAttribute('state') === 'error');
          assert.deepEqual((await svcErrorsIn<{ code: string }>(tab)).map((detail) => detail.code), ['network_error']);
          assert.deepEqual((await tab.evaluate(shown)).filter((_, i) => i != 1), [['idle', 1], ['idle', 1]]);
        }
      } finally {
        await browser.close();
      }
    });
  }

  it("reports a channel setup whose load file (its relay client, strings and embed decoder, shared with the player) cannot be downloaded, and shows it once the file comes", async () => {
    const { browser, tab } = await open('/setup-no-load', '<svc-channel-setup></svc-channel-setup>');
    try {
      await tab.route(/\/svc\/load-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/setup-no-load`);
      await tab.waitForFunction(() => (window as unknown as { __svcErrors: unknown[] }).__svcErrors.length === 1);
      const [detail] = await svcErrorsIn<{ code: string; message: string }>(tab);
      assert.equal(detail!.code, 'network_error');
      assert.match(detail!.message, /<svc-channel-setup>/);
      assert.equal(await tab.evaluate(() => !!customElements.get('svc-channel-setup')), false);
      await tab.unroute(/\/svc\/load-[\w-]+\.js$/);
      await tab.evaluate(async () => ((await import(document.querySelector<HTMLScriptElement>('script[src$="elements.js"]')!.src)) as { discover(): void }).discover());
      await tab.locator('svc-channel-setup').getByLabel('Title', { exact: true }).waitFor();
    } finally {
      await browser.close();
    }
  });

  it("shows the play button of a click-to-load player seen while another player's download of the code was failing", async () => {
    const { browser, tab } = await open('/failing-code', `<svc-player id="e" content-id="${vodId}" loading="eager"></svc-player><svc-player id="c" content-id="${vodId}" loading="click" title="B"></svc-player>`);
    try {
      await tab.route(/\/svc\/core-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/failing-code`);
      await tab.waitForFunction(() => !!document.querySelector('#c')!.shadowRoot?.querySelector('[part=play]'));
      assert.deepEqual((await svcErrorsIn<{ code: string }>(tab)).map((detail) => detail.code), ['network_error']);
      assert.equal(await tab.evaluate(() => document.querySelector('#e')!.getAttribute('state')), 'error');
    } finally {
      await browser.close();
    }
  });

  it('reports a failed download once to a click-to-load player made eager while it was on its way, and asks for it once', async () => {
    const { browser, tab } = await open('/made-eager', `<svc-player id="e" content-id="${vodId}" loading="eager"></svc-player><svc-player id="c" content-id="${vodId}" loading="click"></svc-player>`);
    try {
      let asked = 0;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await tab.route(/\/svc\/core-[\w-]+\.js$/, async (route) => {
        asked++;
        await held;
        await route.abort();
      });
      await tab.goto(`${origin}/made-eager`);
      await tab.waitForFunction(() => typeof (document.querySelector('#c') as Partial<Player>).play === 'function');
      await tab.evaluate(() => document.querySelector('#c')!.setAttribute('loading', 'eager'));
      release();
      await tab.waitForFunction(() => (window as unknown as { __svcErrors: unknown[] }).__svcErrors.length === 2);
      await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
      assert.equal((await svcErrorsIn(tab)).length, 2);
      assert.equal(asked, 1);
    } finally {
      await browser.close();
    }
  });

  it("shows the player's own play button when the preview's file cannot be downloaded", async () => {
    const { browser, tab } = await open('/no-preview', `<svc-player content-id="${vodId}" loading="click" title="A"></svc-player><svc-player content-id="${vodId}" loading="click" title="B"></svc-player>`);
    try {
      await tab.route(/\/svc\/loader-preview-[\w-]+\.js$/, (route) => route.abort());
      await tab.goto(`${origin}/no-preview`);
      await tab.waitForFunction(() => [...document.querySelectorAll('svc-player')].every((player) => player.matches(':defined') && !!player.shadowRoot?.querySelector('[part=play]')));
      await tab.click('svc-player >> nth=1 >> [part=play]');
      await tab.waitForFunction(() => document.querySelectorAll('svc-player')[1]!.getAttribute('state') === 'ready');
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  it('gives play() and pause() to a click-to-load player whose code another player asked for, rejects play() of one removed before its code came, and goes on loading after play() then pause()', async () => {
    const { browser, tab } = await open(
      '/stand-ins',
      `<svc-player content-id="${vodId}" loading="eager"></svc-player>
<svc-player id="paused" content-id="${vodId}" loading="click" variant="javascript"></svc-player>
<svc-player id="removed" content-id="${vodId}" loading="click" variant="javascript"></svc-player>`,
    );
    try {
      const release = await hold(tab, /\/svc\/core-[\w-]+\.js$/);
      await tab.goto(`${origin}/stand-ins`);
      const early = await tab.evaluate(() => {
        const [paused, removed] = ['#paused', '#removed'].map((id) => document.querySelector(id) as Player);
        const kinds = [typeof paused!.play, typeof paused!.pause, String(customElements.get('svc-player'))];
        // (No named function in here: the test runner's compiler would wrap it in a helper the page lacks.)
        (window as unknown as { outcomes: Promise<string[]> }).outcomes = Promise.all(
          [paused!.play(), removed!.play()].map((call) =>
            call.then(
              () => 'played',
              (error: DOMException) => error.name,
            ),
          ),
        );
        paused!.pause();
        removed!.remove();
        (window as unknown as { removed: Player }).removed = removed!;
        return kinds;
      });
      assert.deepEqual(early, ['function', 'function', 'undefined']);
      release();
      assert.deepEqual(await tab.evaluate(() => (window as unknown as { outcomes: Promise<string[]> }).outcomes), ['AbortError', 'AbortError']);
      // The removed player keeps its stand-ins (it was not upgraded): play() rejects again, it does not throw.
      const again = await tab.evaluate(() =>
        (window as unknown as { removed: Player }).removed.play().then(
          () => 'played',
          (error: DOMException) => error.name,
        ),
      );
      assert.equal(again, 'AbortError');
      // The load the play() started goes on, as on the bundler path; the video is not played.
      await tab.waitForFunction(() => document.querySelector('#paused')!.getAttribute('state') === 'ready');
      assert.equal(await tab.evaluate(() => (document.querySelector('#paused') as HTMLElement & { paused: boolean }).paused), true);
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });

  it("registers an element moved in from a frame's document (another realm's node)", async () => {
    const { browser, tab } = await open('/realm', `<iframe srcdoc="<svc-uploader></svc-uploader>"></iframe>`);
    try {
      await tab.goto(`${origin}/realm`);
      await tab.waitForFunction(() => !!document.querySelector('iframe')!.contentDocument?.querySelector('svc-uploader'));
      await tab.evaluate(() => {
        const moved = document.querySelector('iframe')!.contentDocument!.querySelector('svc-uploader')!;
        document.body.append(moved);
      });
      await tab.waitForFunction(() => !!customElements.get('svc-uploader') && !!document.querySelector('body > svc-uploader')!.shadowRoot?.childElementCount);
      assert.deepEqual(await errors(tab), []);
    } finally {
      await browser.close();
    }
  });
});
