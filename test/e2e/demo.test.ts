// End to end, as a newcomer does it: `npm start`, then in Chromium upload a real mp4 through the
// demo, watch it play in the library, create a live channel and read its ingest settings, build a
// playlist of the VOD and the channel, reorder, save, reload and find the order kept. Then the
// same flow on demo/cms-page.html (one script tag, strict CSP with Trusted Types) with no CSP
// violation and no console error. Finally Ctrl+C's signal stops everything, leaving no process.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeVideo } from '../support/media.js';
import { uploadVod } from '../support/servers.js';
import { axeViolations, eventually, groupAlive, launchBrowser, record, startDemo, waitForEvent, type Demo } from './support.js';
import { withDeadline } from '../support/wait.js';

let demo: Demo;
let browser: Browser;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  const pid = demo?.process.pid;
  if (pid && groupAlive(pid)) process.kill(-pid, 'SIGKILL');
});

/** Polls `locator`'s text until it matches; returns it (the assertion shows what was there). */
async function waitForText(locator: Locator, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? '';
    if (pattern.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(text, pattern);
  return text;
}

interface Vod {
  vodId: string;
  title: string;
}

async function uploadThroughUploader(page: Page, label: string): Promise<Vod> {
  const file = makeVideo({ seconds: 3, name: `teaser-${label}.mp4` });
  await page.locator('svc-uploader input[type="file"]').setInputFiles(file);
  const ready = await waitForEvent<{ vodId: string; title: string }>(page, 'svc-upload-ready');
  assert.ok(ready.vodId, `svc-upload-ready carries the VOD id: ${JSON.stringify(ready)}`);
  await page.locator('svc-uploader').getByText('Ready to play', { exact: true }).first().waitFor();
  return { vodId: ready.vodId, title: ready.title };
}

/** The VOD's `<svc-player>` injects the service's player; its video really plays. */
async function seePlay(page: Page, vodId: string): Promise<void> {
  const player = page.locator(`svc-player[kind="vod"][content-id="${vodId}"]`);
  await player.scrollIntoViewIfNeeded({ timeout: 60_000 });
  const video = player.locator('video');
  await video.waitFor({ state: 'attached', timeout: 60_000 });
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await page.waitForFunction((element) => (element as HTMLVideoElement).currentTime > 0.5, await video.elementHandle(), {
    timeout: 30_000,
  });
}

async function createChannel(page: Page, title: string): Promise<{ id: string }> {
  const setup = page.locator('svc-channel-setup');
  await setup.getByLabel('Title', { exact: true }).fill(title);
  await setup.getByLabel('Description', { exact: true }).fill('Made by the end-to-end test');
  await setup.getByRole('radio', { name: 'Europe' }).check();
  await setup.getByLabel('Number of renditions').fill('2');
  await setup.getByRole('button', { name: 'Create channel' }).click();
  const channel = await waitForEvent<{ id: string; config?: Record<string, unknown> }>(page, 'svc-channel-create');
  assert.ok(channel.id);
  assert.equal(channel.config?.password, undefined, 'the event does not carry the encoder password');
  // The panel hands the encoder its ingest settings.
  const settings = await waitForText(setup.locator('[part~="settings"]'), /rtmp:\/\/[\s\S]*rtmp:\/\//);
  assert.match(settings, new RegExp(channel.id));
  assert.match(settings, /Primary server \(RTMP\)[\s\S]*Backup server \(RTMP\)[\s\S]*Stream key/);
  await setup.getByRole('button', { name: 'Show Password' }).click();
  return channel;
}

async function buildPlaylist(page: Page, vod: Vod, channel: { id: string }, channelTitle: string, label: string) {
  const editor = page.locator('svc-playlist-editor');
  await editor.getByLabel('Title', { exact: true }).fill(`Playlist (${label})`);
  await editor.getByLabel('Description', { exact: true }).fill('VOD and channel, reordered');
  await editor.getByRole('button', { name: 'Create playlist' }).click();
  const created = await waitForEvent<{ playlistId: string }>(page, 'svc-playlist-create');
  await editor.getByRole('button', { name: 'Refresh' }).click();
  // From the caller's library (ready VODs and channels), by the rows' ids.
  for (const id of [vod.vodId, channel.id]) {
    await editor.locator(`[part~="library-item"][data-id="${id}"] button`).click();
    await editor.locator(`[part~="item"][data-id="${id}"]`).waitFor();
  }
  await editor.getByRole('button', { name: `Move ${channelTitle} up`, exact: true }).click();
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await waitForEvent(page, 'svc-playlist-save');
  const expected = [
    [channel.id, 'channel'],
    [vod.vodId, 'vod'],
  ];
  assert.deepEqual(await editorItems(page), expected);
  return { playlistId: created.playlistId, expected };
}

function editorItems(page: Page): Promise<string[][]> {
  return page
    .locator('svc-playlist-editor')
    .evaluate((element) => (element as unknown as { items: { id: string; type: string }[] }).items.map((item) => [item.id, item.type]));
}

/** After a reload the page reopens the playlist; the saved order is what the relay and the editor show. */
async function reloadAndCheck(page: Page, playlistId: string, expected: string[][]): Promise<void> {
  await page.reload();
  await waitForEvent(page, 'svc-playlist-load');
  assert.deepEqual(await editorItems(page), expected);
  const response = await fetch(new URL(`svc/playlists/${playlistId}`, demo.url), { headers: { 'X-Svc-Request': '1' } });
  assert.equal(response.status, 200);
  const playlist = (await response.json()) as { content: { list: { id: string; type: string; position: string }[] } };
  assert.deepEqual(
    playlist.content.list.map((item) => [item.id, item.type]),
    expected,
  );
  assert.deepEqual(
    playlist.content.list.map((item) => item.position),
    ['1', '2'],
  );
}

test('the demo: upload, play, embed code, channel, playlist kept across a reload, accessible in light and dark', { timeout: 300_000 }, async () => {
  const page = await browser.newPage();
  const recorder = await record(page);
  await page.goto(demo.url);

  const vod = await uploadThroughUploader(page, 'demo');
  // The library follows the relay: the card appears without a reload.
  const card = page.locator(`#library-list li[data-id="${vod.vodId}"]`);
  await card.waitFor({ timeout: 30_000 });
  await seePlay(page, vod.vodId);
  await card.getByText('Embed code', { exact: true }).click();
  const code = await waitForText(card.locator('code'), /player\.js/);
  assert.match(code, new RegExp(`^<script [^>]*src="http://127\\.0\\.0\\.1:\\d+/js/player\\.js\\?contentId=[^"]*-vod-${vod.vodId}"`));

  const channelTitle = 'Evening news (demo)';
  const channel = await createChannel(page, channelTitle);
  const { playlistId, expected } = await buildPlaylist(page, vod, channel, channelTitle, 'demo');
  await page.locator(`#preview-slot svc-player[kind="playlist"][content-id="${playlistId}"]`).waitFor({ state: 'attached' });
  // While the editor holds unsaved changes, the preview says it plays the last saved list.
  const unsaved = page.locator('#preview-unsaved');
  assert.equal(await unsaved.isVisible(), false);
  const editor = page.locator('svc-playlist-editor');
  await editor.getByRole('button', { name: `Move ${channelTitle} down`, exact: true }).click();
  await unsaved.waitFor({ state: 'visible' });
  assert.match((await unsaved.textContent()) ?? '', /Not saved yet/);
  await editor.getByRole('button', { name: 'Revert', exact: true }).click();
  await unsaved.waitFor({ state: 'hidden' });
  await reloadAndCheck(page, playlistId, expected);
  // The card's player is lazy: it loads once scrolled near, wherever the reload left the page.
  await card.locator('svc-player').scrollIntoViewIfNeeded({ timeout: 60_000 });
  await card.locator('video').waitFor({ state: 'attached', timeout: 60_000 });

  // Accessible in both colour schemes, with content in every section.
  assert.deepEqual(await axeViolations(page), [], 'axe, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await axeViolations(page), [], 'axe, dark');

  assert.deepEqual(recorder.consoleErrors, []);
  // Lit's production build: no "Lit is in dev mode" warning.
  assert.deepEqual(recorder.consoleMessages.filter((line) => /dev mode/i.test(line)), []);
  await page.close();
});

test('the CMS page: one script tag under a strict CSP with Trusted Types, same flow', { timeout: 300_000 }, async () => {
  const page = await browser.newPage();
  const recorder = await record(page);
  const response = await page.goto(new URL('cms-page.html', demo.url).href);
  const policy = response?.headers()['content-security-policy'] ?? '';
  assert.match(policy, /script-src 'nonce-[^']+'/);
  assert.match(policy, /require-trusted-types-for 'script'/);
  // The page loads nothing but the relay's bundle by script tag.
  const scripts = await page.locator('script[src]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src')));
  assert.deepEqual(scripts.slice(0, 1), ['/svc/elements.js']);

  const vod = await uploadThroughUploader(page, 'cms');
  await seePlay(page, vod.vodId);
  const channelTitle = 'Evening news (cms)';
  const channel = await createChannel(page, channelTitle);
  const { playlistId, expected } = await buildPlaylist(page, vod, channel, channelTitle, 'cms');
  await reloadAndCheck(page, playlistId, expected);

  assert.deepEqual(await recorder.violations(), [], 'no Content-Security-Policy violation');
  assert.deepEqual(recorder.consoleErrors, []);

  // The policy is really enforced and the recorder sees violations: a script URL given as a plain
  // string (no Trusted Types policy) is refused and reported.
  const refused = await page.evaluate(() => {
    try {
      document.createElement('script').src = 'https://evil.example/x.js';
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(refused, true);
  await page.waitForFunction(() => (window as unknown as { __violations: unknown[] }).__violations.length > 0);
  assert.match(JSON.stringify(await recorder.violations()), /require-trusted-types-for/);
  await page.close();
});

test("the relay's event stream flows through the demo server as it happens (SSE not buffered)", { timeout: 60_000 }, async () => {
  const relay = new URL('svc', demo.url).href;
  const controller = new AbortController();
  const response = await fetch(`${relay}/events`, {
    headers: { 'X-Svc-Request': '1', Accept: 'text/event-stream' },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  // The stream stays open, so whatever arrives before the upload proves nothing is held back.
  let text = (await reader.read()).value ?? '';
  const { upload_id, vod_id } = await uploadVod(relay, makeVideo({ seconds: 1, name: 'sse-check.mp4' }));
  const readyEvent = () =>
    text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { upload_id: string; state: string; vod?: { id: string } })
      .find((event) => event.upload_id === upload_id && event.state === 'ready');
  while (!readyEvent()) {
    const { value, done } = await withDeadline(reader.read(), `the ready event on the stream (so far:\n${text})`, 30_000);
    assert.equal(done, false, `the stream ended before the ready event:\n${text}`);
    text += value;
  }
  assert.equal(readyEvent()!.vod?.id, vod_id);
  controller.abort();
});

test('stopping npm start (SIGTERM, as Ctrl+C) ends every process it started', { timeout: 30_000 }, async () => {
  const child = demo.process;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  assert.equal(code, 0, demo.output());
  assert.equal(await eventually(() => !groupAlive(child.pid!), 10_000), true, 'no process of its group is left');
});
