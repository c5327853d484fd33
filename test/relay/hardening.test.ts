// Each finding of the hardening pass (issue 17) with the test that would have caught it: CSRF
// with a non-Bearer Authorization, JWT lifetimes, a Last-Event-ID beyond a reset database, the
// per-user stream cap and token expiry of streams, per-user limits on service routes, callbacks
// checked by token before their body is read and expiring, one title rule, ownership by id,
// configuration messages that never echo a value. Most run the relay in-process; its upstream is
// a closed port, so a request that wrongly went upstream answers 502.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { createRelay } from '../../src/relay/app.js';
import { createLogger } from '../../src/relay/log.js';
import { DEFAULTS, configFromEnv, resolveConfig } from '../../src/relay/config.js';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { JWT_SECRET, logCapture, multipart, offlineOptions, relayRequest, signToken, startRelay } from './helpers.js';
import { withDeadline } from '../support/wait.js';

const API_KEY = 'hardening-key-' + randomBytes(8).toString('hex');
const base = {
  ...offlineOptions(API_KEY),
  retries: 0,
  timeoutMs: 500,
  logger: () => {},
};
const JSON_H = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };
const req = relayRequest;

const jwt = (claims: { sub?: string; exp?: number; iat?: number }) => {
  let token = new SignJWT({}).setProtectedHeader({ alg: 'HS256' });
  if (claims.sub) token = token.setSubject(claims.sub);
  if (claims.iat !== undefined) token = token.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) token = token.setExpirationTime(claims.exp);
  return token.sign(new TextEncoder().encode(JWT_SECRET));
};
const now = () => Math.floor(Date.now() / 1000);

/** Reads an SSE body as text until `done(text)` holds or the stream ends; fails after `limitMs`. */
async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean, limitMs = 20_000): Promise<{ text: string; ended: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + limitMs;
  let text = '';
  for (;;) {
    if (done(text)) {
      reader.releaseLock();
      return { text, ended: false };
    }
    const chunk = await withDeadline(reader.read(), `the SSE text to match ${done.toString().slice(0, 120)} (read so far: ${JSON.stringify(text.slice(-300))})`, Math.max(1, deadline - Date.now()));
    if (chunk.done) return { text, ended: true };
    text += decoder.decode(chunk.value);
  }
}

describe('finding 1: cookie authentication always needs X-Svc-Request and an allowed Origin', () => {
  const relay = createRelay({ ...base, database: ':memory:', jwtSecret: JWT_SECRET, allowedOrigins: ['https://cms.example'] });
  after(() => relay.close());

  it('applies the cookie rule whatever other headers come along; only a Bearer token skips it', async () => {
    const token = await signToken('alice');
    const cookie = `svc_token=${token}`;
    const foreign = 'https://evil.example';
    const cases: [string, Record<string, string>, number][] = [
      ['cookie alone', { Cookie: cookie }, 403],
      ['cookie, marker, foreign Origin', { Cookie: cookie, 'X-Svc-Request': '1', Origin: foreign }, 403],
      ['cookie + Basic, no marker', { Cookie: cookie, Authorization: 'Basic dXNlcjpwYXNz' }, 403],
      ['cookie + Basic + marker, foreign Origin', { Cookie: cookie, Authorization: 'Basic dXNlcjpwYXNz', 'X-Svc-Request': '1', Origin: foreign }, 403],
      ['cookie + Digest + marker, foreign Origin', { Cookie: cookie, Authorization: 'Digest username="u"', 'X-Svc-Request': '1', Origin: foreign }, 403],
      ['cookie + empty Authorization, foreign Origin', { Cookie: cookie, Authorization: '', 'X-Svc-Request': '1', Origin: foreign }, 403],
      ['cookie + marker + allowed Origin', { Cookie: cookie, 'X-Svc-Request': '1', Origin: 'https://cms.example' }, 200],
      ['Bearer alone, foreign Origin', { Authorization: `Bearer ${token}`, Origin: foreign }, 200],
      ['Bearer + cookie, foreign Origin (the Bearer authenticates)', { Authorization: `Bearer ${token}`, Cookie: cookie, Origin: foreign }, 200],
      ['invalid Bearer + valid cookie', { Authorization: 'Bearer nope', Cookie: cookie, 'X-Svc-Request': '1', Origin: 'https://cms.example' }, 401],
    ];
    for (const [name, headers, status] of cases) {
      const response = await relay(req('/library', { headers }));
      assert.equal(response.status, status, name);
    }
  });

  it('refuses POST /playlists from a foreign Origin with cookie + Basic (the reported 201)', async () => {
    const response = await relay(
      req('/playlists', {
        method: 'POST',
        headers: {
          ...JSON_H,
          Cookie: `svc_token=${await signToken('alice')}`,
          Authorization: 'Basic dXNlcjpwYXNz',
          Origin: 'https://evil.example',
        },
        body: JSON.stringify({ title: 'csrf', description: '' }),
      }),
    );
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as any).error.code, 'forbidden');
  });
});

