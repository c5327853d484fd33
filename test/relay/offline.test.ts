// Relay behaviour that needs no upstream: validation before any upstream call, identity, CSRF,
// CORS, callbacks (through the store), config (the script-tag build: elements-build.test.ts). The upstream base URL
// points at a closed port, so any call that did go upstream would fail with 502.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRelay, type Relay } from '../../src/relay/app.js';
import { openStore } from '../../src/relay/store/open.js';
import type { Store } from '../../src/relay/store/store.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { JWT_SECRET, describeStores, logCapture, offlineOptions, relayRequest, signToken } from './helpers.js';

const API_KEY = 'offline-key-' + randomBytes(8).toString('hex');
const base = { ...offlineOptions(API_KEY), database: ':memory:' };
const H = { 'Content-Type': 'application/json', 'X-Svc-Request': '1' };
const req = relayRequest;

describeStores('relay without upstream', (kind) => {
  const logs = logCapture();
  let store: Store;
  let relay: Relay;
  before(async () => {
    store = openStore(await kind.database());
    relay = createRelay({ ...base, auth: 'dev', store, logger: logs.sink, maxUploadBytes: 1000, retries: 0, timeoutMs: 500 });
  });
  after(() => relay.close());

  it('serves /config with the public settings', async () => {
    const response = await relay(req('/config'));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      upload_url: 'http://127.0.0.1:10/upload',
      player_origin: 'http://127.0.0.1:11',
      iframe_origins: ['http://127.0.0.1:11'],
      max_upload_bytes: 1000,
      regions: ['north_america', 'asia_pacific', 'europe'],
      rendition_count: { min: 1, max: 5 },
    });
    const etag = response.headers.get('etag')!;
    const again = await relay(req('/config', { headers: { 'If-None-Match': etag } }));
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('content-type'), 'application/json');
    assert.equal((await relay(req('/config', { headers: { 'If-None-Match': '*' } }))).status, 304);
  });

  it('refuses bad upload requests before going upstream', async () => {
    const cases: [unknown, number, string][] = [
      [{ size: 10 }, 400, 'validation_failed'],
      [{ source: '' }, 400, 'validation_failed'],
      [{ source: 'a.mp4', size: 1001 }, 413, 'payload_too_large'],
      [{ source: 'a.mp4', size: 1.5 }, 400, 'validation_failed'],
      [{ source: 'a.mp4' }, 400, 'validation_failed'], // size is required
      [{ source: 'a.mp4', size: -1 }, 400, 'validation_failed'],
      [{ source: 'a.mp4', size: 10, type: 'text/html' }, 415, 'unsupported_media_type'],
      [{ source: 'a\u0000.mp4', size: 10 }, 400, 'validation_failed'],
    ];
    for (const [body, status, code] of cases) {
      const response = await relay(req('/uploads', { method: 'POST', headers: H, body: JSON.stringify(body) }));
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(((await response.json()) as any).error.code, code);
    }
    const notJson = await relay(req('/uploads', { method: 'POST', headers: H, body: '{oops' }));
    assert.equal(notJson.status, 400);
    const wrongType = await relay(req('/uploads', { method: 'POST', headers: { ...H, 'Content-Type': 'text/plain' }, body: '{}' }));
    assert.equal(wrongType.status, 415);
    const huge = await relay(req('/uploads', { method: 'POST', headers: H, body: JSON.stringify({ source: 'x'.repeat(100_000) }) }));
    assert.equal(huge.status, 413);
  });

  it('maps an unreachable service to 502 without leaking the key', async () => {
    const response = await relay(req('/uploads', { method: 'POST', headers: H, body: JSON.stringify({ source: 'a.mp4', size: 10 }) }));
    assert.equal(response.status, 502);
    const text = await response.text();
    assert.equal(JSON.parse(text).error.code, 'upstream_unavailable');
    assert.ok(!text.includes(API_KEY));
  });

  it('validates channel and playlist input with field messages', async () => {
    const bad = [
      { title: 'x', description: '', region: 'mars', rendition_count: 1 },
      { title: 'x', description: '', region: 'europe', rendition_count: 0 },
      { title: 'x', description: '', region: 'europe', rendition_count: 6 },
      { title: 'x', description: '', region: 'europe', rendition_count: 2.5 },
      { title: 'x', description: '', region: 'europe', rendition_count: '3' },
      { title: '', description: '', region: 'europe', rendition_count: 3 },
      { title: 'x'.repeat(256), description: '', region: 'europe', rendition_count: 3 },
    ];
    for (const body of bad) {
      const response = await relay(req('/channels', { method: 'POST', headers: H, body: JSON.stringify(body) }));
      assert.equal(response.status, 400, JSON.stringify(body));
      const error = ((await response.json()) as any).error;
      assert.equal(error.code, 'validation_failed');
      assert.ok(Object.keys(error.fields).length >= 1);
    }
    const response = await relay(req('/playlists', { method: 'POST', headers: H, body: JSON.stringify({ description: 'no title' }) }));
    assert.equal(response.status, 400);
    assert.ok(((await response.json()) as any).error.fields.title);
  });

  it('rejects path ids with dots, slashes, percent tricks or too many characters', async () => {
    for (const id of ['..%2f..%2fetc', 'a%2fb', '%2e%2e%2fx', 'a.b', '...', 'x'.repeat(129), 'a%00b', 'a%20b']) {
      for (const path of [`/uploads/${id}`, `/playlists/${id}`, `/embed/vod/${id}/javascript`]) {
        const response = await relay(req(path, { headers: H }));
        assert.equal(response.status, 400, path);
        assert.equal(((await response.json()) as any).error.code, 'validation_failed');
      }
    }
    const kind = await relay(req('/embed/movie/abc/javascript'));
    assert.equal(kind.status, 400);
    assert.ok(((await kind.json()) as any).error.fields.kind);
    const variant = await relay(req('/embed/vod/abc/html'));
    assert.equal(variant.status, 400);
  });

  it('answers unknown uploads and playlists with 404 and unknown routes with a JSON 404', async () => {
    assert.equal((await relay(req('/uploads/up_unknown', { headers: H }))).status, 404);
    assert.equal((await relay(req('/playlists/p1', { headers: H }))).status, 404);
    const response = await relay(req('/nothing-here', { headers: H }));
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as any).error.code, 'not_found');
  });

  it('serves plain HTTP clients under dev identity, and refuses changes a cross-site form could send', async () => {
    assert.equal((await relay(req('/library'))).status, 200);
    const form = await relay(req('/playlists', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"title":"x","description":""}' }));
    assert.equal(form.status, 415);
    const urlencoded = await relay(req('/channels', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=x' }));
    assert.equal(urlencoded.status, 415);
  });

  describe('callbacks', () => {
    const token = randomBytes(32).toString('base64url');
    before(async () => {
      await store.createUpload({ id: 'up_cb1', owner: 'dev', source: 'clip.mp4', tokenHash: hashToken(token) });
    });
    const post = (t: string, body: BodyInit, headers?: Record<string, string>) =>
      relay(req(`/callbacks/upload/${t}`, { method: 'POST', body, headers }));
    const form = (parts: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(parts)) f.append(k, v);
      return f;
    };

    it('refuses a wrong content type (415), malformed bodies (400) and oversized ones (413)', async () => {
      assert.equal((await post(token, 'file_id=v1&title=x', { 'Content-Type': 'application/x-www-form-urlencoded' })).status, 415);
      assert.equal((await post(token, '{}', { 'Content-Type': 'application/json' })).status, 415);
      assert.equal((await post(token, 'garbage', { 'Content-Type': 'multipart/form-data; boundary=zzz' })).status, 400);
      assert.equal((await post(token, 'x', { 'Content-Type': 'multipart/form-data; charset=utf-8' })).status, 400);
      const truncated = '--b\r\nContent-Disposition: form-data; name="file_id"\r\n\r\nv1';
      assert.equal((await post(token, truncated, { 'Content-Type': 'multipart/form-data; boundary=b' })).status, 400);
      const missing = await post(token, form({ file_id: 'v1' }));
      assert.equal(missing.status, 400);
      assert.ok(((await missing.json()) as any).error.fields.title);
      assert.equal((await post(token, form({ file_id: '../v1', title: 't' }))).status, 400);
      assert.equal((await post(token, form({ file_id: 'v1', title: 'x'.repeat(70_000) }))).status, 413);
      const withFile = new FormData();
      withFile.append('file_id', 'v1');
      withFile.append('title', 't');
      withFile.append('file', new Blob(['data']), 'a.bin');
      assert.equal((await post(token, withFile)).status, 400);
      assert.equal((await store.getUpload('up_cb1'))!.state, 'signed');
    });

    it('refuses forged tokens with 404', async () => {
      assert.equal((await post(randomBytes(32).toString('base64url'), form({ file_id: 'v1', title: 't' }))).status, 404);
      assert.equal((await post('short', form({ file_id: 'v1', title: 't' }))).status, 404);
      assert.equal((await store.getUpload('up_cb1'))!.state, 'signed');
    });

    it('stores the VOD once: repeat is 200 without change, another file_id is 409', async () => {
      const first = await post(token, form({ file_id: 'v1', title: 'First' }));
      assert.equal(first.status, 200);
      const upload = await store.getUpload('up_cb1');
      assert.equal(upload!.state, 'ready');
      assert.equal(upload!.vodId, 'v1');
      assert.equal((await store.getContent('vod', 'v1'))!.owner, 'dev');
      const events = await store.eventsAfter('dev', 0);
      const again = await post(token, form({ file_id: 'v1', title: 'Changed title' }));
      assert.equal(again.status, 200);
      assert.equal((await store.getUpload('up_cb1'))!.vodTitle, 'First');
      assert.equal((await store.eventsAfter('dev', 0)).length, events.length);
      const other = await post(token, form({ file_id: 'v2', title: 'Other' }));
      assert.equal(other.status, 409);
      assert.equal((await store.getUpload('up_cb1'))!.vodId, 'v1');
      assert.equal(await store.getContent('vod', 'v2'), undefined);
    });

    it('keeps the state ready when /uploaded arrives after the callback', async () => {
      const response = await relay(req('/uploads/up_cb1/uploaded', { method: 'POST', headers: H, body: '{}' }));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { upload_id: 'up_cb1', source: 'clip.mp4', state: 'ready', vod: { id: 'v1', title: 'First' } });
    });

    it('lists the ready VOD in the library', async () => {
      const response = await relay(req('/library', { headers: H }));
      const body = (await response.json()) as any;
      assert.equal(body.items[0].id, 'v1');
      assert.equal(body.items[0].type, 'vod');
      assert.equal(body.items[0].title, 'First');
      assert.match(body.items[0].created_at, /^\d{4}-\d\d-\d\dT/);
    });

    it('never logs the token or the key', () => {
      const text = logs.lines.join('\n');
      assert.ok(logs.lines.length > 0);
      assert.ok(!text.includes(token));
      assert.ok(!text.includes(API_KEY));
    });
  });
});

