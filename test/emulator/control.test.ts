// Callback delivery (retries, duplicates, bounded attempts) and the control API (faults,
// settings, reset), all through real HTTP.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { makeVideo } from '../support/media.js';
import { isLoopbackAddress } from '../../src/emulator/control-routes.js';
import { call, CallbackReceiver, s3Code, uploadForm, waitFor } from './helpers.js';

const video = new Blob([readFileSync(makeVideo({ seconds: 1 }))], { type: 'video/mp4' });

describe('callbacks and the control API', () => {
  let service: LocalService;
  let receiver: CallbackReceiver;
  const events: { event: string; data?: Record<string, unknown> }[] = [];
  const control = (path: string, body?: unknown) =>
    call(service.baseUrl, body === undefined ? 'GET' : 'POST', `/_control${path}`, body, {});

  before(async () => {
    receiver = await CallbackReceiver.start();
    service = await createLocalService({
      // The seed's {error: {code, fields}} bodies are asserted here; the observed forms in observed.test.ts.
      profile: 'seed',
      control: true,
      processingMs: 20,
      callbackAttempts: 4,
      callbackRetryMs: 40,
      logger: { info: (event, data) => events.push({ event, data }), warn: (event, data) => events.push({ event, data }) },
    });
  });
  after(async () => {
    await service.close();
    await receiver.close();
  });
  beforeEach(async () => {
    assert.equal((await control('/reset', {})).status, 200);
  });

  async function signAndUpload(callbackUrl = receiver.url): Promise<string> {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'c.mp4', upload_type: 'ajax', callback_url: callbackUrl });
    const response = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'c.mp4') });
    assert.equal(response.status, 201, await response.text());
    return /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
  }

  const callbacksOf = async (vodId: string) =>
    ((await control('/state')).json.callbacks as { vod_id: string; delivered: boolean; attempts: { at: string; status: number | null; error: string | null }[] }[])
      .filter((record) => record.vod_id === vodId);

  it('retries a callback answered with non-2xx, with exponential backoff, until delivered', async () => {
    receiver.answers.push(500, 503);
    const vodId = await signAndUpload();
    const [record] = await waitFor(async () => {
      const records = await callbacksOf(vodId);
      return records[0]?.delivered && records;
    }, 'delivery');
    assert.deepEqual(record!.attempts.map((a) => a.status), [500, 503, 200]);
    assert.deepEqual(record!.attempts.map((a) => a.error), ['HTTP 500', 'HTTP 503', null]);
    assert.equal(receiver.received.filter((r) => r.fields.file_id === vodId).length, 3);
    const times = record!.attempts.map((a) => Date.parse(a.at));
    // Each wait is at least the base delay doubled per retry (40 ms, then 80 ms).
    assert.ok(times[1]! - times[0]! >= 35, `first retry after ${times[1]! - times[0]!} ms`);
    assert.ok(times[2]! - times[1]! >= 75, `second retry after ${times[2]! - times[1]!} ms`);
  });

  it('fails the next N callback attempts on request and retries them', async () => {
    assert.equal((await control('/callbacks', { fail_next: 2 })).status, 200);
    const vodId = await signAndUpload();
    const [record] = await waitFor(async () => {
      const records = await callbacksOf(vodId);
      return records[0]?.delivered && records;
    }, 'delivery');
    assert.deepEqual(record!.attempts.map((a) => a.status), [null, null, 200]);
    assert.match(record!.attempts[0]!.error!, /injected/);
    assert.equal(receiver.received.filter((r) => r.fields.file_id === vodId).length, 1);
  });

  it('delivers the next callback twice on request', async () => {
    await control('/callbacks', { duplicate_next: 1 });
    const vodId = await signAndUpload();
    await waitFor(() => receiver.received.filter((r) => r.fields.file_id === vodId).length === 2, 'two deliveries');
    const records = await callbacksOf(vodId);
    assert.equal(records.length, 2);
    assert.ok(records.every((record) => record.delivered));
    const next = await signAndUpload();
    await waitFor(async () => (await callbacksOf(next))[0]?.delivered, 'the next delivery');
    assert.equal(receiver.received.filter((r) => r.fields.file_id === next).length, 1, 'only the next one is doubled');
  });

  it('gives up after the bounded number of attempts when the callback address is unreachable', async () => {
    const dead = await CallbackReceiver.start();
    const url = dead.url;
    await dead.close();
    const vodId = await signAndUpload(url);
    await waitFor(() => events.some((e) => e.event === 'callback_abandoned' && e.data?.vod_id === vodId), 'giving up');
    const [record] = await callbacksOf(vodId);
    assert.equal(record!.delivered, false);
    assert.equal(record!.attempts.length, 4);
    assert.ok(record!.attempts.every((a) => a.status === null && a.error));
  });

  it('injects answers on the API origin for the matching method and path, count times', async () => {
    const added = await control('/faults', { origin: 'api', method: 'POST', path: '/v2/vod', status: 503, count: 2 });
    assert.equal(added.status, 201);
    assert.equal(typeof added.json.id, 'string');
    const body = { source: 'f.mp4', upload_type: 'ajax', callback_url: receiver.url };
    const other = await call(service.baseUrl, 'POST', '/v2/playlist', { title: 't', description: '' });
    assert.equal(other.status, 200, 'another path is not affected');
    for (let i = 0; i < 2; i++) {
      const failed = await call(service.baseUrl, 'POST', '/v2/vod', body);
      assert.equal(failed.status, 503);
      assert.equal(failed.json.error.code, 'fault_injected');
    }
    assert.equal((await call(service.baseUrl, 'POST', '/v2/vod', body)).status, 200);
    const [fault] = (await control('/state')).json.faults;
    assert.equal(fault.hits, 2);
  });

  it('injects S3 errors on the upload address (body drained) and the form still works after', async () => {
    await control('/faults', { origin: 'upload', status: 503 });
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'u.mp4', upload_type: 'ajax', callback_url: receiver.url });
    const failed = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'u.mp4') });
    assert.deepEqual([failed.status, s3Code(await failed.text())], [503, 'SlowDown']);
    const retried = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'u.mp4') });
    assert.equal(retried.status, 201);
  });

  it('injects latency without a status, and a fault with count 0 lasts until reset', async () => {
    await control('/faults', { origin: 'player', path: '/js/player.js', latency_ms: 150 });
    const started = Date.now();
    const slow = await fetch(`${service.playerUrl}/js/player.js`);
    assert.equal(slow.status, 200);
    assert.ok(Date.now() - started >= 140, 'the answer waited for the latency');
    await control('/faults', { origin: 'player', path: '/js/', status: 500, count: 0 });
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${service.playerUrl}/js/player.js`)).status, 500);
    await control('/reset', {});
    assert.equal((await fetch(`${service.playerUrl}/js/player.js`)).status, 200);
    assert.deepEqual((await control('/state')).json.faults, []);
  });

  it('drops connections: the client sees a network failure, no answer', async () => {
    assert.equal((await control('/faults', { origin: 'upload', method: 'POST', drop: true, count: 1 })).status, 201);
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'd.mp4', upload_type: 'ajax', callback_url: receiver.url });
    await assert.rejects(fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'd.mp4') }), TypeError);
    // Only the next request: the one after it is answered.
    const again = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'd.mp4') });
    assert.equal(again.status, 201, await again.text());
  });

  it("limits the file size of new signatures' policy (policy_max_bytes): a larger file is EntityTooLarge", async () => {
    assert.equal((await control('/settings', { policy_max_bytes: 1000 })).status, 200);
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'e.mp4', upload_type: 'ajax', callback_url: receiver.url });
    const policy = JSON.parse(Buffer.from(signed.json.policy, 'base64').toString('utf8')) as { conditions: unknown[] };
    assert.deepEqual(policy.conditions.find((c) => Array.isArray(c) && c[0] === 'content-length-range'), ['content-length-range', 1, 1000]);
    const response = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'e.mp4') });
    assert.equal(response.status, 400);
    assert.equal(s3Code(await response.text()), 'EntityTooLarge');
  });

  it('changes the signature lifetime and the processing delay; before ready there is no embed code', async () => {
    await control('/settings', { signature_ttl_ms: -1000 });
    const expired = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'x.mp4', upload_type: 'ajax', callback_url: receiver.url });
    const rejected = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(expired.json, video, 'x.mp4') });
    assert.deepEqual([rejected.status, s3Code(await rejected.text())], [403, 'AccessDenied']);

    await control('/settings', { signature_ttl_ms: null, processing_ms: 3_600_000 });
    const vodId = await signAndUpload();
    const embed = await call(service.baseUrl, 'GET', `/v2/vod/${vodId}/embed/javascript`);
    assert.equal(embed.status, 404);
    assert.equal((await call(service.baseUrl, 'GET', `/v2/vod/${vodId}/embed/iframe`)).status, 404);
    assert.equal((await fetch(`${service.playerUrl}/media/${vodId}`)).status, 404);
    assert.equal((await fetch(`${service.playerUrl}/api/content/${service.accountId}-vod-${vodId}`)).status, 404);
    const playlist = (await call(service.baseUrl, 'POST', '/v2/playlist', { title: 'p', description: '' })).json;
    const update = await call(service.baseUrl, 'PUT', `/v2/playlist/${playlist.id}/content`, {
      content: [{ id: vodId, type: 'vod', position: '1' }],
    });
    assert.equal(update.status, 400, 'a VOD joins playlists only once ready');
    assert.match(update.json.error.fields['content[0].id'], /ready/);

    await control('/reset', {});
    assert.deepEqual((await control('/state')).json.settings, { signature_ttl_ms: null, processing_ms: 20, list_item_types: true, policy_max_bytes: null });
  });

  it('validates control requests; CORS and changes for its own origin only', async () => {
    const bad = await control('/faults', { origin: 'database', status: 'x' });
    assert.equal(bad.status, 400);
    assert.ok(bad.json.error.fields.origin && bad.json.error.fields.status);
    const preflight = (origin: string) =>
      fetch(`${service.baseUrl}/_control/faults`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
    assert.equal((await preflight('http://localhost:8000')).headers.get('access-control-allow-origin'), null, 'no CORS for a foreign page');
    assert.equal((await preflight(service.baseUrl)).headers.get('access-control-allow-origin'), service.baseUrl);
    const state = await fetch(`${service.baseUrl}/_control/state`, { headers: { Origin: 'http://localhost:8000' } });
    assert.equal(state.headers.get('access-control-allow-origin'), null);
    // A cross-site form (no preflight) cannot reset or fault the service either.
    const reset = await fetch(`${service.baseUrl}/_control/reset`, { method: 'POST', headers: { Origin: 'http://evil.example' } });
    assert.equal(reset.status, 403);
    const sameOrigin = await fetch(`${service.baseUrl}/_control/reset`, { method: 'POST', headers: { Origin: service.baseUrl } });
    assert.equal(sameOrigin.status, 200);
  });

  it('answers loopback callers only, by address and by Host (DNS rebinding)', async () => {
    // fetch() may not set Host; a raw request does, as a rebound browser would.
    const { port } = new URL(service.baseUrl);
    const rebound = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port, path: '/_control/state', headers: { Host: `evil.example:${port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      })
        .on('error', reject)
        .end(),
    );
    assert.equal(rebound, 403);
    assert.equal((await fetch(`${service.baseUrl}/_control/state`)).status, 200);
    assert.ok(isLoopbackAddress('::ffff:127.0.0.1') && isLoopbackAddress('[::1]') && !isLoopbackAddress('10.0.0.5') && !isLoopbackAddress('0.0.0.0'));
  });

  it('never lists callback URLs (their path holds the receiver\'s token), only their origin', async () => {
    const secretPath = '/svc/callbacks/upload/SECRET-token-abcdefghijklmnopqrstuvwxyz0123';
    const vodId = await signAndUpload(`${receiver.url}${secretPath}`);
    await waitFor(async () => (await control('/state')).json.callbacks.some((c: { vod_id: string; delivered: boolean }) => c.vod_id === vodId && c.delivered), 'delivery');
    const text = JSON.stringify((await control('/state')).json);
    assert.ok(!text.includes('SECRET-token'), text.slice(0, 300));
    const record = (await control('/state')).json.callbacks.find((c: { vod_id: string }) => c.vod_id === vodId);
    assert.equal(record.callback_origin, new URL(receiver.url).origin);
    assert.equal(record.callback_url, undefined);
  });
});

describe('without control', () => {
  it('has no control API', async () => {
    const service = await createLocalService();
    try {
      for (const path of ['/_control/state', '/_control/reset']) {
        const response = await fetch(service.baseUrl + path, { method: path.endsWith('reset') ? 'POST' : 'GET' });
        assert.equal(response.status, 404);
      }
    } finally {
      await service.close();
    }
  });
});