describe('finding 8: JWT lifetimes', () => {
  const relay = createRelay({ ...base, database: ':memory:', jwtSecret: JWT_SECRET, authMaxTtlS: 3600 });
  after(() => relay.close());
  const status = async (token: string) => (await relay(req('/library', { headers: { Authorization: `Bearer ${token}` } }))).status;

  it('refuses a token without exp, or living longer than SVC_AUTH_MAX_TTL_S', async () => {
    assert.equal(await status(await jwt({ sub: 'a' })), 401, 'no exp');
    assert.equal(await status(await jwt({ sub: 'a', iat: now() })), 401, 'iat but no exp');
    assert.equal(await status(await jwt({ sub: 'a', exp: now() + 7200 })), 401, 'exp beyond the maximum from now');
    assert.equal(await status(await jwt({ sub: 'a', iat: now() - 7000, exp: now() + 60 })), 401, 'issued for longer than the maximum');
    assert.equal(await status(await jwt({ sub: 'a', exp: now() - 5 })), 401, 'expired');
    assert.equal(await status(await jwt({ sub: 'a', iat: now(), exp: now() + 1800 })), 200);
  });

  it('defaults to 24 h, settable by SVC_AUTH_MAX_TTL_S', () => {
    assert.equal(DEFAULTS.authMaxTtlS, 86_400);
    const env = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
    assert.equal(configFromEnv({ ...env, SVC_AUTH_MAX_TTL_S: '600' }).config!.options.authMaxTtlS, 600);
  });
});

describe('finding 3: a Last-Event-ID above the newest stored event', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relay-reset-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is answered with event: reset, then new events, across a database reset', async () => {
    const path = join(dir, 'relay.db');
    const before = new SqliteStore(path);
    const relayBefore = createRelay({ ...base, auth: 'dev', store: before });
    let lastId = 0;
    for (let i = 0; i < 5; i++) lastId = (await before.createUpload({ id: `old${i}`, owner: 'dev', source: 'a.mp4', tokenHash: hashToken(`o${i}`) })).event.seq;
    await relayBefore.close();
    rmSync(dir, { recursive: true, force: true }); // the database is reset (or a backup restored)

    const after = new SqliteStore(path);
    const relay = createRelay({ ...base, auth: 'dev', store: after });
    try {
      const { event } = await after.createUpload({ id: 'new1', owner: 'dev', source: 'b.mp4', tokenHash: hashToken('n1') });
      assert.ok(event.seq < lastId);
      const response = await relay(req('/events', { headers: { 'X-Svc-Request': '1', 'Last-Event-ID': String(lastId) } }));
      const opened = await readUntil(response.body!, (text) => text.includes('event: reset'));
      assert.match(opened.text, new RegExp(`id: ${event.seq}\\nevent: reset\\ndata: \\{"last_event_id":${event.seq}\\}\\n\\n`));
      // A change now reaches the page (before the fix, its id was below the cursor: silence).
      const marked = await relay(req('/uploads/new1/uploaded', { method: 'POST', headers: JSON_H, body: '{}' }));
      assert.equal(marked.status, 200);
      const next = await readUntil(response.body!, (text) => text.includes('"state":"processing"'));
      assert.match(next.text, /event: upload\ndata: \{"upload_id":"new1","source":"b.mp4","state":"processing"\}/);
      await response.body!.cancel();
    } finally {
      await relay.close();
    }
  });

  it('replays as before when the cursor is within the store', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({ ...base, auth: 'dev', store });
    try {
      const first = await store.createUpload({ id: 'u1', owner: 'dev', source: 'a.mp4', tokenHash: hashToken('u1') });
      await store.createUpload({ id: 'u2', owner: 'dev', source: 'b.mp4', tokenHash: hashToken('u2') });
      const response = await relay(req('/events', { headers: { 'X-Svc-Request': '1', 'Last-Event-ID': String(first.event.seq) } }));
      const { text } = await readUntil(response.body!, (t) => t.includes('"u2"'));
      assert.ok(!text.includes('event: reset') && !text.includes('"u1"'), text);
      await response.body!.cancel();
    } finally {
      await relay.close();
    }
  });
});