describe('jwt identity, CSRF and CORS', () => {
  const relay = createRelay({ ...base, auth: 'jwt', jwtSecret: JWT_SECRET, allowedOrigins: ['https://cms.example'], logger: () => {} });
  after(() => relay.close());

  it('needs an identity on every route but the public ones and the callback', async () => {
    // [method, path]: the routes registered after the identity check, then the ones before it.
    const priv: [string, string][] = [
      ['POST', '/uploads'], ['GET', '/uploads/u1'], ['POST', '/uploads/u1/uploaded'], ['GET', '/events'],
      ['POST', '/playlists'], ['GET', '/playlists/p1'], ['PUT', '/playlists/p1/content'], ['POST', '/channels'], ['GET', '/library'],
    ];
    for (const [method, path] of priv) assert.equal((await relay(req(path, { method }))).status, 401, `${method} ${path}`);
    assert.equal((await relay(req('/config'))).status, 200);
    assert.equal((await relay(req('/healthz'))).status, 200);
    assert.notEqual((await relay(req('/elements.js'))).status, 401);
    // The service's callback carries no identity: an unknown token is 404, not 401.
    assert.equal((await relay(req(`/callbacks/upload/${'a'.repeat(43)}`, { method: 'POST' }))).status, 404);
    // An embed reaches the (unreachable) service rather than the identity check.
    assert.notEqual((await relay(req('/embed/vod/v1/javascript'))).status, 401);
  });

  it('answers 401 without a valid token', async () => {
    assert.equal((await relay(req('/library'))).status, 401);
    const wrong = await signToken('alice', 'another-secret-0123456789-0123456789-xx');
    assert.equal((await relay(req('/library', { headers: { Authorization: `Bearer ${wrong}` } }))).status, 401);
    const expired = await signToken('alice', JWT_SECRET, '-1m');
    assert.equal((await relay(req('/library', { headers: { Authorization: `Bearer ${expired}` } }))).status, 401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"alice"}').toString('base64url')}.`;
    assert.equal((await relay(req('/library', { headers: { Authorization: `Bearer ${unsigned}` } }))).status, 401);
    const body = (await (await relay(req('/library'))).json()) as any;
    assert.equal(body.error.code, 'unauthorized');
  });

  it('accepts a bearer token without the CSRF header', async () => {
    const token = await signToken('alice');
    assert.equal((await relay(req('/library', { headers: { Authorization: `Bearer ${token}` } }))).status, 200);
  });

  it('requires X-Svc-Request and an allowed Origin with the cookie', async () => {
    const cookie = `svc_token=${await signToken('alice')}`;
    const create = (headers: Record<string, string>) =>
      relay(req('/playlists', { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers }, body: '{"title":""}' }));
    assert.equal((await create({ Origin: 'https://cms.example' })).status, 403); // no X-Svc-Request
    assert.equal((await create({ 'X-Svc-Request': '1', Origin: 'https://evil.example' })).status, 403);
    assert.equal((await create({ 'X-Svc-Request': '1' })).status, 403); // no Origin on a change
    // Allowed: reaches validation (400 for the empty title), so no upstream call is made.
    assert.equal((await create({ 'X-Svc-Request': '1', Origin: 'https://cms.example' })).status, 400);
    assert.equal((await relay(req('/library', { headers: { Cookie: cookie } }))).status, 403);
    assert.equal((await relay(req('/library', { headers: { Cookie: cookie, 'X-Svc-Request': '1' } }))).status, 200);
  });

  it('answers CORS only for allowed origins', async () => {
    const preflight = (origin: string) =>
      relay(req('/playlists', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-svc-request' } }));
    const ok = await preflight('https://cms.example');
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://cms.example');
    assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
    assert.match(ok.headers.get('access-control-allow-headers')!, /X-Svc-Request/);
    const bad = await preflight('https://evil.example');
    assert.equal(bad.status, 403);
    assert.equal(bad.headers.get('access-control-allow-origin'), null);
    const simple = await relay(req('/config', { headers: { Origin: 'https://evil.example' } }));
    assert.equal(simple.headers.get('access-control-allow-origin'), null);
    const allowed = await relay(req('/config', { headers: { Origin: 'https://cms.example' } }));
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://cms.example');
    assert.equal(allowed.headers.get('vary'), 'Origin');
    // Without an Origin header no CORS headers, but caches still learn that the answer varies by Origin.
    const plain = await relay(req('/config'));
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
    assert.equal(plain.headers.get('vary'), 'Origin');
    assert.match(allowed.headers.get('access-control-expose-headers')!, /Retry-After/);
  });

  it('passes the preflight of every request the elements send, the event stream included', async () => {
    // [method, path, request headers]: what RelayClient, the UploadWatcher and <svc-player> send.
    const requests: [string, string, string][] = [
      ['GET', '/events', 'cache-control,last-event-id,x-svc-request,authorization'],
      ['GET', '/uploads/u1', 'x-svc-request,authorization'],
      ['POST', '/uploads', 'content-type,x-svc-request,authorization'],
      ['POST', '/uploads/u1/uploaded', 'content-type,x-svc-request'],
      ['PUT', '/playlists/p1/content', 'content-type,x-svc-request,authorization'],
      ['GET', '/library', 'x-svc-request,if-none-match'],
    ];
    for (const [method, path, headers] of requests) {
      const answer = await relay(req(path, { method: 'OPTIONS', headers: { Origin: 'https://cms.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers } }));
      assert.equal(answer.status, 204, `${method} ${path}`);
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://cms.example');
      const allowedHeaders = answer.headers.get('access-control-allow-headers')!.toLowerCase().split(/\s*,\s*/);
      for (const header of headers.split(',')) assert.ok(allowedHeaders.includes(header), `${method} ${path}: ${header} allowed`);
      assert.ok(answer.headers.get('access-control-allow-methods')!.includes(method));
    }
  });
});

describe('options', () => {
  it('refuses missing or invalid options with one message per problem and no key', () => {
    assert.throws(
      () => createRelay({ apiKey: 'k-secret-value', baseUrl: 'nope', uploadUrl: '', playerUrl: 'ftp://x', auth: 'jwt' }),
      (error: Error) => {
        assert.match(error.message, /baseUrl/);
        assert.match(error.message, /uploadUrl is required/);
        assert.match(error.message, /playerUrl must be an http/);
        assert.match(error.message, /jwtSecret/);
        assert.ok(!error.message.includes('k-secret-value'));
        return true;
      },
    );
  });
});
