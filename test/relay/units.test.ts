// Table-driven checks of the relay's small parts: cache, rate limiter, environment parsing,
// .env parsing, redaction, the SSE hub (the stores have their own suite: store.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TtlCache } from '../../src/relay/cache.js';
import { RateLimiter } from '../../src/relay/rate-limit.js';
import { DEFAULTS, configFromEnv, parseDotEnv, parsePlaylistUpdate, resolveConfig } from '../../src/relay/config.js';
import { isPostgresUrl } from '../../src/relay/store/open.js';
import { createLogger, redact } from '../../src/relay/log.js';
import { HttpError } from '../../src/relay/http-error.js';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import { EventHub } from '../../src/relay/sse.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { createRelay } from '../../src/relay/app.js';
import { channelCreate, playlistContent, playlistCreate } from '../../src/relay/validate.js';
import { schemas } from '../../src/service/index.js';
import { withDeadline } from '../support/wait.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('TtlCache', () => {
  it('coalesces concurrent misses into one load', async () => {
    const cache = new TtlCache<string>(10, 1000);
    const gate = deferred<string>();
    let loads = 0;
    const load = () => (loads++, gate.promise);
    const all = Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load), cache.getOrLoad('k', load)]);
    gate.resolve('v');
    assert.deepEqual(await all, ['v', 'v', 'v']);
    assert.equal(loads, 1);
    assert.equal(await cache.getOrLoad('k', load), 'v');
    assert.equal(loads, 1);
  });

  it('does not cache a failed load, but shares it with concurrent callers', async () => {
    const cache = new TtlCache<string>(10, 1000);
    const gate = deferred<string>();
    let loads = 0;
    const failing = () => (loads++, gate.promise);
    const a = cache.getOrLoad('k', failing);
    const b = cache.getOrLoad('k', failing);
    gate.reject(new Error('boom'));
    await assert.rejects(a, /boom/);
    await assert.rejects(b, /boom/);
    assert.equal(loads, 1);
    assert.equal(await cache.getOrLoad('k', async () => 'ok'), 'ok');
  });

  it('expires entries after the TTL and evicts the least recently used', async () => {
    let now = 0;
    const cache = new TtlCache<number>(2, 100, () => now);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1); // a is now more recent than b
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    now = 100;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('c'), undefined);
  });
});

describe('RateLimiter', () => {
  it('allows `limit` hits per window and then throws 429 with Retry-After', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 }, () => now);
    limiter.hit('u');
    limiter.hit('u');
    limiter.hit('other');
    now = 2500;
    assert.throws(
      () => limiter.hit('u'),
      (error: unknown) => error instanceof HttpError && error.status === 429 && error.code === 'rate_limited' && error.headers['Retry-After'] === '8',
    );
    now = 10_000;
    limiter.hit('u');
  });
});