describe('finding 5: event streams per user and token lifetime', () => {
  it('closes the oldest stream beyond SVC_MAX_STREAMS_PER_USER with a reason; other users keep theirs', async () => {
    const relay = createRelay({
      ...base,
      database: ':memory:',
      maxStreamsPerUser: 2,
      auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }),
    });
    try {
      const open = async (user: string) => (await relay(req('/events', { headers: { 'X-Svc-Request': '1', 'X-User': user } }))).body!;
      const first = await open('alice');
      const bob = await open('bob');
      const second = await open('alice');
      const third = await open('alice');
      const closed = await readUntil(first, () => false);
      assert.ok(closed.ended, 'the oldest stream ended');
      assert.match(closed.text, /event: close\ndata: \{"reason":"too_many_streams"\}\n\n$/);
      for (const body of [second, third, bob]) {
        const { text } = await readUntil(body, (t) => t.includes(': connected'));
        assert.ok(!text.includes('event: close'));
      }
      for (const body of [second, third, bob]) await body.cancel();
    } finally {
      await relay.close();
    }
  });

  it('allows 10 streams per user by default (SVC_MAX_STREAMS_PER_USER)', () => {
    assert.equal(resolveConfig({ ...base, auth: 'dev' }).maxStreamsPerUser, 10);
    const env = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
    assert.equal(configFromEnv({ ...env, SVC_MAX_STREAMS_PER_USER: '3' }).config!.options.maxStreamsPerUser, 3);
  });

  it('ends a stream when the token that opened it expires', async () => {
    const relay = createRelay({ ...base, database: ':memory:', jwtSecret: JWT_SECRET });
    try {
      const token = await jwt({ sub: 'carol', iat: now(), exp: now() + 2 });
      const response = await relay(req('/events', { headers: { Authorization: `Bearer ${token}` } }));
      assert.equal(response.status, 200);
      const { text, ended } = await readUntil(response.body!, () => false);
      assert.ok(ended);
      assert.match(text, /event: close\ndata: \{"reason":"token_expired"\}\n\n$/);
    } finally {
      await relay.close();
    }
  });
});

describe('finding 6: per-user limit on every route that calls the service', () => {
  it('answers 429 with Retry-After once a user spent SVC_RATE_LIMIT_READ, reads included; other users unaffected', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({
      ...base,
      store,
      rateLimits: { read: { limit: 3, windowMs: 60_000 } },
      auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }),
    });
    try {
      await store.addContent({ type: 'playlist', id: 'p1', owner: 'dana', title: 'p' });
      const get = (user: string) => relay(req('/playlists/p1', { headers: { 'X-Svc-Request': '1', 'X-User': user } }));
      for (let i = 0; i < 3; i++) assert.equal((await get('dana')).status, 502, 'went upstream (a closed port)');
      const limited = await get('dana');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal(((await limited.json()) as any).error.code, 'rate_limited');
      // Writes and the reads of what the user owns share the budget.
      const write = await relay(req('/channels', { method: 'POST', headers: { ...JSON_H, 'X-User': 'dana' }, body: '{}' }));
      assert.equal(write.status, 429);
      assert.equal((await relay(req('/library', { headers: { 'X-Svc-Request': '1', 'X-User': 'dana' } }))).status, 429);
      assert.equal((await get('erik')).status, 403, 'another user is not limited (and does not own p1)');
    } finally {
      await relay.close();
    }
  });

  it('defaults to 600 per minute, settable by SVC_RATE_LIMIT_READ', () => {
    assert.deepEqual(resolveConfig({ ...base, auth: 'dev' }).rateLimits.read, { limit: 600, windowMs: 60_000 });
    const env = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
    assert.deepEqual(configFromEnv({ ...env, SVC_RATE_LIMIT_READ: '30' }).config!.options.rateLimits!.read, { limit: 30, windowMs: 60_000 });
  });
});

