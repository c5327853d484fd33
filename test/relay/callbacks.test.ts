// The upload-complete callback over real loopback HTTP: deliveries from the local service
// (retried after a failure, duplicated), forged and tampered callbacks, malformed, oversized
// and stalled bodies. None of them changes what the relay knows or stops it from answering.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startStack, uploadVod, type Stack } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { KeyScanner, SseReader, control, describeStores, multipart, recordingProxy } from './helpers.js';
import { waitFor } from '../support/wait.js';

const H = { 'X-Svc-Request': '1' };

/** Sends raw bytes on a fresh connection and resolves with the whole answer (or on close). */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describeStores('upload callbacks over HTTP', (store) => {
  let stack: Stack;
  let scan: KeyScanner;
  let vod: { upload_id: string; vod_id: string; title: string };
  let callbackUrl: string;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  before(async () => {
    // The relay talks to the service through a recording proxy: it keeps the callback URLs (with
    // their tokens), which the service's control API never shows.
    proxy = await recordingProxy(() => stack.service.baseUrl);
    stack = await startStack({
      processingMs: 50,
      relay: { baseUrl: proxy.url, bodyTimeoutMs: 300, logger: () => {}, database: await store.database() },
    });
    scan = new KeyScanner(stack.service.apiKey);
  });
  after(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('gets ready although the first delivery failed (the service retries)', async () => {
    await control(stack.controlUrl, '/callbacks', { fail_next: 1 });
    vod = await uploadVod(stack.relayUrl, makeVideo({ seconds: 1 }));
    const record = ((await control(stack.controlUrl, '/state')).callbacks as any[]).find((c) => c.vod_id === vod.vod_id);
    assert.deepEqual(record.attempts.map((a: any) => a.status), [null, 200]);
    assert.equal(record.callback_origin, new URL(stack.relayUrl).origin);
    assert.equal(proxy.callbackUrls.length, 1);
    callbackUrl = proxy.callbackUrls[0]!;
  });

  it('answers a duplicated delivery with 200 and records the VOD once', async () => {
    await control(stack.controlUrl, '/callbacks', { duplicate_next: 1 });
    const events = new SseReader(await fetch(`${stack.relayUrl}/events`, { headers: { ...H, 'Last-Event-ID': '0' } }));
    const second = await uploadVod(stack.relayUrl, makeVideo({ seconds: 1 }));
    const records = await waitFor(async () => {
      const sent = ((await control(stack.controlUrl, '/state')).callbacks as any[]).filter((c) => c.vod_id === second.vod_id);
      return sent.filter((r) => r.delivered).length >= 2 && sent;
    }, 'both deliveries of the duplicated callback');
    assert.deepEqual(records.map((r) => r.attempts.at(-1).status), [200, 200]);
    // A marker event after the duplicate: a new upload signed now.
    const marker = await scan.fetch(`${stack.relayUrl}/uploads`, { method: 'POST', headers: { ...H, 'Content-Type': 'application/json' }, body: '{"source":"marker.mp4","size":1000}' });
    await events.until(() => events.events.some((e) => e.data.upload_id === marker.json.upload_id), 'marker');
    const readies = events.events.filter((e) => e.data.upload_id === second.upload_id && e.data.state === 'ready');
    assert.equal(readies.length, 1, 'one ready event despite two deliveries');
    await events.close();
    const library = (await scan.fetch(`${stack.relayUrl}/library`, { headers: H })).json;
    assert.equal(library.items.filter((i: any) => i.id === second.vod_id).length, 1);
  });

  it('refuses a replay of a real callback URL with another file_id (409) and keeps the VOD', async () => {
    const tampered = await scan.fetch(callbackUrl, { method: 'POST', body: multipart({ file_id: '424242', title: 'evil' }) });
    assert.equal(tampered.response.status, 409);
    assert.equal(tampered.json.error.code, 'conflict');
    const replay = await scan.fetch(callbackUrl, { method: 'POST', body: multipart({ file_id: vod.vod_id, title: 'renamed' }) });
    assert.equal(replay.response.status, 200);
    const state = (await scan.fetch(`${stack.relayUrl}/uploads/${vod.upload_id}`, { headers: H })).json;
    assert.deepEqual(state.vod, { id: vod.vod_id, title: vod.title });
  });

  it('refuses forged tokens (404) without changing anything', async () => {
    const real = callbackUrl.split('/').pop()!;
    const nearMiss = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
    for (const token of [randomBytes(32).toString('base64url'), 'x', 'a'.repeat(43), nearMiss, `${real}A`]) {
      const { response, json } = await scan.fetch(`${stack.relayUrl}/callbacks/upload/${token}`, {
        method: 'POST',
        body: multipart({ file_id: '777', title: 'forged' }),
      });
      assert.equal(response.status, 404, token);
      assert.equal(json.error.code, 'not_found');
    }
    const library = (await scan.fetch(`${stack.relayUrl}/library`, { headers: H })).json;
    assert.ok(!library.items.some((i: any) => i.id === '777'));
  });

  it('refuses wrong content types (415), malformed (400) and too large bodies (413)', async () => {
    const post = (body: BodyInit, headers?: Record<string, string>) => scan.fetch(callbackUrl, { method: 'POST', body, headers });
    assert.equal((await post('file_id=1&title=t', { 'Content-Type': 'application/x-www-form-urlencoded' })).response.status, 415);
    assert.equal((await post('nonsense', { 'Content-Type': 'multipart/form-data; boundary=abc' })).response.status, 400);
    assert.equal((await post(multipart({ title: 'no id' }))).response.status, 400);
    assert.equal((await post(multipart({ file_id: vod.vod_id, title: 'x'.repeat(200_000) }))).response.status, 413);
    // A large body sent without Content-Length (chunked) is cut at the limit too.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 64; i++) controller.enqueue(new Uint8Array(16 * 1024).fill(65));
        controller.close();
      },
    });
    const chunked = await fetch(callbackUrl, {
      method: 'POST',
      body: chunks,
      headers: { 'Content-Type': 'multipart/form-data; boundary=zz' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
  });

  it('answers a stalled body with 400 and keeps serving', async () => {
    const path = new URL(callbackUrl).pathname;
    const answer = await raw(
      callbackUrl,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n--b\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /not received within/);
    assert.equal((await scan.fetch(`${stack.relayUrl}/healthz`)).response.status, 200);
    const state = (await scan.fetch(`${stack.relayUrl}/uploads/${vod.upload_id}`, { headers: H })).json;
    assert.equal(state.state, 'ready');
  });

  it('never shows the key', () => scan.assertClean());
});