describe('configuration from the environment', () => {
  const required = { SVC_API_KEY: 'secret-key-value-123', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c' };
  const cases: [string, Record<string, string>, RegExp | null][] = [
    ['dev on loopback', { ...required, SVC_AUTH: 'dev' }, null],
    ['dev on ::1', { ...required, SVC_AUTH: 'dev', SVC_RELAY_HOST: '::1' }, null],
    ['dev on all interfaces', { ...required, SVC_AUTH: 'dev', SVC_RELAY_HOST: '0.0.0.0' }, /loopback/],
    ['jwt without secret', { ...required, SVC_AUTH: 'jwt' }, /SVC_AUTH_JWT_SECRET/],
    ['jwt with short secret', { ...required, SVC_AUTH: 'jwt', SVC_AUTH_JWT_SECRET: 'short' }, /at least 32/],
    ['unknown auth', { ...required, SVC_AUTH: 'basic' }, /SVC_AUTH must be/],
    ['bad origin', { ...required, SVC_AUTH: 'dev', SVC_ALLOWED_ORIGINS: 'https://a.example/path' }, /SVC_ALLOWED_ORIGINS must list origins/],
    ['bad size', { ...required, SVC_AUTH: 'dev', SVC_MAX_UPLOAD_BYTES: '-1' }, /SVC_MAX_UPLOAD_BYTES/],
    ['bad envelope', { ...required, SVC_AUTH: 'dev', SVC_PLAYLIST_UPDATE_ENVELOPE: 'xml' }, /ENVELOPE/],
    ['bad positions', { ...required, SVC_AUTH: 'dev', SVC_PLAYLIST_POSITIONS: 'roman' }, /SVC_PLAYLIST_POSITIONS must be "number" or "string"/],
    ['bad iframe origin', { ...required, SVC_AUTH: 'dev', SVC_IFRAME_ORIGINS: 'https://i.example/vod' }, /SVC_IFRAME_ORIGINS must list origins/],
    ['bad consistency window', { ...required, SVC_AUTH: 'dev', SVC_CONSISTENCY_WINDOW_MS: 'soon' }, /SVC_CONSISTENCY_WINDOW_MS/],
    ['bad base path', { ...required, SVC_AUTH: 'dev', SVC_RELAY_BASE_PATH: 'svc' }, /BASE_PATH/],
    ['bad public url', { ...required, SVC_AUTH: 'dev', SVC_PUBLIC_URL: 'relay.example' }, /SVC_PUBLIC_URL/],
    ['bad database pool', { ...required, SVC_AUTH: 'dev', SVC_DATABASE_POOL: '0' }, /SVC_DATABASE_POOL must be an integer from 1 to 1000/],
  ];
  for (const [name, env, problem] of cases) {
    it(name, () => {
      const { config, problems } = configFromEnv(env);
      if (problem) {
        assert.equal(config, undefined);
        assert.ok(problems.some((p) => problem.test(p)), problems.join('\n'));
        assert.ok(!problems.join('\n').includes('secret-key-value-123'), 'no key in messages');
        // A mis-set variable can hold the key (e.g. SVC_PLAYLIST_POSITIONS="$SVC_API_KEY"): no value is echoed.
        for (const [name, value] of Object.entries(env)) {
          if (name.startsWith('SVC_') && value && value.length > 3 && !(name in required)) {
            assert.ok(!problems.join('\n').includes(value), `${name}'s value is not echoed`);
          }
        }
      } else {
        assert.deepEqual(problems, []);
        assert.ok(config);
      }
    });
  }

  it('reads the PostgreSQL database and its pool size (default 10)', () => {
    const url = 'postgresql://relay:pw@db.internal:5432/svc';
    const { config } = configFromEnv({ ...required, SVC_AUTH: 'dev', SVC_DATABASE: url, SVC_DATABASE_POOL: '4' });
    assert.equal(config!.options.database, url);
    assert.equal(config!.options.databasePool, 4);
    assert.equal(configFromEnv({ ...required, SVC_AUTH: 'dev' }).config!.options.databasePool, undefined);
    assert.equal(DEFAULTS.databasePool, 10);
    assert.deepEqual(['postgres://h/d', 'postgresql://h/d', 'POSTGRES://h/d', './relay.db', ':memory:', 'postgres.db'].map(isPostgresUrl), [true, true, true, false, false, false]);
  });

  it('reads every variable', () => {
    const { config } = configFromEnv({
      ...required,
      SVC_AUTH: 'jwt',
      SVC_AUTH_JWT_SECRET: 'x'.repeat(32),
      SVC_PUBLIC_URL: 'https://relay.example',
      SVC_RELAY_HOST: '0.0.0.0',
      SVC_RELAY_PORT: '9000',
      SVC_RELAY_BASE_PATH: '/api/svc/',
      SVC_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      SVC_DATABASE: '/var/lib/relay.db',
      SVC_MAX_UPLOAD_BYTES: '1000',
      SVC_PLAYLIST_UPDATE: 'POST /v2/playlist/{playlistId}/update',
      SVC_PLAYLIST_UPDATE_ENVELOPE: 'string',
      SVC_TRUST_PROXY: 'true',
    });
    assert.equal(config!.host, '0.0.0.0');
    assert.equal(config!.port, 9000);
    assert.equal(config!.options.basePath, '/api/svc');
    assert.deepEqual(config!.options.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(config!.options.database, '/var/lib/relay.db');
    assert.equal(config!.options.maxUploadBytes, 1000);
    assert.deepEqual(config!.options.playlistUpdate, { method: 'POST', path: '/v2/playlist/{playlistId}/update' });
    assert.equal(config!.options.playlistUpdateEnvelope, 'string');
    assert.equal(config!.options.trustProxy, true);
    assert.equal(config!.options.publicUrl, 'https://relay.example');
  });

  it('reads the settings of the real service: positions, iframe origins (comma or space), consistency window', () => {
    const { config } = configFromEnv({
      ...required,
      SVC_AUTH: 'dev',
      SVC_PLAYLIST_POSITIONS: 'string',
      SVC_IFRAME_ORIGINS: 'https://i1.example, https://i2.example https://i3.example',
      SVC_CONSISTENCY_WINDOW_MS: '5000',
    });
    assert.equal(config!.options.playlistPositions, 'string');
    assert.deepEqual(config!.options.iframeOrigins, ['https://i1.example', 'https://i2.example', 'https://i3.example']);
    assert.equal(config!.options.consistencyWindowMs, 5000);
  });

  it('defaults to what the public clients show, with the player origin first among the iframe origins', () => {
    const resolved = resolveConfig({ apiKey: 'k', baseUrl: 'http://a', uploadUrl: 'http://b', playerUrl: 'https://p.example/x', auth: 'dev', iframeOrigins: ['https://i.example'] });
    assert.deepEqual(resolved.playlistUpdate, { method: 'PUT', path: '/v2/playlists/{playlistId}/content' });
    assert.equal(resolved.playlistUpdateEnvelope, 'string');
    assert.equal(resolved.playlistPositions, 'number');
    assert.equal(resolved.consistencyWindowMs, 60_000);
    assert.deepEqual(resolved.iframeOrigins, ['https://p.example', 'https://i.example']);
    assert.throws(() => resolveConfig({ apiKey: 'k', baseUrl: 'http://a', uploadUrl: 'http://b', playerUrl: 'http://c', auth: 'dev', playlistPositions: 'roman' as 'number' }), /playlistPositions/);
  });

  it('checks the CLI and library options with one set of rules, each message naming the variable', () => {
    const library = { apiKey: 'k', baseUrl: 'http://a', uploadUrl: 'http://b', playerUrl: 'http://c', auth: 'dev' } as const;
    // [option, bad value, variable, bad environment string]: the same rule judges both.
    const cases: [string, unknown, string, string][] = [
      ['timeoutMs', 0, 'SVC_UPSTREAM_TIMEOUT_MS', '0'],
      ['maxStreamsPerUser', 1.5, 'SVC_MAX_STREAMS_PER_USER', '1.5'],
      ['retries', 11, 'SVC_UPSTREAM_RETRIES', '11'],
      ['databasePool', 1001, 'SVC_DATABASE_POOL', '1001'],
      ['consistencyWindowMs', -1, 'SVC_CONSISTENCY_WINDOW_MS', '-1'],
      ['callbackTtlS', 0, 'SVC_CALLBACK_TTL_S', '0'],
      ['trustProxy', 'yes', 'SVC_TRUST_PROXY', 'yes'],
    ];
    for (const [option, value, variable, raw] of cases) {
      let message = '';
      assert.throws(() => resolveConfig({ ...library, [option]: value }), (error: Error) => ((message = error.message), true));
      const line = message.split('\n').find((l) => l.startsWith(`${option} `));
      assert.ok(line?.endsWith(`(${variable})`), `${option}: ${message}`);
      const { problems } = configFromEnv({ ...required, SVC_AUTH: 'dev', [variable]: raw });
      assert.deepEqual(problems, [`${variable} ${line!.slice(option.length + 1, -(variable.length + 3))}`]);
    }
    const limit = configFromEnv({ ...required, SVC_AUTH: 'dev', SVC_RATE_LIMIT_PUBLIC: '0' }).problems;
    assert.deepEqual(limit, ['SVC_RATE_LIMIT_PUBLIC must be an integer from 1 to 1000000000']);
    assert.throws(() => resolveConfig({ ...library, rateLimits: { public: { limit: 0, windowMs: 1000 } } }), /rateLimits\.public\.limit must be an integer from 1 to 1000000000 \(SVC_RATE_LIMIT_PUBLIC\)/);
  });

  it('parses SVC_PLAYLIST_UPDATE', () => {
    assert.deepEqual(parsePlaylistUpdate('put /v2/playlist/{playlistId}/content'), { method: 'PUT', path: '/v2/playlist/{playlistId}/content' });
    assert.equal(parsePlaylistUpdate('DELETE /v2/playlist/{playlistId}'), undefined);
    assert.equal(parsePlaylistUpdate('PUT /v2/playlist'), undefined);
  });

  it('parses .env files', () => {
    assert.deepEqual(parseDotEnv('# c\nA=1\nexport B="two words"\nC=\'x#y\'\nD=plain # comment\n\nbad line\n'), {
      A: '1',
      B: 'two words',
      C: 'x#y',
      D: 'plain',
    });
  });
});

describe('request schemas', () => {
  it('take their choices and limits from the service schemas', () => {
    const { region, rendition_count, title, description } = schemas.channelCreateRequest.shape;
    const channel = (fields: Record<string, unknown>) =>
      channelCreate.safeParse({ title: 'Live', region: region.options[0], rendition_count: rendition_count.minValue, ...fields });
    for (const name of region.options) assert.ok(channel({ region: name }).success, name);
    assert.equal(channel({ region: 'mars' }).error?.issues[0]?.message, `must be ${region.options.slice(0, -1).join(', ')} or ${region.options.at(-1)}`);
    for (const count of [rendition_count.minValue!, rendition_count.maxValue!]) assert.ok(channel({ rendition_count: count }).success);
    for (const count of [rendition_count.minValue! - 1, rendition_count.maxValue! + 1, 2.5]) {
      assert.equal(channel({ rendition_count: count }).error?.issues[0]?.message, `must be an integer from ${rendition_count.minValue} to ${rendition_count.maxValue}`);
    }
    assert.ok(channel({ title: 'x'.repeat(title.maxLength!) }).success);
    assert.ok(!channel({ title: 'x'.repeat(title.maxLength! + 1) }).success);
    assert.ok(!channel({ description: 'x'.repeat(description.maxLength! + 1) }).success);
    const playlist = schemas.playlistCreateRequest.shape;
    assert.ok(playlistCreate.safeParse({ title: 'x'.repeat(playlist.title.maxLength!) }).success);
    assert.ok(!playlistCreate.safeParse({ title: 'x'.repeat(playlist.title.maxLength! + 1) }).success);
    for (const type of schemas.playlistUpdateItem.shape.type.options) assert.ok(playlistContent.safeParse({ items: [{ id: 'a1', type }] }).success);
    assert.ok(!playlistContent.safeParse({ items: [{ id: 'a1', type: 'album' }] }).success);
  });
});

describe('redaction', () => {
  it('removes secrets, encoded forms and credential fields from log lines', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), ['s3cr3t/key+1']);
    log.info('x', { url: 'http://a/?k=s3cr3t%2Fkey%2B1', message: 'key s3cr3t/key+1', password: 'p', nested: { stream_name: 'sk' } });
    assert.ok(!lines[0]!.includes('s3cr3t'));
    assert.ok(!lines[0]!.includes('"p"'));
    assert.ok(!lines[0]!.includes('"sk"'));
    assert.equal(redact('a KEY b', ['KEY']), 'a [redacted] b');
  });

  it('writes the request line by hand as info() would, secrets redacted every time', () => {
    const secret = 's3cr3t/key+1-long';
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), [secret]);
    log.request('GET', '/svc/embed/vod/1/javascript', 200, 3);
    log.info('request', { method: 'GET', path: '/svc/embed/vod/1/javascript', status: 200, ms: 3 });
    const [byHand, byInfo] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual({ ...byHand, time: 0 }, { ...byInfo, time: 0 });
    assert.match(String(byHand!.time), /^\d{4}-\d\d-\d\dT/);
    // The same secret-bearing texts twice (the second comes from what was remembered), in three forms.
    const base64 = Buffer.from(secret).toString('base64url');
    for (const path of [`/svc/x/${secret}`, `/svc/x/${encodeURIComponent(secret)}`, `/svc/x/${base64}`, `/svc/x/${secret}`]) {
      log.request(secret, path, 404, 1);
    }
    for (const line of lines.slice(2)) {
      assert.ok(!line.includes('s3cr3t') && !line.includes(base64.slice(2, 12)), line);
      const parsed = JSON.parse(line) as { method: string; path: string };
      assert.equal(parsed.method, '[redacted]');
      assert.match(parsed.path, /^\/svc\/x\/\[redacted\]/);
    }
    log.request('POST', '/svc/callbacks/upload/abcdefghij', 200, 1);
    assert.equal((JSON.parse(lines.at(-1)!) as { path: string }).path, '/svc/callbacks/upload/[token]');
    log.request('GET', `/svc/${'a'.repeat(400)}`, 404, 0);
    assert.equal((JSON.parse(lines.at(-1)!) as { path: string }).path, `/svc/${'a'.repeat(295)}`);
  });
});

