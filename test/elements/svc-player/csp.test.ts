// <svc-player> on pages with the strictest policies a CMS would set: a nonce-only script-src (plus
// the player origin, or not even that), Trusted Types enforced, no inline styles. The pages are
// served by a tiny node:http server with the CSP header, the element bundled by esbuild and loaded
// as a nonced module script; real Chromium, Firefox and WebKit (test/support/browsers/pages.ts)
// against the real relay and local service. Any CSP or Trusted Types violation, and any uncaught
// error, is recorded by listeners the page installs first.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { installedEngines, waitInPage, type Engine, type EnginePage } from '../../support/browsers/pages.js';
import { documentedPolicy, errorsIn, recorderScript, svcErrorsIn, violationsIn } from '../../support/csp.js';
import { makeVideo } from '../../support/media.js';
import { startStack, uploadVod, type Stack } from '../../support/servers.js';

const root = new URL('../../../', import.meta.url).pathname;
const NONCE = 'c3ZjLXBsYXllci10ZXN0';

let stack: Stack;
let server: Server;
let origin: string;
let vodId: string;
let playerOrigin: string;
const assets = new Map<string, Uint8Array>();

interface PageSpec {
  csp: string;
  body: string;
}
const pages = new Map<string, PageSpec>();

function html(body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc-player under CSP</title>
${recorderScript(NONCE)}
<script type="module" nonce="${NONCE}" src="/assets/define.js"></script>
</head>
<body>
${body}
</body>
</html>`;
}

before(async () => {
  stack = await startStack();
  playerOrigin = new URL(stack.service.playerUrl).origin;
  vodId = (await uploadVod(stack.relayUrl, makeVideo({ seconds: 3 }))).vod_id;
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/elements/svc-player/define.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    target: 'es2022',
    outdir: 'assets',
    write: false,
    tsconfig: 'tsconfig.json',
    logLevel: 'silent',
  });
  for (const file of result.outputFiles) assets.set(`/assets/${file.path.split('/').pop()}`, file.contents);
  const relayOrigin = new URL(stack.relayUrl).origin;
  server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/svc/')) {
      // Same-origin relay, as a CMS would mount it.
      const upstream = await fetch(relayOrigin + url, { headers: { 'X-Svc-Request': '1' } });
      res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
      return;
    }
    const asset = assets.get(url);
    if (asset) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(asset);
      return;
    }
    const page = pages.get(url);
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp });
    res.end(html(page.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

after(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

/** The CSP a page embedding players needs (docs/svc-player.md), with `scripts` as script-src. */
// The stack runs the observed profile: iframe codes point at the service's iframe origin.
const policy = (scripts: string): string => documentedPolicy(scripts, playerOrigin, stack.service.iframeUrl);

async function open(engine: Engine, path: string, spec: PageSpec): Promise<EnginePage> {
  pages.set(path, spec);
  return engine.open(origin + path);
}

const violations = (page: EnginePage) => violationsIn(page, origin);
const errors = errorsIn;

/** Waits until every <svc-player> on the page is ready (or fails with its state). */
async function allReady(page: EnginePage) {
  await waitInPage(page, () => {
    const players = [...document.querySelectorAll('svc-player')];
    const failed = players.find((p) => p.getAttribute('state') === 'error');
    if (failed) throw new Error(`svc-player failed: ${failed.shadowRoot?.textContent}`);
    return players.length > 0 && players.every((p) => p.getAttribute('state') === 'ready');
  });
}

async function playsVideo(page: EnginePage) {
  await waitInPage(page, () => document.querySelector('svc-player video') !== null);
  // Through the element's media API (its media bridge, in the load chunk), under the page's CSP and Trusted Types.
  await page.evaluate(async () => {
    const player = document.querySelector('svc-player')!;
    const counted = new Promise((resolve) => document.addEventListener('svc-playback', ({ detail }) => detail.type == 'play' && resolve(detail)));
    player.muted = true;
    await player.play();
    await counted;
  });
  await waitInPage(page, () => (document.querySelector('svc-player video') as HTMLVideoElement).currentTime > 0.2);
}

const inError = (page: EnginePage) =>
  waitInPage(page, () => document.querySelector('svc-player')?.getAttribute('state') === 'error');

for (const candidate of installedEngines()) {
  describe(`<svc-player> under a strict CSP with Trusted Types, in ${candidate.name}`, { timeout: 120_000 }, () => {
    let engine: Engine;
    before(async () => {
      engine = await candidate.launch();
    });
    after(async () => {
      await engine?.close();
    });

    it("plays with script-src 'nonce-…' <player origin>, with no violation", async () => {
      const page = await open(engine, '/strict', {
        csp: policy(`'nonce-${NONCE}' ${playerOrigin}`),
        body: `<svc-player content-id="${vodId}" loading="eager"></svc-player>
<svc-player content-id="${vodId}" variant="iframe" loading="eager"></svc-player>`,
      });
      await allReady(page);
      await playsVideo(page);
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(await errors(page), []);

      // Control: the policy is really enforced here, and the listener does see violations.
      const enforced = await page.evaluate(() => {
        try {
          document.createElement('script').src = 'data:text/javascript,1';
          return false;
        } catch {
          return true;
        }
      });
      assert.equal(enforced, true, 'Trusted Types are enforced on the page');
      await waitInPage(page, () => (window as unknown as { __violations: unknown[] }).__violations.length > 0);
      await page.close();
    });

    it('copies the nonce: plays when script-src is the nonce alone, given on the element', async () => {
      const page = await open(engine, '/nonce-only', {
        csp: policy(`'nonce-${NONCE}'`),
        body: `<svc-player content-id="${vodId}" loading="eager" nonce="${NONCE}"></svc-player>`,
      });
      await allReady(page);
      await playsVideo(page);
      const script = await page.evaluate(() => {
        const s = document.querySelector('svc-player script') as HTMLScriptElement;
        return { src: s.src, nonce: s.nonce };
      });
      assert.equal(script.nonce, NONCE);
      assert.equal(script.src, `${playerOrigin}/js/player.js?contentId=${stack.service.accountId}-vod-${vodId}`);
      assert.deepEqual(await violations(page), []);
      await page.close();
    });

    it('refuses to inject when the page does not allow its Trusted Types policy', async () => {
      const page = await open(engine, '/no-policy', {
        csp: policy(`'nonce-${NONCE}' ${playerOrigin}`).replace('trusted-types svc-player lit-html', 'trusted-types lit-html'),
        body: `<svc-player content-id="${vodId}" loading="eager"></svc-player>`,
      });
      await inError(page);
      const shown = await page.evaluate(() => {
        const player = document.querySelector('svc-player')!;
        return { text: player.shadowRoot!.querySelector('[role="alert"]')!.textContent, injected: player.childElementCount };
      });
      // Viewers read a short message; the site builder finds the reason in svc-error (and the console).
      assert.equal(shown.text?.trim(), 'This video is not available.');
      const reported = await svcErrorsIn<{ code: string; message: string }>(page);
      assert.ok(
        reported.some((d) => d.code === 'embed_rejected' && /Trusted Types policy .* does not allow "svc-player"/.test(d.message)),
        JSON.stringify(reported),
      );
      assert.equal(shown.injected, 0);
      const blocked = await violations(page);
      assert.ok(blocked.some((v) => v.directive === 'trusted-types' && v.sample === 'svc-player'), JSON.stringify(blocked));
      await page.close();
    });

    it('without the nonce that page blocks the player, and the element says so', async () => {
      const page = await open(engine, '/no-nonce', {
        csp: policy(`'nonce-${NONCE}'`),
        body: `<svc-player content-id="${vodId}" loading="eager"></svc-player>`,
      });
      await inError(page);
      const blocked = await violations(page);
      assert.ok(blocked.some((v) => v.directive.startsWith('script-src') && v.blocked.startsWith(playerOrigin)), JSON.stringify(blocked));
      await page.close();
    });
  });
}
