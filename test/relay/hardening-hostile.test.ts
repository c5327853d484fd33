// A hostile upstream: a small loopback HTTP server in front of the local service that echoes the
// API key (and the callback URL it was sent) in every form it can think of, in successful bodies,
// error bodies and headers, on every operation. Whatever route a caller uses, anonymous or signed
// in, neither an answer nor a log line may carry the key in any form. Also: the signed policy's
// content-length-range and SVC_MAX_UPLOAD_BYTES hold the size claim, and public GETs to a hung
// service stop within their total budget.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve, type ServerType } from '@hono/node-server';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { serviceOptions } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { logCapture, startRelay, type RelayServer } from './helpers.js';

const KEY = `Hk_live/${randomBytes(16).toString('hex')}+Z=`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every form the hostile service echoes. */
const ECHOES = [
  KEY,
  KEY.toUpperCase(),
  KEY.toLowerCase(),
  b64(KEY),
  b64url(KEY),
  b64(`X-Api-Key: ${KEY}`),
  b64url(`k=${KEY}`),
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
  KEY.slice(0, 20),
  KEY.slice(0, -4),
];
const ECHO_TEXT = ECHOES.join(' | ');

/** What must never be seen: a distinctive middle part of each form (case-insensitive). */
const FORBIDDEN = [...new Set(ECHOES.map((form) => (form.length > 24 ? form.slice(6, -6) : form.slice(0, 12)).toLowerCase()))];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return FORBIDDEN.filter((form) => lower.includes(form));
}

type Mode = 'success' | number;

