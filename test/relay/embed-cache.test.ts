// A cached embed code is answered before routing (routes/public.ts `cachedEmbed`): which requests
// it takes (and which it leaves to the routes), then over real HTTP, with a stand-in service that
// counts the embed requests it gets, that the answer, the rate limit, CORS and the request log are
// those of the route itself.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { TtlCache } from '../../src/relay/cache.js';
import { resolveConfig } from '../../src/relay/config.js';
import type { CachedAnswers } from '../../src/relay/cached-answer.js';
import { toResponse } from '../../src/relay/cached-answer.js';
import type { Deps } from '../../src/relay/deps.js';
import type { AppEnv } from '../../src/relay/request.js';
import { RateLimiter } from '../../src/relay/rate-limit.js';
import { cachedAnswers, registerPublic } from '../../src/relay/routes/public.js';
import { logCapture, offlineOptions, startRelay, type RelayServer } from './helpers.js';

const CODE = '&lt;script src=&quot;https://player.test/p.js&quot;&gt;&lt;/script&gt;';
const ALLOWED = 'https://cms.test';
/** A code whose answer is above 1 KB (a playlist's iframe with a long, escaped title). */
const BIG_CODE = `&lt;iframe src=&quot;https://player.test/p/big&quot; title=&quot;${'&amp;&lt;&gt;&quot;'.repeat(60)}&quot;&gt;&lt;/iframe&gt;`;

