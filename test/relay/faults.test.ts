// Upstream failures injected with the local service's control API: 5xx and latency beyond the
// timeout become 502/504; GETs are retried (and succeed when the fault passes), POSTs are not.
// Attempts are counted by the service itself (each fault's `hits`).
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../support/servers.js';
import { KeyScanner, control, describeStores, json, logCapture } from './helpers.js';

describeStores('upstream faults', (store) => {
  let stack: Stack;
  let scan: KeyScanner;
  const logs = logCapture();
  let playlistId: string;
  const faultHits = async (path: string) =>
    ((await control(stack.controlUrl, '/state')).faults as any[]).filter((f) => f.path === path).map((f) => f.hits);

  before(async () => {
    stack = await startStack({ relay: { logger: logs.sink, timeoutMs: 400, retries: 2, database: await store.database() } });
    scan = new KeyScanner(stack.service.apiKey);
    playlistId = (await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'Faults', description: '' }))).json.id;
  });
  let serviceDown = false;
  afterEach(() => (serviceDown ? undefined : control(stack.controlUrl, '/reset', {})));
  after(() => stack?.close());

  it('retries a GET through two 503s and succeeds on the third attempt', async () => {
    const path = `/v2/playlist/${playlistId}`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, status: 503, count: 2 });
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: { 'X-Svc-Request': '1' } });
    assert.equal(response.status, 200);
    assert.equal(body.id, playlistId);
    assert.deepEqual(await faultHits(path), [2]);
  });

  it('gives 502 upstream_unavailable when every GET attempt fails (1 + retries attempts)', async () => {
    const path = `/v2/playlist/${playlistId}/embed/javascript`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, status: 502, count: 0 });
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/embed/playlist/${playlistId}/javascript`);
    assert.equal(response.status, 502);
    assert.equal(body.error.code, 'upstream_unavailable');
    assert.match(body.error.message, /502/);
    assert.deepEqual(await faultHits(path), [3]);
  });

  it('never retries a POST: one attempt, 502', async () => {
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/playlist', status: 503, count: 0 });
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'x', description: '' }));
    assert.equal(response.status, 502);
    assert.equal(body.error.code, 'upstream_unavailable');
    assert.deepEqual(await faultHits('/v2/playlist'), [1]);
  });

  it('never retries the upload signature either', async () => {
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/vod', status: 500, count: 0 });
    const { response } = await scan.fetch(`${stack.relayUrl}/uploads`, json({ source: 'a.mp4', size: 1000 }));
    assert.equal(response.status, 502);
    assert.deepEqual(await faultHits('/v2/vod'), [1]);
  });

  it('gives 504 upstream_timeout for latency beyond the timeout; a GET tries 3 times, a POST once', async () => {
    const getPath = `/v2/playlist/${playlistId}`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path: getPath, latency_ms: 1500, count: 0 });
    const get = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: { 'X-Svc-Request': '1' } });
    assert.equal(get.response.status, 504);
    assert.equal(get.json.error.code, 'upstream_timeout');
    assert.deepEqual(await faultHits(getPath), [3]);
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/channel', latency_ms: 1500, count: 0 });
    const post = await scan.fetch(`${stack.relayUrl}/channels`, json({ title: 'c', description: '', region: 'europe', rendition_count: 1 }));
    assert.equal(post.response.status, 504);
    assert.deepEqual(await faultHits('/v2/channel'), [1]);
  });

  it('recovers after a slow first attempt of a GET', async () => {
    const path = `/v2/playlist/${playlistId}`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, latency_ms: 1500, count: 1 });
    const { response } = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: { 'X-Svc-Request': '1' } });
    assert.equal(response.status, 200);
    assert.deepEqual(await faultHits(path), [1]);
  });

  it('honours 429 from the service with retries, then answers 429 with Retry-After', async () => {
    const path = `/v2/channel/none/embed/iframe`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, status: 429, count: 0 });
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/embed/channel/none/iframe`);
    assert.equal(response.status, 429);
    assert.equal(body.error.code, 'rate_limited');
    assert.match(response.headers.get('retry-after')!, /^\d+$/);
    assert.deepEqual(await faultHits(path), [3]);
  });

  it('maps a refused key (401 from the service) to 502 upstream_credentials, not to the caller\'s 401', async () => {
    const path = `/v2/playlist/${playlistId}`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, status: 401, count: 1 });
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: { 'X-Svc-Request': '1' } });
    assert.equal(response.status, 502);
    assert.equal(body.error.code, 'upstream_credentials');
    assert.match(body.error.message, /API key/);
    assert.deepEqual(await faultHits(path), [1], '4xx is not retried');
  });

  it('does not cache errors: an embed that failed succeeds on the next request', async () => {
    const path = `/v2/playlist/${playlistId}/embed/iframe`;
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'GET', path, status: 404, count: 1 });
    const failed = await scan.fetch(`${stack.relayUrl}/embed/playlist/${playlistId}/iframe`);
    assert.equal(failed.response.status, 404);
    assert.equal(failed.json.error.code, 'not_found');
    assert.equal((await scan.fetch(`${stack.relayUrl}/embed/playlist/${playlistId}/iframe`)).response.status, 200);
  });

  it('gives 502 when the service is down, and the key is in no response or log line', async () => {
    const relayUrl = stack.relayUrl;
    await stack.service.close();
    serviceDown = true;
    const { response, json: body } = await scan.fetch(`${relayUrl}/playlists`, json({ title: 'x', description: '' }));
    assert.equal(response.status, 502);
    assert.equal(body.error.code, 'upstream_unavailable');
    const health = await scan.fetch(`${relayUrl}/healthz`);
    assert.equal(health.response.status, 200);
    scan.assertClean();
    assert.ok(!logs.lines.join('\n').includes(stack.service.apiKey));
  });
});
