// Issue 25, "limits that hold at scale": the rate limiter's cost and memory do not grow with the
// number of clients, IPv6 clients are keyed by their /64, and SVC_TRUST_PROXY takes the rightmost
// address that no trusted proxy added.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter } from '../../src/relay/rate-limit.js';
import { addressKey, clientAddressOf } from '../../src/relay/client-address.js';
import { configFromEnv, resolveConfig } from '../../src/relay/config.js';
import { createRelay } from '../../src/relay/app.js';
import { HttpError } from '../../src/relay/http-error.js';

/** Calls of Map iteration (for...of, keys, values, entries, forEach) made while `work` runs. */
function mapIterations(work: () => void): number {
  const proto = Map.prototype as unknown as Record<string | symbol, (...args: unknown[]) => unknown>;
  const names: (string | symbol)[] = [Symbol.iterator, 'entries', 'values', 'forEach'];
  const originals = names.map((name) => proto[name]!);
  let calls = 0;
  names.forEach((name, i) => {
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls++;
      return originals[i]!.apply(this, args);
    };
  });
  try {
    work();
  } finally {
    names.forEach((name, i) => (proto[name] = originals[i]!));
  }
  return calls;
}

describe('RateLimiter at scale', () => {
  it('never walks its counters on a request, however many clients it holds', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 20_000; i++) limiter.hit(`public:10.0.${i >> 8}.${i & 255}`);
    now = 30_000;
    for (let i = 0; i < 20_000; i++) limiter.hit(`public:10.1.${i >> 8}.${i & 255}`);
    now = 61_000; // the first 20,000 counters have ended
    assert.equal(mapIterations(() => {
      for (let i = 0; i < 1000; i++) limiter.hit(`public:10.2.${i >> 8}.${i & 255}`);
    }), 0);
  });

  it('holds at most two windows of at most maxKeys counters, and drops ended ones whole', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, () => now, 100);
    for (let i = 0; i < 1000; i++) limiter.hit(`k${i}`);
    assert.equal(limiter.size, 100, 'full: the oldest counters made way');
    now = 1000;
    for (let i = 0; i < 50; i++) limiter.hit(`n${i}`);
    assert.equal(limiter.size, 150, 'the previous window is kept while its counters may run');
    now = 2000;
    limiter.hit('last');
    assert.equal(limiter.size, 51);
    now = 5000;
    limiter.hit('alone');
    assert.equal(limiter.size, 1, 'after an idle window both generations are gone');
  });

  it('keeps fixed windows per key across the turn of a generation', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 }, () => now);
    limiter.hit('other'); // the generation starts at 0
    now = 9000;
    limiter.hit('u'); // u's window: 9000 to 19,000
    now = 12_000; // a new generation; u's counter is in the previous one and still counts
    limiter.hit('u');
    assert.throws(() => limiter.hit('u'), (error: unknown) => error instanceof HttpError && error.headers['Retry-After'] === '7');
    now = 19_000;
    limiter.hit('u');
  });
});