/** A relay on SQLite in memory with the dev identity and no reachable service. */
const devRelay = {
  apiKey: 'k',
  baseUrl: 'http://127.0.0.1:9',
  uploadUrl: 'http://127.0.0.1:9',
  playerUrl: 'http://127.0.0.1:9',
  auth: 'dev',
  database: ':memory:',
  logger: () => {},
} as const;

describe('SSE hub', () => {
  it('sends heartbeats, live events, and forgets a cancelled stream', async () => {
    const store = new SqliteStore(':memory:');
    const hub = new EventHub(store, 20);
    const reader = hub.stream({ owner: 'dev', onError: () => {} }).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const read = async (what: string) => decoder.decode((await withDeadline(reader.read(), what)).value);
    while (!text.includes(': ping')) text += await read('a heartbeat');
    // Stored, not published: the hub hears the store's feed.
    const { event } = await store.createUpload({ id: 'u', owner: 'dev', source: 's', tokenHash: hashToken('u') });
    while (!text.includes('event: upload')) text += await read('the stored event');
    assert.match(text, new RegExp(`id: ${event.seq}\\nevent: upload\\ndata: \\{"upload_id":"u","source":"s","state":"signed"\\}\\n\\n`));
    assert.equal(hub.openStreams, 1);
    await reader.cancel();
    assert.equal(hub.openStreams, 0);
    await store.close();
  });

  it('ends open streams when the relay closes', async () => {
    const relay = createRelay(devRelay);
    const response = await relay(new Request('http://127.0.0.1/svc/events', { headers: { 'X-Svc-Request': '1' } }));
    const reader = response.body!.getReader();
    await reader.read(); // the opening comment
    await relay.close();
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    assert.equal(text, 'event: close\ndata: {"reason":"relay_closing"}\n\n', 'the client is told why');
    const after = await relay(new Request('http://r/svc/config'));
    assert.equal(after.status, 503);
  });
});