describe('issue 33: the default limits take a folder of 200 videos, and still stop a flood', () => {
  it('one user signs 250 uploads in a minute with reads to spare; the 251st is 429 with Retry-After; another user is unaffected', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({ ...base, store, auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }) });
    try {
      await store.addContent({ type: 'playlist', id: 'p1', owner: 'dana', title: 'p' });
      const sign = (user: string, i: number) =>
        relay(req('/uploads', { method: 'POST', headers: { ...JSON_H, 'X-User': user }, body: JSON.stringify({ source: `clip-${i}.mp4`, size: 1000, type: 'video/mp4' }) }));
      const statuses = new Set<number>();
      for (let i = 0; i < 250; i++) statuses.add((await sign('dana', i)).status);
      assert.deepEqual([...statuses], [502], 'every one passed the limits and went upstream (a closed port)');
      const flood = await sign('dana', 250);
      assert.equal(flood.status, 429);
      assert.ok(Number(flood.headers.get('retry-after')) > 0);
      assert.equal(((await flood.json()) as any).error.code, 'rate_limited');
      for (let i = 0; i < 20; i++) assert.equal((await sign('dana', 251 + i)).status, 429, 'a flood stays stopped');
      const read = await relay(req('/playlists/p1', { headers: { 'X-Svc-Request': '1', 'X-User': 'dana' } }));
      assert.equal(read.status, 502, 'the folder left reads to spare (went upstream)');
      assert.equal((await sign('erik', 0)).status, 502, 'another user is not limited');
    } finally {
      await relay.close();
    }
  });
});