describe('client address keys', () => {
  it('keys IPv6 clients by their /64 and IPv4 ones (also IPv4-mapped) by the address', () => {
    const cases: [string, string][] = [
      ['192.0.2.1', '192.0.2.1'],
      ['::ffff:192.0.2.1', '192.0.2.1'],
      ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
      ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
      ['2001:0db8:0001:0002:ffff::', '2001:db8:1:2::/64'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ];
    for (const [address, key] of cases) assert.equal(addressKey(address), key, address);
  });

  it('takes the rightmost address that no trusted proxy added', () => {
    const cases: [Parameters<typeof clientAddressOf>[0], string | undefined, string | undefined, string | undefined][] = [
      // [trust, X-Forwarded-For, socket, client]
      [false, '203.0.113.9', '10.0.0.1', '10.0.0.1'],
      [1, 'forged, 203.0.113.9', '10.0.0.1', '203.0.113.9'],
      [1, 'forged, 203.0.113.9', undefined, '203.0.113.9'],
      [1, undefined, '10.0.0.1', '10.0.0.1'],
      [2, 'forged, 203.0.113.9, 10.0.0.2', '10.0.0.1', '203.0.113.9'],
      [2, 'forged, 203.0.113.9, 10.0.0.2', undefined, '203.0.113.9'],
      [3, '203.0.113.9', '10.0.0.1', '203.0.113.9'],
      [['10.0.0.0/8'], 'forged, 203.0.113.9, 10.0.0.2', '10.0.0.1', '203.0.113.9'],
      [['10.0.0.1', '10.0.0.2'], 'forged, 203.0.113.9, 10.0.0.2', '::ffff:10.0.0.1', '203.0.113.9'],
      [['10.0.0.1'], 'forged', '192.0.2.50', '192.0.2.50'],
      [['10.0.0.0/8'], '10.0.0.3, 10.0.0.2', '10.0.0.1', '10.0.0.3'],
      [['2001:db8::/32'], '2001:db8:ffff::1, 2001:db8::2', '2001:db8::1', '2001:db8:ffff::1'],
    ];
    for (const [trust, forwarded, socket, client] of cases) {
      assert.equal(clientAddressOf(trust)(forwarded, socket), client, `${JSON.stringify(trust)} ${forwarded} ${socket}`);
    }
  });

  it('reads SVC_TRUST_PROXY as hops (1, true: one proxy) or a list of proxy addresses, and refuses anything else', () => {
    const required = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
    const read = (value: string) => configFromEnv({ ...required, SVC_TRUST_PROXY: value });
    assert.equal(read('1').config!.options.trustProxy, 1);
    assert.equal(read('true').config!.options.trustProxy, true);
    assert.equal(read('2').config!.options.trustProxy, 2);
    assert.equal(read('0').config!.options.trustProxy, 0);
    assert.equal(read('false').config!.options.trustProxy, false);
    assert.deepEqual(read('10.0.0.1, 10.1.0.0/16,fd00::/8').config!.options.trustProxy, ['10.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    for (const bad of ['yes', '10.0.0.1, proxy.example', '10.0.0.0/33', '101']) assert.match(read(bad).problems.join(), /SVC_TRUST_PROXY must be a number of proxy hops/, bad);
    const base = { apiKey: 'k', baseUrl: 'http://a', uploadUrl: 'http://b', playerUrl: 'http://c', auth: 'dev' } as const;
    assert.equal(resolveConfig({ ...base, trustProxy: true }).trustProxy, 1);
    assert.equal(resolveConfig({ ...base, trustProxy: 0 }).trustProxy, false);
    assert.deepEqual(resolveConfig({ ...base, trustProxy: ['10.0.0.1'] }).trustProxy, ['10.0.0.1']);
  });
});

describe('per-address limits through the relay', () => {
  const relayWith = (trustProxy: number | string[]) =>
    createRelay({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      uploadUrl: 'http://127.0.0.1:9',
      playerUrl: 'http://127.0.0.1:9',
      auth: 'dev',
      database: ':memory:',
      trustProxy,
      rateLimits: { public: { limit: 2, windowMs: 60_000 } },
      logger: () => {},
    });
  const config = async (relay: ReturnType<typeof relayWith>, forwarded: string) =>
    (await relay(new Request('http://127.0.0.1/svc/config', { headers: { 'X-Forwarded-For': forwarded } }))).status;

  it('does not let a client behind one appending proxy pass as many by writing X-Forwarded-For', async () => {
    const relay = relayWith(1);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await config(relay, `198.51.100.${i}, 203.0.113.9`));
    assert.deepEqual(statuses, [200, 200, 429, 429, 429]);
    assert.equal(await config(relay, '203.0.113.10'), 200, 'another client is not limited');
    await relay.close();
  });

  it('counts one IPv6 /64 as one client', async () => {
    const relay = relayWith(['10.0.0.1']);
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push(await config(relay, `2001:db8:1:2::${i.toString(16)}, 10.0.0.1`));
    assert.deepEqual(statuses, [200, 200, 429, 429]);
    assert.equal(await config(relay, '2001:db8:1:3::1, 10.0.0.1'), 200, 'the next /64 is another client');
    await relay.close();
  });
});

describe('reads of what a user owns under SVC_RATE_LIMIT_READ', () => {
  it('limits /events, /uploads/{id} and /library per user: 429 with Retry-After; other users unaffected', async () => {
    const relay = createRelay({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      uploadUrl: 'http://127.0.0.1:9',
      playerUrl: 'http://127.0.0.1:9',
      database: ':memory:',
      rateLimits: { read: { limit: 2, windowMs: 60_000 } },
      auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }),
      logger: () => {},
    });
    const get = async (path: string, user: string) => {
      const response = await relay(new Request(`http://127.0.0.1/svc${path}`, { headers: { 'X-Svc-Request': '1', 'X-User': user } }));
      await response.body?.cancel();
      return response;
    };
    try {
      for (const path of ['/events', '/uploads/up_unknown', '/library']) {
        const user = `user-of-${path}`;
        const statuses = [(await get(path, user)).status, (await get(path, user)).status];
        const limited = await get(path, user);
        assert.notEqual(statuses[0], 429, path);
        assert.equal(limited.status, 429, path);
        assert.ok(Number(limited.headers.get('retry-after')) > 0, path);
        assert.notEqual((await get(path, `other-${path}`)).status, 429, `${path}: another user`);
      }
    } finally {
      await relay.close();
    }
  });
});