describe('client addresses', () => {
  const make = (trustProxy: boolean) =>
    createRelay({
      ...devRelay,
      trustProxy,
      rateLimits: { public: { limit: 1, windowMs: 60_000 } },
      logger: () => {},
    });
  const get = async (relay: ReturnType<typeof make>, address: string) =>
    (await relay(new Request('http://r/svc/config', { headers: { 'X-Forwarded-For': `198.51.100.7, ${address}` } }))).status;

  it('uses X-Forwarded-For only with trustProxy (its rightmost entry, which the proxy appended)', async () => {
    const trusting = make(true);
    assert.deepEqual([await get(trusting, '192.0.2.1'), await get(trusting, '192.0.2.2'), await get(trusting, '192.0.2.1')], [200, 200, 429]);
    await trusting.close();
    // Without trustProxy the header is ignored; called without a socket (no node-server env) the
    // address is unknown, and the per-address limit is not applied at all.
    const plain = make(false);
    assert.deepEqual([await get(plain, '192.0.2.1'), await get(plain, '192.0.2.1'), await get(plain, '192.0.2.1')], [200, 200, 200]);
    await plain.close();
  });
});

describe('createRelay without @hono/node-server', () => {
  it('imports it only when relay.requestListener is first used: fetch-only users need not install it', () => {
    // Every module createRelay loads statically (relative imports followed; `import type` and
    // import() are not loads), and the packages they name.
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, what] of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?'([^']+)'/gm)) {
        if (what!.startsWith('.')) visit(resolvePath(dirname(file), what!.replace(/\.js$/, '.ts')));
        else packages.add(what!);
      }
    };
    visit(fileURLToPath(new URL('../../src/relay/app.ts', import.meta.url)));
    assert.ok(seen.size > 10 && packages.has('hono'), `the walk found the relay's modules (${seen.size}) and packages`);
    assert.ok(!packages.has('@hono/node-server'), [...packages].join(', '));
  });
});