describe('findings 6 and 8: callbacks are checked by token first, and tokens expire', () => {
  it('answers a forged token 404 without reading the body', async () => {
    const relay = createRelay({ ...base, database: ':memory:', auth: 'dev', bodyTimeoutMs: 30_000 });
    try {
      // A body that never ends: reading it would hold the answer for bodyTimeoutMs, then 400.
      const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
      const forged = await relay(
        req(`/callbacks/upload/${randomBytes(32).toString('base64url')}`, {
          method: 'POST',
          headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
          body: endless,
          duplex: 'half',
        } as RequestInit),
      );
      assert.equal(forged.status, 404);
      assert.equal(forged.headers.get('connection'), 'close');
      // Nor is a wrong content type or an oversized body looked at before the token.
      const big = await relay(req(`/callbacks/upload/${'A'.repeat(43)}`, { method: 'POST', body: 'x'.repeat(200_000), headers: { 'Content-Type': 'text/plain' } }));
      assert.equal(big.status, 404);
    } finally {
      await relay.close();
    }
  });

  it('counts forged callbacks against the sender address (429 with Retry-After)', async () => {
    const server = await startRelay({ ...base, database: ':memory:', auth: 'dev', rateLimits: { public: { limit: 3, windowMs: 60_000 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${server.url}/callbacks/upload/${randomBytes(32).toString('base64url')}`, { method: 'POST', body: multipart({ file_id: '1', title: 't' }) });
        await response.body?.cancel();
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [404, 404, 404, 429]);
    } finally {
      await server.close();
    }
  });

  it('refuses a callback after SVC_CALLBACK_TTL_S; the upload still processing becomes failed, with an event', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({ ...base, auth: 'dev', store, callbackTtlS: 0.4 });
    try {
      const token = randomBytes(32).toString('base64url');
      await store.createUpload({ id: 'slow', owner: 'dev', source: 's.mp4', tokenHash: hashToken(token) });
      await relay(req('/uploads/slow/uploaded', { method: 'POST', headers: JSON_H, body: '{}' }));
      const events = await relay(req('/events', { headers: { 'X-Svc-Request': '1' } }));
      const failedEvent = readUntil(events.body!, (text) => text.includes('"state":"failed"'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const late = await relay(req(`/callbacks/upload/${token}`, { method: 'POST', body: multipart({ file_id: '42', title: 'late' }) }));
      assert.equal(late.status, 404);
      const state = (await (await relay(req('/uploads/slow', { headers: { 'X-Svc-Request': '1' } }))).json()) as any;
      assert.equal(state.state, 'failed');
      assert.match((await failedEvent).text, /event: upload\ndata: \{"upload_id":"slow","source":"s.mp4","state":"failed"\}/);
      await events.body!.cancel();
      assert.equal(((await (await relay(req('/library', { headers: { 'X-Svc-Request': '1' } }))).json()) as any).items.length, 0);
    } finally {
      await relay.close();
    }
  });

  it('keeps tokens 7 days by default (SVC_CALLBACK_TTL_S)', () => {
    assert.equal(resolveConfig({ ...base, auth: 'dev' }).callbackTtlS, 7 * 86_400);
    const env = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
    assert.equal(configFromEnv({ ...env, SVC_CALLBACK_TTL_S: '3600' }).config!.options.callbackTtlS, 3600);
  });
});

describe('finding 7: one title rule, ownership by id', () => {
  it('refuses control characters in callback titles as in API titles', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({ ...base, auth: 'dev', store });
    try {
      const token = randomBytes(32).toString('base64url');
      await store.createUpload({ id: 'ctl', owner: 'dev', source: 'c.mp4', tokenHash: hashToken(token) });
      for (const title of ['bell\u0007', 'line\nbreak', 'nul\u0000', ' ', 'x'.repeat(256)]) {
        const callback = await relay(req(`/callbacks/upload/${token}`, { method: 'POST', body: multipart({ file_id: '7', title }) }));
        assert.equal(callback.status, 400, JSON.stringify(title));
        assert.ok(((await callback.json()) as any).error.fields.title);
        const api = await relay(req('/playlists', { method: 'POST', headers: JSON_H, body: JSON.stringify({ title, description: '' }) }));
        assert.equal(api.status, 400, JSON.stringify(title));
      }
      const ok = await relay(req(`/callbacks/upload/${token}`, { method: 'POST', body: multipart({ file_id: '7', title: 'Holiday' }) }));
      assert.equal(ok.status, 200);
    } finally {
      await relay.close();
    }
  });

  it('refuses another user\'s item whatever type the caller claims for it, before going upstream', async () => {
    const store = new SqliteStore(':memory:');
    const relay = createRelay({ ...base, store, auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }) });
    try {
      await store.addContent({ type: 'vod', id: 'v-alice', owner: 'alice', title: 'a' });
      await store.addContent({ type: 'channel', id: 'c-alice', owner: 'alice', title: 'c' });
      await store.addContent({ type: 'playlist', id: 'p-bob', owner: 'bob', title: 'p' });
      for (const items of [[{ id: 'v-alice', type: 'channel' }], [{ id: 'c-alice', type: 'vod' }], [{ id: 'v-alice', type: 'vod' }]]) {
        const response = await relay(req('/playlists/p-bob/content', { method: 'PUT', headers: { ...JSON_H, 'X-User': 'bob' }, body: JSON.stringify({ items }) }));
        assert.equal(response.status, 403, JSON.stringify(items));
      }
      // Unknown ids still go upstream (a closed port here: 502), since the service may know them.
      const unknown = await relay(req('/playlists/p-bob/content', { method: 'PUT', headers: { ...JSON_H, 'X-User': 'bob' }, body: '{"items":[{"id":"v-x","type":"vod"}]}' }));
      assert.equal(unknown.status, 502);
    } finally {
      await relay.close();
    }
  });
});

describe('finding 4: configuration messages never echo a value', () => {
  it('names the variable and the expected form only', () => {
    const key = 'sk_live_' + randomBytes(12).toString('hex');
    const env: Record<string, string> = {
      SVC_API_KEY: key,
      SVC_BASE_URL: key,
      SVC_UPLOAD_URL: key,
      SVC_PLAYER_URL: key,
      SVC_PUBLIC_URL: key,
      SVC_RELAY_HOST: key,
      SVC_RELAY_PORT: key,
      SVC_RELAY_BASE_PATH: key,
      SVC_AUTH: key,
      SVC_ALLOWED_ORIGINS: key,
      SVC_MAX_UPLOAD_BYTES: key,
      SVC_MAX_STREAMS_PER_USER: key,
      SVC_RATE_LIMIT_READ: key,
      SVC_AUTH_MAX_TTL_S: key,
      SVC_CALLBACK_TTL_S: key,
      SVC_PLAYLIST_UPDATE: key,
      SVC_PLAYLIST_UPDATE_ENVELOPE: key,
      SVC_UPSTREAM_TIMEOUT_MS: key,
      SVC_TRUST_PROXY: key,
    };
    const { problems } = configFromEnv(env);
    assert.ok(problems.length >= 15, problems.join('\n'));
    const text = problems.join('\n');
    for (const form of [key, key.slice(0, 12), key.toUpperCase()]) assert.ok(!text.includes(form), text);
    for (const name of ['SVC_BASE_URL', 'SVC_RELAY_PORT', 'SVC_AUTH must', 'SVC_ALLOWED_ORIGINS', 'SVC_MAX_STREAMS_PER_USER']) assert.ok(text.includes(name), name);
    assert.throws(
      () => resolveConfig({ ...base, auth: 'dev', baseUrl: key, basePath: key }),
      (error: Error) => !error.message.includes(key) && /baseUrl/.test(error.message),
    );
  });
});

describe('finding 4: the log scrubs secrets in every form', () => {
  it('keeps each secret out of log lines whatever its form', () => {
    const key = 'Lk_' + randomBytes(16).toString('hex') + '+/=';
    const token = randomBytes(32).toString('base64url');
    const logs = logCapture();
    const log = createLogger(logs.sink, [key, JWT_SECRET]);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const b64url = (text: string) => Buffer.from(text).toString('base64url');
    for (const secret of [key, JWT_SECRET]) {
      const forms = [
        secret,
        secret.toUpperCase(),
        secret.toLowerCase(),
        b64(secret),
        b64url(secret),
        b64(`x-api-key: ${secret}`), // inside a longer encoded text, at each alignment
        b64url(`a${secret}`),
        b64(`ab${secret}`),
        encodeURIComponent(secret),
        encodeURIComponent(secret).toLowerCase(),
        secret.slice(0, 16),
        secret.slice(0, -3),
      ];
      for (const form of forms) {
        logs.lines.length = 0;
        log.warn('echo', { message: `upstream said ${form} here`, url: `http://x/?k=${form}` });
        const line = logs.lines[0]!;
        const core = form.length > 24 ? form.slice(4, -4) : form;
        assert.ok(!line.toLowerCase().includes(core.toLowerCase()), `${form} -> ${line}`);
        assert.ok(line.includes('[redacted]'));
      }
    }
    log.info('cb', { url: `http://relay/svc/callbacks/upload/${token}`, encoded: encodeURIComponent(`/svc/callbacks/upload/${token}`) });
    assert.ok(!logs.lines.at(-1)!.includes(token.slice(0, 12)));
    log.info('channel', { channel: { config: { login: 'enc-user', password: 'enc-pass-1', stream_name: 'sk-1' } } });
    assert.ok(!/enc-user|enc-pass-1|sk-1/.test(logs.lines.at(-1)!), 'channel credentials are masked');
  });
});
