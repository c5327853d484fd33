// From the demo to a page of one's own, following only the README: `npm start -- --allowed-origin
// <origin>` prints the two lines to paste; a page on that origin (another port: another origin)
// made of the README's block with those lines uploads a real video to "ready" and plays it.
// SVC_ALLOWED_ORIGINS adds an origin the same way; an origin named nowhere is refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { makeVideo } from '../support/media.js';
import { eventually, groupAlive, launchBrowser, record, startDemo, waitForEvent, type Demo } from './support.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's HTML block for one's own page (between the own-page markers). */
function readmeBlock(): string {
  const section = /<!-- own-page:start[^>]*-->\s*```html\n([\s\S]*?)```\s*<!-- own-page:end -->/.exec(README);
  assert.ok(section, 'the README has the own-page block');
  return section[1]!;
}

/** A page server on its own origin; `html(url)` makes the page for each request. */
async function pageServer(html: (url: URL) => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/favicon')) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(html(new URL(request.url ?? '/', 'http://page')));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let demo: Demo;
let browser: Browser;
const servers: Server[] = [];
let page = (_url: URL) => '<!doctype html><title>not yet</title>';
const wrap = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>My own page</title>\n${body}</html>`;

let own: string;
let fromEnv: string;
let elsewhere: string;

before(async () => {
  const made = await Promise.all([0, 1, 2].map(() => pageServer((url) => page(url))));
  servers.push(...made.map((m) => m.server));
  [own, fromEnv, elsewhere] = made.map((m) => m.origin) as [string, string, string];
  demo = await startDemo(['--allowed-origin', own], { SVC_ALLOWED_ORIGINS: fromEnv });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  const pid = demo?.process.pid;
  if (pid && groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  for (const server of servers) server.close();
});

test('npm start -- --allowed-origin: a page on that origin, made from the README, uploads to ready and plays', { timeout: 300_000 }, async () => {
  assert.match(README, /npm start -- --allowed-origin http:\/\/localhost:8080/);
  // The lines to paste, as printed.
  assert.ok(await eventually(() => /<script type="module" src="[^"]+"><\/script>/.test(demo.output()), 30_000), demo.output());
  const printed = demo.output().split('\n').map((line) => line.trim());
  const meta = printed.find((line) => line.startsWith('<meta name="svc-relay"'))!;
  const script = printed.find((line) => line.startsWith('<script type="module"'))!;
  assert.ok(printed.some((line) => line.includes(own) && line.includes('Paste into its <head>')), demo.output());
  const relayUrl = /content="([^"]+)"/.exec(meta)![1]!;
  // The README's block is what was printed, with the relay's real address.
  const block = readmeBlock().replaceAll('http://127.0.0.1:8787/svc', relayUrl);
  assert.ok(block.includes(meta) && block.includes(script), `README block:\n${block}\nprinted:\n${meta}\n${script}`);

  // First the uploader alone (the README's player line waits for a video id).
  page = (url) => {
    const vod = url.searchParams.get('vod');
    const body = vod ? block.replace('content-id="…"', `content-id="${vod}"`) : block.replace(/^<svc-player .*$/m, '');
    return wrap(body);
  };
  const tab = await browser.newPage();
  const recorder = await record(tab);
  await tab.goto(`${own}/`);
  await tab.locator('svc-uploader input[type="file"]').setInputFiles(makeVideo({ seconds: 2, name: 'my-own-page.mp4' }));
  const ready = await waitForEvent<{ vodId: string }>(tab, 'svc-upload-ready');
  await tab.locator('svc-uploader').getByText('Ready to play', { exact: true }).first().waitFor();

  await tab.goto(`${own}/?vod=${encodeURIComponent(ready.vodId)}`);
  await waitForEvent(tab, 'svc-player-ready');
  const video = tab.locator(`svc-player[content-id="${ready.vodId}"] video`);
  await video.waitFor({ state: 'attached' });
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await tab.waitForFunction((element) => (element as HTMLVideoElement).currentTime > 0.3, await video.elementHandle());
  assert.deepEqual(recorder.consoleErrors, []);

  // SVC_ALLOWED_ORIGINS counts too; an origin named nowhere is refused by the browser (CORS).
  const library = (origin: string) =>
    tab.goto(`${origin}/`).then(() =>
      tab.evaluate(async (url) => {
        try {
          return (await fetch(`${url}/library`, { headers: { 'X-Svc-Request': '1' } })).status;
        } catch {
          return 'blocked';
        }
      }, relayUrl),
    );
  page = () => wrap('<p>empty</p>');
  assert.equal(await library(fromEnv), 200);
  assert.equal(await library(elsewhere), 'blocked');
  await tab.close();
});

test("a page of the demo's server with the README's script tag works, with no Vite pre-transform error", { timeout: 120_000 }, async () => {
  // A page of one's own in demo/ (ignored by git), with the README's plain-HTML script tag.
  const name = `.e2e-readme-tag-${process.pid}.html`;
  const file = fileURLToPath(new URL(`../../demo/${name}`, import.meta.url));
  writeFileSync(
    file,
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>README tag</title>\n' +
      '<script type="module" src="/svc/elements.js"></script></head><body><svc-uploader multiple></svc-uploader></body></html>\n',
  );
  try {
    const tab = await browser.newPage();
    const recorder = await record(tab);
    await tab.goto(new URL(name, demo.url).href);
    assert.ok(await tab.evaluate(() => !!document.querySelector('script[src="/@vite/client"]')), 'served by Vite as a page of the demo');
    await tab.locator('svc-uploader [part~="dropzone"]').waitFor();
    // Vite pre-transforms a page's module scripts while it serves the page: long done by now.
    assert.doesNotMatch(demo.output(), /Pre-transform error/);
    assert.deepEqual(recorder.consoleErrors, []);
    assert.deepEqual(recorder.consoleMessages.filter((line) => /dev mode/i.test(line)), []);
    await tab.close();
  } finally {
    rmSync(file, { force: true });
  }
});

test('npm start refuses an --allowed-origin or SVC_ALLOWED_ORIGINS entry that is no origin, in one line', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const cases: [string[], Record<string, string>][] = [
    [['--allowed-origin', 'localhost:8080'], {}],
    [['--allowed-origin', 'http://localhost:8080/page'], {}],
    [[], { SVC_ALLOWED_ORIGINS: 'http://localhost:8080,ftp://files.example' }],
  ];
  for (const [args, env] of cases) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
    assert.equal(run.status, 1, `${args.join(' ')} ${JSON.stringify(env)}: ${run.stderr}`);
    assert.match(run.stderr, /^npm start: --allowed-origin \(or SVC_ALLOWED_ORIGINS\) takes an origin such as http:\/\/localhost:8080/m);
    assert.equal(run.stdout, '');
  }
});