/** A loopback server in front of the local service's API that poisons every answer. */
async function hostileUpstream(target: () => string) {
  const state = { mode: 'success' as Mode, requests: 0, hang: false };
  const poison = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') return /^(id|key|bucket|success_action_status|x-amz-.*|policy|acl)$/.test(key) ? value : `${value} ${ECHO_TEXT}`;
    if (Array.isArray(value)) return value.map((item) => poison(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
    return value;
  };
  const server: ServerType = await new Promise((resolve) => {
    const s = serve(
      {
        fetch: async (request) => {
          state.requests++;
          if (state.hang) return new Promise<Response>(() => {});
          const url = new URL(request.url);
          const body = request.method === 'GET' ? undefined : await request.text();
          const sent = body ? (JSON.parse(body) as { callback_url?: string }) : {};
          const echoHeaders = { 'X-Echo': KEY, 'X-Echo-B64': b64(KEY), 'Content-Type': 'application/json' };
          if (state.mode !== 'success') {
            const message = `bad key ${ECHO_TEXT} for ${sent.callback_url ?? ''}`;
            return new Response(JSON.stringify({ error: { message }, message, key: KEY }), { status: state.mode, headers: { ...echoHeaders, 'Retry-After': '1' } });
          }
          const headers = new Headers(request.headers);
          headers.delete('host');
          const answer = await fetch(target() + url.pathname + url.search, { method: request.method, headers, body });
          const data = poison(await answer.json());
          const extra = { leak: ECHO_TEXT, echoed_callback: sent.callback_url ?? null, echoed_callback_b64: sent.callback_url ? b64(sent.callback_url) : null };
          return new Response(JSON.stringify({ ...(data as object), ...extra }), { status: answer.status, headers: echoHeaders });
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s),
    );
  });
  const address = server.address();
  return {
    state,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a hostile upstream that echoes the key in every form', () => {
  let service: LocalService;
  let hostile: Awaited<ReturnType<typeof hostileUpstream>>;
  let relay: RelayServer;
  const logs = logCapture();
  const seen: string[] = [];
  const H = { 'X-Svc-Request': '1', 'Content-Type': 'application/json' };

  async function call(path: string, init: RequestInit = {}) {
    const response = await fetch(`${relay.url}${path}`, init);
    const text = await response.text();
    seen.push(`${init.method ?? 'GET'} ${path} -> ${response.status}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
    return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
  }

  before(async () => {
    service = await createLocalService({ apiKey: KEY, control: true, processingMs: 50 });
    hostile = await hostileUpstream(() => service.baseUrl);
    relay = await startRelay((origin) => ({
      ...serviceOptions(service),
      baseUrl: hostile.url,
      publicUrl: origin,
      auth: 'dev',
      database: ':memory:',
      retries: 1,
      logger: logs.sink,
    }));
  });
  after(async () => {
    await relay?.close();
    await hostile?.close();
    await service?.close();
  });

  it('passes successful answers on scrubbed, on every route', async () => {
    hostile.state.mode = 'success';
    const upload = await call('/uploads', { method: 'POST', headers: H, body: JSON.stringify({ source: 'a.mp4', size: 1000, type: 'video/mp4' }) });
    assert.equal(upload.status, 201, upload.text);
    assert.ok(upload.text.includes('[redacted]'), 'the echoes were there and got scrubbed');
    assert.ok(!upload.text.includes('/callbacks/upload/') || upload.text.includes('/callbacks/upload/[token]'));
    const playlist = await call('/playlists', { method: 'POST', headers: H, body: JSON.stringify({ title: 'P', description: '' }) });
    assert.equal(playlist.status, 201, playlist.text);
    await call(`/playlists/${playlist.json.id}`, { headers: H });
    await call(`/playlists/${playlist.json.id}/content`, { method: 'PUT', headers: H, body: '{"items":[]}' });
    const channel = await call('/channels', { method: 'POST', headers: H, body: JSON.stringify({ title: 'C', description: '', region: 'europe', rendition_count: 1 }) });
    assert.equal(channel.status, 201, channel.text);
    for (const variant of ['javascript', 'iframe']) {
      const embed = await call(`/embed/channel/${channel.json.id}/${variant}`);
      assert.equal(embed.status, 200, embed.text);
      assert.ok(embed.json.code.includes('[redacted]'), 'the embed code was scanned');
    }
    await call('/library', { headers: H });
    await call('/config');
    await call('/healthz');
  });

  for (const status of [400, 401, 404, 409, 413, 422, 429, 500, 503]) {
    it(`scrubs error answers (${status}) on every route`, async () => {
      hostile.state.mode = status;
      const answers = [
        await call('/uploads', { method: 'POST', headers: H, body: JSON.stringify({ source: 'a.mp4', size: 1000 }) }),
        await call('/playlists', { method: 'POST', headers: H, body: JSON.stringify({ title: 'P', description: '' }) }),
        await call('/channels', { method: 'POST', headers: H, body: JSON.stringify({ title: 'C', description: '', region: 'europe', rendition_count: 1 }) }),
        await call(`/embed/vod/v${status}/javascript`),
        await call(`/embed/playlist/p${status}/iframe`),
      ];
      for (const answer of answers) assert.ok(answer.status >= 400, answer.text);
    });
  }

  it('never let the key reach a caller or a log line, in any form', () => {
    assert.ok(seen.length > 40);
    for (const entry of seen) assert.deepEqual(leaks(entry), [], entry.slice(0, 600));
    assert.ok(logs.lines.length > 0);
    for (const line of logs.lines) assert.deepEqual(leaks(line), [], line.slice(0, 600));
  });
});

describe('the size claim and the signed policy', () => {
  let service: LocalService;
  let relay: RelayServer;
  before(async () => {
    // The service signs policies with content-length-range [1, 1000].
    service = await createLocalService({ maxUploadBytes: 1000, processingMs: 50 });
    relay = await startRelay((origin) => ({ ...serviceOptions(service), publicUrl: origin, auth: 'dev', database: ':memory:', logger: () => {} }));
  });
  after(async () => {
    await relay?.close();
    await service?.close();
  });
  const sign = (body: unknown) =>
    fetch(`${relay.url}/uploads`, { method: 'POST', headers: { 'X-Svc-Request': '1', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('refuses a claim above the policy\'s content-length-range, and a missing size', async () => {
    const above = await sign({ source: 'big.mp4', size: 1001 });
    assert.equal(above.status, 413);
    assert.equal(((await above.json()) as any).error.fields.size, 'must be at most 1000');
    assert.equal((await sign({ source: 'a.mp4' })).status, 400);
    assert.equal((await sign({ source: 'a.mp4', size: 1000 })).status, 201);
  });

  it('cannot stop a lie: the service\'s policy refuses the bytes (the hard limit)', async () => {
    const bytes = readFileSync(makeVideo({ seconds: 1 }));
    assert.ok(bytes.length > 1000);
    const signed = (await (await sign({ source: 'lie.mp4', size: 500 })).json()) as any;
    const form = new FormData();
    for (const [name, value] of signed.fields as [string, string][]) form.append(name, value);
    form.append('file', new Blob([bytes]), 'lie.mp4');
    const posted = await fetch(signed.upload_url, { method: 'POST', body: form });
    assert.equal(posted.status, 400);
    assert.match(await posted.text(), /EntityTooLarge/);
  });

  it('refuses a claim above SVC_MAX_UPLOAD_BYTES before asking the service', async () => {
    const strict = await startRelay((origin) => ({ ...serviceOptions(service), publicUrl: origin, auth: 'dev', database: ':memory:', maxUploadBytes: 100, baseUrl: 'http://127.0.0.1:9', logger: () => {} }));
    try {
      const response = await fetch(`${strict.url}/uploads`, { method: 'POST', headers: { 'X-Svc-Request': '1', 'Content-Type': 'application/json' }, body: '{"source":"a.mp4","size":101}' });
      assert.equal(response.status, 413, 'not 502: the service (a closed port) was not asked');
    } finally {
      await strict.close();
    }
  });
});

describe('public GETs to a hung service', () => {
  it('stop within the total budget: no attempt starts after it', async () => {
    const hung = await hostileUpstream(() => 'http://127.0.0.1:9');
    hung.state.hang = true;
    const relay = await startRelay((origin) => ({
      apiKey: KEY,
      baseUrl: hung.url,
      uploadUrl: 'http://127.0.0.1:10',
      playerUrl: 'http://127.0.0.1:11',
      publicUrl: origin,
      auth: 'dev',
      database: ':memory:',
      timeoutMs: 400,
      retries: 5,
      publicUpstreamBudgetMs: 600,
      logger: () => {},
    }));
    try {
      const response = await fetch(`${relay.url}/embed/vod/123/javascript`);
      assert.equal(response.status, 504);
      // 400 ms + backoff + the rest of 600 ms: two attempts at most, not six.
      assert.ok(hung.state.requests <= 2, `attempts: ${hung.state.requests}`);
    } finally {
      await relay.close();
      await hung.close();
    }
  });
});
