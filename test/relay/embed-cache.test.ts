// A cached embed code is answered before routing (routes/public.ts `cachedEmbed`): the answer, the
// rate limit, CORS and the request log must be those of the route itself. Over real HTTP, with a
// stand-in service that counts the embed requests it gets.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { logCapture, offlineOptions, startRelay, type RelayServer } from './helpers.js';

const CODE = '&lt;script src=&quot;https://player.test/p.js&quot;&gt;&lt;/script&gt;';
const ALLOWED = 'https://cms.test';

describe('cached embed codes', () => {
  const logs = logCapture();
  let service: Server;
  let serviceUrl = '';
  let upstreamCalls = 0;
  let relay: RelayServer;
  before(async () => {
    service = createServer((request, response) => {
      if (request.method === 'GET' && /^\/v2\/vod\/[\w-]+\/embed\/javascript$/.test(request.url ?? '')) {
        upstreamCalls++;
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: CODE }));
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
    const miss = await get('/embed/vod/v1/javascript', client);
    const hit = await get('/embed/vod/v1/javascript', client);
    assert.equal(upstreamCalls, 1);
    assert.equal(hit.status, 200);
    assert.deepEqual(await hit.json(), { code: CODE });
    assert.deepEqual(await miss.json(), { code: CODE });
    assert.deepEqual(pick(hit, HEADERS), pick(miss, HEADERS));
    assert.equal(hit.headers.get('vary'), 'Origin');
    const notModified = await get('/embed/vod/v1/javascript', { ...client, 'If-None-Match': hit.headers.get('etag')! });
    assert.equal(notModified.status, 304);
    assert.equal(upstreamCalls, 1);
  });

  it('gives a cross-origin hit the CORS answer of an allowed origin only', async () => {
    await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2' });
    const allowed = await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2', Origin: ALLOWED });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED);
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    const other = await get('/embed/vod/v2/javascript', { 'X-Forwarded-For': '198.51.100.2', Origin: 'https://evil.test' });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    assert.equal(upstreamCalls, 2);
  });

  it('counts hits against the per-address limit: 429 with Retry-After past it', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.3' };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/embed/vod/v1/javascript', client)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    const refused = await get('/embed/vod/v1/javascript', client);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'rate_limited');
    // Another address is not limited by this one.
    assert.equal((await get('/embed/vod/v1/javascript', { 'X-Forwarded-For': '198.51.100.4' })).status, 200);
  });

  it('leaves every path that is not a cached key to the routes', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.5' };
    assert.equal((await get('/embed/vod/v1/javascript/', client)).status, 404);
    assert.equal((await get('/embed/movie/v1/javascript', client)).status, 400);
    assert.equal((await fetch(`${relay.url}/embed/vod/v1/javascript`, { method: 'HEAD', headers: client })).status, 200);
  });

  it('logs every hit as a request line', () => {
    const lines = logs.lines.map((line) => JSON.parse(line) as { event: string; path?: string; status?: number });
    const hits = lines.filter((line) => line.event === 'request' && line.path === '/svc/embed/vod/v1/javascript');
    assert.ok(hits.filter((line) => line.status === 200).length >= 7, `${hits.length} request lines`);
    assert.ok(hits.some((line) => line.status === 429));
  });
});
