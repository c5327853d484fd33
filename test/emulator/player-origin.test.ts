// The player origin over HTTP: media with Range requests and the right type, player.js served
// for cross-origin use and free of DOM-injection sinks, content descriptions, the embed page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { parseRange } from '../../src/emulator/player/media.js';
import { makeVideo } from '../support/media.js';
import { call, uploadForm, waitFor } from './helpers.js';

describe('the player origin', () => {
  let service: LocalService;
  const mp4 = readFileSync(makeVideo({ seconds: 1 }));
  const webm = readFileSync(makeVideo({ seconds: 1, format: 'webm' }));
  const ids: Record<string, string> = {};

  async function uploadReady(bytes: Buffer, source: string): Promise<string> {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source, upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/none' });
    const response = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, new Blob([new Uint8Array(bytes)]), source) });
    assert.equal(response.status, 201);
    const id = /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
    await waitFor(async () => (await call(service.baseUrl, 'GET', `/v2/vod/${id}/embed/javascript`)).status === 200, 'ready');
    return id;
  }

  before(async () => {
    service = await createLocalService({ processingMs: 10, callbackAttempts: 1 });
    ids.mp4 = await uploadReady(mp4, 'clip.mp4');
    // A misleading name: the type comes from the file's bytes.
    ids.webm = await uploadReady(webm, 'clip.mp4');
  });
  after(() => service.close());

  it('serves media whole with Accept-Ranges and the type from the magic bytes', async () => {
    const whole = await fetch(`${service.playerUrl}/media/${ids.mp4}`);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(whole.headers.get('content-type'), 'video/mp4');
    assert.equal(whole.headers.get('content-length'), String(mp4.length));
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), mp4);
    const other = await fetch(`${service.playerUrl}/media/${ids.webm}`);
    assert.equal(other.headers.get('content-type'), 'video/webm');
    await other.body?.cancel();
  });

  it('answers Range requests with 206 and the exact bytes, 416 when unsatisfiable', async () => {
    const size = mp4.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=10-${size + 1000}`, 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await fetch(`${service.playerUrl}/media/${ids.mp4}`, { headers: { Range: range } });
      assert.equal(response.status, 206, range);
      assert.equal(response.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
      assert.equal(response.headers.get('content-length'), String(end - start + 1));
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), mp4.subarray(start, end + 1), range);
    }
    const beyond = await fetch(`${service.playerUrl}/media/${ids.mp4}`, { headers: { Range: `bytes=${size}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${size}`);
    const head = await fetch(`${service.playerUrl}/media/${ids.mp4}`, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    assert.equal(head.status, 206);
    assert.equal(head.headers.get('content-length'), '10');
    assert.equal((await fetch(`${service.playerUrl}/media/123`)).status, 404);
  });

  it('parses ranges as RFC 9110 says', () => {
    assert.equal(parseRange(undefined, 10), null);
    assert.equal(parseRange('bytes=0-1,4-5', 10), null, 'several ranges: the whole file');
    assert.equal(parseRange('items=0-1', 10), null);
    assert.equal(parseRange('bytes=-', 10), 'invalid');
    assert.equal(parseRange('bytes=-0', 10), 'invalid');
    assert.equal(parseRange('bytes=5-2', 10), 'invalid');
    assert.deepEqual(parseRange('bytes=-20', 10), { start: 0, end: 9 });
  });

  it('serves player.js as cross-origin JavaScript', async () => {
    const response = await fetch(`${service.playerUrl}/js/player.js?contentId=x`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });

  it('player.js uses no HTML-string sink, eval or string timer (Trusted Types and CSP)', () => {
    const source = readFileSync(new URL('../../src/emulator/player/player.js', import.meta.url), 'utf8')
      .replace(/\/\/.*$/gm, '')
      .replace(/\/\*[\s\S]*?\*\//g, '');
    for (const sink of [/innerHTML/, /outerHTML/, /insertAdjacentHTML/, /document\.write/, /\beval\s*\(/, /new\s+Function/, /set(Timeout|Interval)\s*\(\s*['"`]/, /setAttribute\(\s*['"]on/, /\.on[a-z]+\s*=/, /createContextualFragment/, /DOMParser/]) {
      assert.doesNotMatch(source, sink);
    }
  });

  it('describes content for the player; unknown or foreign ids are 404', async () => {
    const vod = await fetch(`${service.playerUrl}/api/content/${service.accountId}-vod-${ids.mp4}`);
    assert.equal(vod.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await vod.json(), {
      content_id: `${service.accountId}-vod-${ids.mp4}`,
      type: 'vod',
      title: 'clip.mp4',
      media_url: `${service.playerUrl}/media/${ids.mp4}`,
    });
    for (const id of [`other-vod-${ids.mp4}`, `${service.accountId}-vod-1`, `${service.accountId}-show-1`, 'x']) {
      const response = await fetch(`${service.playerUrl}/api/content/${id}`);
      assert.equal(response.status, 404, id);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    }
    assert.equal((await fetch(`${service.playerUrl}/embed/${service.accountId}-vod-1`)).status, 404);
  });

  it('serves the iframe page under a strict CSP with Trusted Types, loading the same player', async () => {
    const contentId = `${service.accountId}-vod-${ids.mp4}`;
    const page = await fetch(`${service.playerUrl}/embed/${contentId}`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /require-trusted-types-for 'script'/);
    assert.match(csp, /frame-ancestors \*/);
    const html = await page.text();
    assert.ok(html.includes(`<script id="${contentId}" width="100%" height="100%" src="/js/player.js?contentId=${contentId}" class="svc-video-player"></script>`));
  });
});