describe('SVC_AUTH=dev against DNS rebinding', () => {
  const relay = () =>
    createRelay({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      uploadUrl: 'http://127.0.0.1:9',
      playerUrl: 'http://127.0.0.1:9',
      publicUrl: 'http://127.0.0.1:8787',
      auth: 'dev',
      database: ':memory:',
      allowedOrigins: ['https://cms.example'],
      logger: () => {},
    });
  const call = async (handler: ReturnType<typeof relay>, url: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
    const response = await handler(new Request(url, { ...init, headers: { 'X-Svc-Request': '1', ...headers } }));
    const body = (await response.json()) as { error?: { code: string; message: string } };
    return { status: response.status, body };
  };

  it('refuses a Host that is not loopback, and an Origin that is neither loopback nor allowed', async () => {
    const handler = relay();
    try {
      // A rebinding page: its own name (now resolving to 127.0.0.1), its own origin.
      const rebound = await call(handler, 'http://rebind.attacker.example:8787/svc/channels', { Origin: 'http://rebind.attacker.example:8787', 'Content-Type': 'application/json' }, {
        method: 'POST',
        body: JSON.stringify({ title: 't', region: 'europe', rendition_count: 1 }),
      });
      assert.equal(rebound.status, 403);
      assert.match(rebound.body.error!.message, /loopback host/);
      assert.equal((await call(handler, 'http://rebind.attacker.example:8787/svc/library')).status, 403);
      const foreign = await call(handler, 'http://127.0.0.1:8787/svc/library', { Origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
      assert.match(foreign.body.error!.message, /SVC_ALLOWED_ORIGINS/);
      assert.equal((await call(handler, 'http://127.0.0.1:8787/svc/library', { Origin: 'null' })).status, 403);
      for (const [url, origin] of [
        ['http://127.0.0.1:8787/svc/library', undefined],
        ['http://localhost:8787/svc/library', 'http://localhost:5173'],
        ['http://[::1]:8787/svc/library', 'http://[::1]:3000'],
        ['http://127.0.0.1:8787/svc/library', 'https://cms.example'],
      ] as const) {
        assert.equal((await call(handler, url, origin ? { Origin: origin } : {})).status, 200, `${url} ${origin}`);
      }
    } finally {
      await handler.close();
    }
  });

  it('leaves other identities to their own checks', async () => {
    const handler = createRelay({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      uploadUrl: 'http://127.0.0.1:9',
      playerUrl: 'http://127.0.0.1:9',
      database: ':memory:',
      auth: async () => ({ id: 'u' }),
      logger: () => {},
    });
    try {
      assert.equal((await call(handler, 'http://relay.example/svc/library')).status, 200);
    } finally {
      await handler.close();
    }
  });
});

describe('SVC_EVENT_RETENTION', () => {
  const required = { SVC_API_KEY: 'k', SVC_BASE_URL: 'http://a', SVC_UPLOAD_URL: 'http://b', SVC_PLAYER_URL: 'http://c', SVC_AUTH: 'dev' };
  const base = { apiKey: 'k', baseUrl: 'http://a', uploadUrl: 'http://b', playerUrl: 'http://c', auth: 'dev' } as const;

  it('reads seconds or a duration with a unit, at least the callback lifetime', () => {
    const read = (value: string, extra: Record<string, string> = {}) => configFromEnv({ ...required, ...extra, SVC_EVENT_RETENTION: value });
    for (const [value, seconds] of [['604800', 604_800], ['7d', 604_800], ['36h', 129_600], ['90m', 5400], ['30s', 30]] as const) {
      assert.equal(read(value, { SVC_CALLBACK_TTL_S: '30' }).config!.options.eventRetentionS, seconds, value);
    }
    for (const bad of ['7 days', '-1d', '1.5d', '0', 'forever']) assert.match(read(bad).problems.join(), /SVC_EVENT_RETENTION must be a duration/, bad);
    assert.deepEqual(read('1d').problems, ['SVC_EVENT_RETENTION must be at least the callback lifetime (SVC_CALLBACK_TTL_S, 604800 s)']);
    assert.deepEqual(read('1h', { SVC_CALLBACK_TTL_S: '3600' }).problems, []);
    assert.throws(() => resolveConfig({ ...base, callbackTtlS: 60, eventRetentionS: 59 }), /eventRetentionS must be at least the callback lifetime .* \(SVC_EVENT_RETENTION\)/);
  });

  it('defaults to 7 days, or to the callback lifetime when that is longer', () => {
    assert.equal(resolveConfig(base).eventRetentionS, 7 * 86_400);
    assert.equal(resolveConfig({ ...base, callbackTtlS: 60 }).eventRetentionS, 7 * 86_400);
    assert.equal(resolveConfig({ ...base, callbackTtlS: 30 * 86_400 }).eventRetentionS, 30 * 86_400);
  });
});