describe('cachedEmbed (before routing)', () => {
  const JSON_BODY = JSON.stringify({ code: CODE });
  const ETAG = '"etag-of-v1"';
  const setup = (limit = 100) => {
    const config = resolveConfig({ ...offlineOptions('unit-key-' + randomBytes(8).toString('hex')), auth: 'dev', database: ':memory:' });
    const embedCache = new TtlCache<CachedAnswers>(10, 60_000);
    embedCache.set('vod/v1/javascript', cachedAnswers(JSON_BODY, ETAG, 'public, max-age=300'));
    embedCache.set('vod/big/javascript', cachedAnswers(JSON.stringify({ code: BIG_CODE }), ETAG, 'public, max-age=300'));
    const deps = { config, embedCache, publicLimiter: new RateLimiter({ limit, windowMs: 60_000 }) } as unknown as Deps;
    const { cachedEmbed } = registerPublic(new Hono<AppEnv>().basePath(config.basePath), deps, () => '192.0.2.1');
    return (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => {
      const headers = new Headers(init.headers);
      return cachedEmbed(init.method ?? 'GET', path, (name) => headers.get(name) ?? undefined, () => '192.0.2.1');
    };
  };

  it('answers a GET of a cached key as the route does, and 304 for its ETag', async () => {
    const hit = setup()('/svc/embed/vod/v1/javascript');
    assert.ok(hit);
    const answer = toResponse(hit);
    assert.equal(answer.status, 200);
    assert.equal(await answer.text(), JSON_BODY);
    assert.equal(answer.headers.get('etag'), ETAG);
    assert.equal(answer.headers.get('vary'), 'Origin');
    assert.equal(answer.headers.get('content-type'), 'application/json');
    assert.match(answer.headers.get('cache-control')!, /^public, max-age=\d+$/);
    assert.equal(setup()('/svc/embed/vod/v1/javascript', { headers: { 'If-None-Match': ETAG } })?.status, 304);
  });

  it('answers every hit with the answer made when the code was cached, not a new one', () => {
    const take = setup();
    assert.equal(take('/svc/embed/vod/v1/javascript'), take('/svc/embed/vod/v1/javascript'));
    const revalidate = { headers: { 'If-None-Match': ETAG } };
    assert.equal(take('/svc/embed/vod/v1/javascript', revalidate), take('/svc/embed/vod/v1/javascript', revalidate));
  });

  it('leaves every other request to the routes', () => {
    const take = setup();
    const cases: [string, { method?: string; headers?: Record<string, string> }][] = [
      ['/svc/embed/vod/v1/javascript', { method: 'POST' }],
      ['/svc/embed/vod/v1/javascript', { method: 'HEAD' }],
      ['/svc/embed/vod/v1/javascript', { headers: { Origin: 'https://cms.test' } }],
      ['/svc/embed/vod/v1/javascript/', {}],
      ['/svc/embed/vod/v2/javascript', {}],
      ['/svc/embed/vod/v1/iframe', {}],
      ['/other/embed/vod/v1/javascript', {}],
      // 1 KB or more: compressed after routing (compress-json.ts).
      ['/svc/embed/vod/big/javascript', {}],
    ];
    for (const [path, init] of cases) assert.equal(take(path, init), undefined, `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`);
  });

  it('leaves a request over the address limit to the route (which answers 429)', () => {
    const take = setup(2);
    assert.ok(take('/svc/embed/vod/v1/javascript'));
    assert.ok(take('/svc/embed/vod/v1/javascript'));
    assert.equal(take('/svc/embed/vod/v1/javascript'), undefined);
  });
});

describe('cached embed codes over HTTP', () => {
  const logs = logCapture();
  let service: Server;
  let serviceUrl = '';
  let upstreamCalls = 0;
  let relay: RelayServer;
  before(async () => {
    service = createServer((request, response) => {
      if (request.method === 'GET' && /^\/v2\/vod\/[\w-]+\/embed\/javascript$/.test(request.url ?? '')) {
        upstreamCalls++;
        const code = request.url!.includes('/big/') ? BIG_CODE : CODE;
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code }));
      } else response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const address = service.address();
    serviceUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    relay = await startRelay((origin) => ({
      ...offlineOptions('cache-key-' + randomBytes(8).toString('hex')),
      baseUrl: serviceUrl,
      publicUrl: origin,
      auth: 'dev',
      database: ':memory:',
      allowedOrigins: [ALLOWED],
      trustProxy: true, // each test is its own client address (X-Forwarded-For)
      rateLimits: { public: { limit: 4, windowMs: 60_000 } },
      logger: logs.sink,
    }));
  });
  after(async () => {
    await relay.close();
    await new Promise((resolve) => service.close(resolve));
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${relay.url}${path}`, { headers });
  const pick = (response: Response, names: string[]) => Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
  const HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'access-control-allow-origin', 'access-control-allow-credentials'];

  it('answers a hit as the route answered the miss, without asking the service again', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.1' };
    const calls = upstreamCalls;
    const miss = await get('/embed/vod/v1/javascript', client);
    const hit = await get('/embed/vod/v1/javascript', client);
    assert.equal(upstreamCalls, calls + 1);
    assert.equal(hit.status, 200);
    assert.deepEqual(await hit.json(), { code: CODE });
    assert.deepEqual(await miss.json(), { code: CODE });
    assert.deepEqual(pick(hit, HEADERS), pick(miss, HEADERS));
    assert.equal(hit.headers.get('vary'), 'Origin');
    const notModified = await get('/embed/vod/v1/javascript', { ...client, 'If-None-Match': hit.headers.get('etag')! });
    assert.equal(notModified.status, 304);
    // A cache merges a 304's headers into its copy: the type stays JSON's (not a default text/plain).
    assert.equal(notModified.headers.get('content-type'), 'application/json');
    assert.equal(upstreamCalls, calls + 1);
  });

  it('compresses a hit of 1 KB or more as it did the miss (same-origin: no Origin header)', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.9', 'Accept-Encoding': 'br, gzip' };
    const answers = [await get('/embed/vod/big/javascript', client), await get('/embed/vod/big/javascript', client)];
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-encoding'), 'br', `answer ${i}`);
      assert.equal(answer.headers.get('vary'), 'Origin, Accept-Encoding');
      assert.match(answer.headers.get('etag')!, /^W\//);
      assert.deepEqual(await answer.json(), { code: BIG_CODE }); // fetch decodes it
    }
  });

  it('gives a cross-origin hit the CORS answer of an allowed origin only', async () => {
    const calls = upstreamCalls;
    await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2' });
    const allowed = await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2', Origin: ALLOWED });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED);
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    const other = await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2', Origin: 'https://evil.test' });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    // The shared answer of the hits without Origin is unchanged by the cross-origin ones.
    const sameOrigin = await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2' });
    assert.equal(sameOrigin.headers.get('vary'), 'Origin');
    assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null);
    assert.equal(upstreamCalls, calls + 1);
  });

  it('counts hits against the per-address limit: 429 with Retry-After past it', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.3' };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/embed/vod/v3/javascript', client)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    const refused = await get('/embed/vod/v3/javascript', client);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'rate_limited');
    // Another address is not limited by this one.
    assert.equal((await get('/embed/vod/v3/javascript', { 'X-Forwarded-For': '198.51.100.4' })).status, 200);
  });

  it('answers other methods and paths of a cached key as the routes do', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.5' };
    assert.equal((await get('/embed/vod/v5/javascript', client)).status, 200);
    assert.equal((await fetch(`${relay.url}/embed/vod/v5/javascript`, { method: 'POST', headers: client })).status, 404);
    assert.equal((await get('/embed/vod/v5/javascript/', client)).status, 404);
    assert.equal((await get('/embed/movie/v5/javascript', client)).status, 400);
  });

  it('answers a hit without a promise, and a miss with one', async () => {
    // @hono/node-server writes a Response it gets at once in the same turn; a promise takes its slower path.
    const request = (id: string) => new Request(`${relay.url}/embed/vod/${id}/javascript`, { headers: { 'X-Forwarded-For': '198.51.100.7' } });
    const miss = relay.relay.fetch(request('v7'));
    assert.ok(miss instanceof Promise);
    assert.equal((await miss).status, 200);
    const hit = relay.relay.fetch(request('v7'));
    assert.ok(hit instanceof Response, 'a cached embed code is answered without a promise');
    assert.deepEqual(await hit.json(), { code: CODE });
  });

  it('writes a hit from Node\'s request without calling fetch; a miss, a cross-origin hit and a HEAD go through it', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.8' };
    const fetchHandler = relay.relay.fetch;
    let calls = 0;
    relay.relay.fetch = (request, env) => {
      calls++;
      return fetchHandler(request, env);
    };
    try {
      const miss = await get('/embed/vod/v8/javascript', client);
      assert.equal(calls, 1);
      const hit = await get('/embed/vod/v8/javascript', client);
      assert.equal(calls, 1, 'the hit was written from Node\'s request');
      assert.deepEqual(pick(hit, HEADERS), pick(miss, HEADERS));
      assert.equal(hit.headers.get('content-length'), String(Buffer.byteLength(JSON.stringify({ code: CODE }))));
      assert.deepEqual(await hit.json(), await miss.json());
      const notModified = await get('/embed/vod/v8/javascript', { ...client, 'If-None-Match': hit.headers.get('etag')! });
      assert.equal(notModified.status, 304);
      assert.equal(await notModified.text(), '');
      assert.equal(calls, 1);
      const other = { 'X-Forwarded-For': '198.51.100.9' }; // 4 requests an address here
      assert.equal((await get('/embed/vod/v8/javascript', { ...other, Origin: ALLOWED })).headers.get('access-control-allow-origin'), ALLOWED);
      assert.equal(calls, 2);
      assert.equal((await fetch(`${relay.url}/embed/vod/v8/javascript`, { method: 'HEAD', headers: other })).status, 200);
      assert.equal(calls, 3);
    } finally {
      relay.relay.fetch = fetchHandler;
    }
  });

  it('leaves a request without Host, or with a Host that is no plain name, to the adapter: HTTP/1.0 works, a bad Host is refused', async () => {
    const path = '/svc/embed/vod/v10/javascript';
    assert.equal((await get('/embed/vod/v10/javascript', { 'X-Forwarded-For': '198.51.100.10' })).status, 200); // now cached
    const origin = new URL(relay.origin);
    const raw = (lines: string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(origin.port), origin.hostname, () => socket.end([...lines, '', ''].join('\r\n')));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const http10 = await raw([`GET ${path} HTTP/1.0`, 'X-Forwarded-For: 198.51.100.11']);
    assert.match(http10, /^HTTP\/1\.1 200 /);
    assert.ok(http10.endsWith(JSON.stringify({ code: CODE })), http10);
    assert.match(await raw(['GET /svc/config HTTP/1.0']), /^HTTP\/1\.1 200 /);
    for (const host of ['a b', 'x/y', '[bad']) {
      assert.match(await raw([`GET ${path} HTTP/1.1`, `Host: ${host}`, 'X-Forwarded-For: 198.51.100.12', 'Connection: close']), /^HTTP\/1\.1 400 /, host);
    }
  });

  it('answers a hit through serve({ fetch: relay.fetch }) as through the request listener', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.13' };
    const server = serve({ fetch: relay.relay.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    const adapted = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/svc`;
    try {
      const listened = await get('/embed/vod/v13/javascript', client);
      const served = await fetch(`${adapted}/embed/vod/v13/javascript`, { headers: client });
      assert.equal(served.status, 200);
      assert.deepEqual(pick(served, [...HEADERS, 'content-length']), pick(listened, [...HEADERS, 'content-length']));
      assert.deepEqual(await served.json(), await listened.json());
      // Both count against the one per-address limit (4 here).
      await get('/embed/vod/v13/javascript', client);
      await fetch(`${adapted}/embed/vod/v13/javascript`, { headers: client });
      assert.equal((await fetch(`${adapted}/embed/vod/v13/javascript`, { headers: client })).status, 429);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('logs every hit as a request line', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.6' };
    for (let i = 0; i < 3; i++) await (await get('/embed/vod/v6/javascript', client)).text();
    const lines = logs.lines.map((line) => JSON.parse(line) as { event: string; path?: string; status?: number });
    const hits = lines.filter((line) => line.event === 'request' && line.path === '/svc/embed/vod/v6/javascript');
    assert.deepEqual(hits.map((line) => line.status), [200, 200, 200]);
  });
});

describe('cached embed codes while the relay closes', () => {
  it('answers 503 on the Node request listener, as for every other request', async () => {
    const service = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: CODE })));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const address = service.address();
    const relay = await startRelay({
      ...offlineOptions('close-key-' + randomBytes(8).toString('hex')),
      baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      auth: 'dev',
      database: ':memory:',
      logger: () => {},
    });
    try {
      assert.equal((await fetch(`${relay.url}/embed/vod/v9/javascript`)).status, 200);
      assert.equal((await fetch(`${relay.url}/embed/vod/v9/javascript`)).status, 200); // a hit
      await relay.relay.close();
      const refused = await fetch(`${relay.url}/embed/vod/v9/javascript`);
      assert.equal(refused.status, 503);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'upstream_unavailable');
    } finally {
      await relay.close();
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
