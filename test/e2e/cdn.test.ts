// The script-tag build served as docs/script-tag.md says a CDN or any static host serves it: a copy
// of dist/cdn/ on an origin of its own (CORS for module scripts, nothing else), loaded by a page on
// another origin that names its relay (on a third) with <meta name="svc-relay">. Every file of the
// elements comes from the copy, imported relative to the loader's own URL; the relay answers only
// the API. Chromium.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Manifest } from '../../src/relay/built-files.js';
import { buildBundleIfStale, bundlePath } from '../../scripts/build.js';
import { launchChromium } from '../support/chromium.js';
import { makeVideo } from '../support/media.js';
import { startStack, uploadVod, type Stack } from '../support/servers.js';

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));

let copy: string;
let cdn: Server;
let cdnOrigin: string;
let pageServer: Server;
let pageOrigin: string;
let stack: Stack;
let browser: Browser;
let html = '';
/** The paths the static host was asked for. */
const served: string[] = [];

before(async () => {
  await buildBundleIfStale();
  copy = mkdtempSync(join(tmpdir(), 'svc-cdn-'));
  cpSync(join(bundlePath, '..'), copy, { recursive: true });
  // A plain static host: any file of the folder, with the CORS header module scripts need.
  cdn = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0]!.slice(1);
    served.push(name);
    const file = join(copy, name);
    if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*' }).end(readFileSync(file));
  });
  cdnOrigin = await listen(cdn);
  pageServer = createServer((_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
  pageOrigin = await listen(pageServer);
  stack = await startStack({ relay: { allowedOrigins: [pageOrigin] } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await stack?.close();
  pageServer?.close();
  cdn?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('dist/cdn/ copied to a static host (a CDN)', { timeout: 120_000 }, () => {
  it('has a loader of at most 2 KB gzip, and every file imports the others relative to its own URL', () => {
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Manifest;
    assert.ok(manifest.files[manifest.entry]!.gzip <= 2048, `the loader is ${manifest.files[manifest.entry]!.gzip} B gzip`);
    for (const name of Object.keys(manifest.files)) {
      const code = readFileSync(join(copy, name), 'utf8');
      const specifiers = [...code.matchAll(/\bimport\s*\(\s*["'`]([^"'`]+)|\b(?:import|from)\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]!);
      for (const specifier of specifiers) assert.match(specifier, /^\.\/[\w.-]+\.js$/, `${name} imports ${specifier}`);
    }
  });

  it("gives no element's first paint `he`: only a lazy part imports the file that holds it", () => {
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Manifest;
    const code = (name: string) => readFileSync(join(copy, name), 'utf8');
    const statics = (name: string) => [...code(name).matchAll(/\b(?:import|from)\s*["']\.\/([^"']+)["']/g)].map((m) => m[1]!);
    /** `name` and every file it imports statically, at any depth: what the page downloads with it. */
    const closure = (name: string, seen = new Set<string>()) => {
      if (!seen.has(name)) {
        seen.add(name);
        for (const next of statics(name)) closure(next, seen);
      }
      return seen;
    };
    const he = Object.keys(manifest.files).filter((name) => code(name).includes('encodeEverything')); // he's option, in no other code
    assert.equal(he.length, 1, `he is in ${he.join(', ')}`);
    // What the loader imports on sight of a tag: each element's code, and the click-to-load play button.
    const sighted = [...code(manifest.entry).matchAll(/\bimport\(\s*["']\.\/([^"']+)["']/g)].map((m) => m[1]!);
    assert.equal(sighted.length, 5, sighted.join(', '));
    for (const name of sighted) {
      const first = [...closure(name)];
      assert.ok(!first.includes(he[0]!), `${name} brings ${he[0]} to its first paint: ${first.join(', ')}`);
    }
  });

  it('runs every element from the copy, with the relay named by <meta name="svc-relay">', async () => {
    const vodId = (await uploadVod(stack.relayUrl, makeVideo({ seconds: 2 }))).vod_id;
    html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CDN</title>
<meta name="svc-relay" content="${stack.relayUrl}">
<script type="module" src="${cdnOrigin}/elements.js"></script></head><body>
<svc-player id="eager" content-id="${vodId}" loading="eager"></svc-player>
<svc-player id="click" content-id="${vodId}" loading="click" title="Harbour"></svc-player>
<svc-uploader></svc-uploader><svc-playlist-editor></svc-playlist-editor><svc-channel-setup></svc-channel-setup>
</body></html>`;
    const tab = await browser.newPage();
    const errors: string[] = [];
    const scripts: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    tab.on('console', (message) => ['error', 'warning'].includes(message.type()) && errors.push(message.text()));
    tab.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
    try {
      await tab.goto(`${pageOrigin}/`);
      await tab.waitForFunction(() => document.querySelector('#eager')?.getAttribute('state') === 'ready', undefined, { timeout: 60_000 });
      await tab.waitForFunction(() => ['svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'].every((tag) => document.querySelector(tag)?.shadowRoot?.childElementCount));
      await tab.locator('#click').locator('[part~=play]').click();
      await tab.waitForFunction(() => document.querySelector('#click')?.getAttribute('state') === 'ready', undefined, { timeout: 60_000 });
      // Our code came from the copy only (the vendor's player.js from the player origin).
      const ours = scripts.filter((url) => !url.startsWith(new URL(stack.service.playerUrl).origin));
      assert.ok(ours.length > 3, ours.join(' '));
      assert.deepEqual(ours.filter((url) => !url.startsWith(`${cdnOrigin}/`)), []);
      assert.ok(served.includes('elements.js') && served.some((name) => /^svc-uploader-[\w-]+\.js$/.test(name)), served.join(' '));
      assert.deepEqual(errors, []);
    } finally {
      await tab.close();
    }
  });
});
