// The relay against a stand-in service for answers the local service never gives: shapes beyond
// what the real service's public clients show (no id in a create, off-shape channel panels, string
// ids and lists, a reason echoing the key or a callback token, ten signature fields, error bodies of
// every form seen) — a broken or hostile upstream, which the local service must not imitate. What the
// observed profile does is tested through the local service itself: test/relay/flow.test.ts (its
// answers with nulls and extra fields, the plural update path and string envelope, eventual
// consistency, 403 for another account's ids, {details} refusals), service-traces.test.ts (the
// reason and trace form) and faults.test.ts. Each stand-in answer is set per test; every request
// the relay makes is recorded.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { schemas } from '../../src/service/index.js';
import { json, logCapture, startRelay, type RelayServer } from './helpers.js';

const KEY = 'standin-key-0123456789abcdef';
const H = { 'X-Svc-Request': '1' };

interface Answer {
  status: number;
  body: unknown;
}

/** A stand-in upstream: answers set per `METHOD path`, requests recorded. */
class StandIn {
  readonly requests: { method: string; path: string; body: string; key: string | null }[] = [];
  answers = new Map<string, Answer | ((count: number) => Answer)>();
  #server?: ServerType;
  url = '';

  async start() {
    this.#server = await new Promise<ServerType>((resolve) => {
      const server = serve(
        {
          hostname: '127.0.0.1',
          port: 0,
          fetch: async (request) => {
            const path = new URL(request.url).pathname;
            const key = `${request.method} ${path}`;
            this.requests.push({ method: request.method, path, body: await request.text(), key: request.headers.get('x-api-key') });
            const answer = this.answers.get(key);
            const count = this.requests.filter((r) => `${r.method} ${r.path}` === key).length;
            const { status, body } = typeof answer === 'function' ? answer(count) : (answer ?? { status: 404, body: { details: 'Not found' } });
            return Response.json(body, { status });
          },
        },
        () => resolve(server),
      );
    });
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  close() {
    return new Promise((resolve) => this.#server!.close(resolve));
  }
}

/** A playlist as the public clients show it: nulls, extra fields, a string content list. */
const observedPlaylist = (id: string | number, list: unknown = null) => ({
  id,
  title: 'Observed',
  description: null,
  content: { list, start_time: '00:00:00' },
  password: null,
  countdown_date: null,
  save_date: '2026-01-01T00:00:00Z',
  asset_id: 'a-1',
  autoplay: true,
});

describe('relay against a stand-in that behaves as observed', () => {
  const service = new StandIn();
  const logs = logCapture();
  let relay: RelayServer;

  before(async () => {
    await service.start();
    relay = await startRelay({
      apiKey: KEY,
      baseUrl: service.url,
      uploadUrl: 'http://127.0.0.1:9/upload',
      playerUrl: 'http://127.0.0.1:9',
      iframeOrigins: ['https://iframe.example.net'],
      auth: 'dev',
      database: ':memory:',
      logger: logs.sink,
      retries: 0,
      consistencyWindowMs: 60_000,
    });
  });
  beforeEach(() => {
    service.answers.clear();
    service.requests.length = 0;
  });
  after(async () => {
    await relay.close();
    await service.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${relay.url}${path}`, body === undefined ? { method, headers: H } : { ...json(body), method });
    const text = await response.text();
    assert.ok(!text.includes(KEY), 'the key never reaches a caller');
    return { status: response.status, json: JSON.parse(text) };
  };

  it('records and returns a created playlist whose answer the seed schema refuses (never a 5xx)', async () => {
    const answer = observedPlaylist(4242, '');
    assert.equal(schemas.playlist.safeParse(answer).success, false, 'the stand-in answer fails the strict seed schema');
    service.answers.set('POST /v2/playlist', { status: 200, body: answer });
    const created = await call('POST', '/playlists', { title: 'Observed', description: '' });
    assert.equal(created.status, 201);
    assert.equal(created.json.id, '4242');
    assert.equal(created.json.description, null);
    assert.equal(created.json.asset_id, 'a-1', 'unknown fields pass through');
    assert.equal(created.json.content.list, null, 'an empty string list is an empty list');
    const library = await call('GET', '/library');
    assert.deepEqual(library.json.items.map((i: any) => [i.type, i.id, i.title]), [['playlist', '4242', 'Observed']]);
  });

  it('records and returns a created channel with nulls and extra fields (201)', async () => {
    const answer = {
      id: 'c-9',
      title: 'Live',
      config: { publishing_point_primary: 'rtmp://a/live', publishing_point_backup: null, login: 'l', password: 'p', stream_name: 's', publishing_point_type: null },
      countdown_date: null,
      rtmp: null,
      channel_type: 'unknown-kind',
      online_since: null,
    };
    assert.equal(schemas.channel.safeParse(answer).success, false);
    service.answers.set('POST /v2/channel', { status: 201, body: answer });
    const created = await call('POST', '/channels', { title: 'Live', description: '', region: 'europe', rendition_count: 2 });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json, answer);
    const library = await call('GET', '/library');
    assert.ok(library.json.items.some((i: any) => i.type === 'channel' && i.id === 'c-9'));
  });

  it('answers 201 with the created channel even when the panel fields are off-shape, and logs it', async () => {
    service.answers.set('POST /v2/channel', { status: 200, body: { id: 'c-10', title: 'Odd', config: null } });
    const created = await call('POST', '/channels', { title: 'Odd', description: '', region: 'europe', rendition_count: 1 });
    assert.equal(created.status, 201);
    assert.equal(created.json.id, 'c-10');
    assert.ok(logs.lines.some((line) => line.includes('upstream_unexpected_body') && line.includes('c-10')));
    assert.ok((await call('GET', '/library')).json.items.some((i: any) => i.id === 'c-10'));
  });

  it('gives 502 when a create answer has no id, and records nothing', async () => {
    service.answers.set('POST /v2/playlist', { status: 200, body: { title: 'no id' } });
    const before = (await call('GET', '/library')).json.items.length;
    const created = await call('POST', '/playlists', { title: 'x', description: '' });
    assert.equal(created.status, 502);
    assert.equal(created.json.error.code, 'upstream_unavailable');
    assert.equal((await call('GET', '/library')).json.items.length, before);
  });

  it('reads a JSON-string content.list with numeric positions and keeps the service\'s types', async () => {
    service.answers.set('POST /v2/playlist', { status: 200, body: observedPlaylist('p-1') });
    await call('POST', '/playlists', { title: 'Observed', description: '' });
    const list = JSON.stringify([
      { id: 'v-2', position: 2, title: 'second', type: 'vod' },
      { id: 'c-9', position: 1, title: 'first' },
      { id: 'x-3', position: 3, title: 'unknown' },
    ]);
    service.answers.set('GET /v2/playlist/p-1', { status: 200, body: observedPlaylist('p-1', list) });
    const got = await call('GET', '/playlists/p-1');
    assert.equal(got.status, 200);
    assert.deepEqual(
      got.json.content.list.map((i: any) => [i.id, i.position, i.type, i.title]),
      // c-9 has no type from the service: the relay knows it created that channel.
      [['v-2', '2', 'vod', 'second'], ['c-9', '1', 'channel', 'first'], ['x-3', '3', null, 'unknown']],
    );
    assert.equal(got.json.autoplay, true);
  });

  it('saves with the observed defaults: PUT /v2/playlists/{id}/content, a JSON string, numeric positions', async () => {
    service.answers.set('POST /v2/playlist', { status: 200, body: observedPlaylist('p-2') });
    await call('POST', '/playlists', { title: 'Observed', description: '' });
    service.answers.set('GET /v2/playlist/p-2', { status: 200, body: observedPlaylist('p-2') });
    const saved = [{ id: 'c-9', type: 'channel', position: 1 }];
    service.answers.set('PUT /v2/playlists/p-2/content', { status: 200, body: { ...observedPlaylist('p-2', saved), save_date: '2026-01-02T00:00:00Z' } });
    const put = await call('PUT', '/playlists/p-2/content', { items: [{ id: 'c-9', type: 'channel' }] });
    assert.equal(put.status, 200);
    const request = service.requests.find((r) => r.method === 'PUT')!;
    assert.equal(request.path, '/v2/playlists/p-2/content');
    const body = JSON.parse(request.body);
    assert.equal(typeof body.content, 'string');
    assert.deepEqual(JSON.parse(body.content), [{ id: 'c-9', type: 'channel', position: 1 }]);
    assert.equal(put.json.pending, undefined, 'the answer already shows the saved list');
  });

  it('answers a new playlist the service does not show yet as created, marked pending, after retrying', async () => {
    service.answers.set('POST /v2/playlist', { status: 200, body: observedPlaylist('p-3') });
    await call('POST', '/playlists', { title: 'Observed', description: '' });
    service.answers.set('GET /v2/playlist/p-3', (count) => (count < 3 ? { status: 404, body: { details: 'Playlist not found' } } : { status: 200, body: observedPlaylist('p-3') }));
    const soon = await call('GET', '/playlists/p-3');
    assert.equal(soon.status, 200);
    assert.equal(soon.json.pending, undefined, 'found on a retry');
    assert.equal(service.requests.filter((r) => r.path === '/v2/playlist/p-3').length, 3);
    service.answers.set('GET /v2/playlist/p-3', { status: 404, body: { details: 'Playlist not found' } });
    const never = await call('GET', '/playlists/p-3');
    assert.equal(never.status, 200);
    assert.equal(never.json.pending, true);
    assert.equal(never.json.id, 'p-3');
    assert.equal(never.json.title, 'Observed');
    assert.ok(logs.lines.some((line) => line.includes('"playlist_pending"')));
  });

  const refusals: [string, Answer, number, string, RegExp | null][] = [
    ['{details}', { status: 400, body: { details: 'Title is too long' } }, 400, 'upstream_rejected', /Title is too long/],
    ['{message}', { status: 422, body: { message: 'Region not available' } }, 400, 'upstream_rejected', /Region not available/],
    ['{errors: [...]}', { status: 400, body: { errors: [{ message: 'must be 1 to 5', property: 'rendition_count', value: 9 }] } }, 400, 'upstream_rejected', /rendition_count: must be 1 to 5/],
    ['a 409', { status: 409, body: { details: 'Busy' } }, 409, 'upstream_rejected', /Busy/],
    ['a 403 on a create', { status: 403, body: { details: 'Plan does not allow channels' } }, 400, 'upstream_rejected', /Plan does not allow channels/],
    ['a refused key (401)', { status: 401, body: { message: `Invalid key ${KEY}` } }, 502, 'upstream_credentials', null],
  ];
  for (const [name, answer, status, code, reason] of refusals) {
    it(`passes the service's reason on for ${name}`, async () => {
      service.answers.set('POST /v2/channel', answer);
      const result = await call('POST', '/channels', { title: 'Live', description: '', region: 'europe', rendition_count: 1 });
      assert.equal(result.status, status);
      assert.equal(result.json.error.code, code);
      if (reason) assert.match(result.json.error.message, reason);
    });
  }

  it('keeps the reason to its first line, at most 300 characters, scrubbed of the key and callback tokens', async () => {
    const long = `line one with ${KEY} and http://cms.example/svc/callbacks/upload/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG ${'x'.repeat(1000)}\nline two`;
    service.answers.set('POST /v2/channel', { status: 400, body: { details: long } });
    const result = await call('POST', '/channels', { title: 'Live', description: '', region: 'europe', rendition_count: 1 });
    const message: string = result.json.error.message;
    assert.ok(message.length <= 300, `${message.length} characters`);
    assert.ok(!/[\r\n]/.test(message));
    assert.match(message, /line one with \[redacted\]/);
    assert.doesNotMatch(message, /line two/);
    assert.ok(!message.includes('abcdefghijklmnopqrstuvwxyz0123456789'));
    assert.ok(!logs.lines.join('\n').includes(KEY));
  });

  it('answers 404 not_found for an id of another account (403) or an unknown one (404)', async () => {
    for (const status of [403, 404]) {
      service.answers.set(`GET /v2/vod/v-${status}/embed/iframe`, { status, body: { details: 'Forbidden' } });
      const result = await call('GET', `/embed/vod/v-${status}/iframe`);
      assert.equal(result.status, 404);
      assert.equal(result.json.error.code, 'not_found');
    }
  });

  it('forwards every signature field in the order received, more than nine included', async () => {
    const signature = {
      acl: 'private',
      bucket: 'b',
      key: 'vod/1/none/1',
      policy: 'cG9saWN5',
      success_action_status: '201',
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      'x-amz-credential': 'ASIA/20260101/us-east-1/s3/aws4_request',
      'x-amz-date': '20260101T000000Z',
      'x-amz-security-token': 'FwoGZXIvYXdzEtoken',
      'x-amz-signature': 'abc123',
    };
    service.answers.set('POST /v2/vod', { status: 200, body: signature });
    const signed = await call('POST', '/uploads', { source: 'a.mp4', size: 1000 });
    assert.equal(signed.status, 201);
    assert.deepEqual(signed.json.fields, Object.entries(signature));
  });

  it('exposes the iframe origins in /config, the player origin first', async () => {
    const config = await call('GET', '/config');
    assert.deepEqual(config.json.iframe_origins, ['http://127.0.0.1:9', 'https://iframe.example.net']);
  });
});

describe('relay playlist-update options against a stand-in', () => {
  const service = new StandIn();
  before(() => service.start());
  after(() => service.close());

  for (const [name, options, path, expected] of [
    ['string positions in the string envelope', { playlistPositions: 'string' as const }, '/v2/playlists/p/content', JSON.stringify([{ id: 'v', type: 'vod', position: '1' }])],
    [
      'the seed forms: singular path, array envelope, string positions',
      { playlistUpdate: { method: 'PUT', path: '/v2/playlist/{playlistId}/content' }, playlistUpdateEnvelope: 'array' as const, playlistPositions: 'string' as const },
      '/v2/playlist/p/content',
      [{ id: 'v', type: 'vod', position: '1' }],
    ],
    ['numbers in the array envelope', { playlistUpdateEnvelope: 'array' as const }, '/v2/playlists/p/content', [{ id: 'v', type: 'vod', position: 1 }]],
  ] as const) {
    it(`sends ${name}`, async () => {
      const relay = await startRelay({ apiKey: KEY, baseUrl: service.url, uploadUrl: 'http://127.0.0.1:9/u', playerUrl: 'http://127.0.0.1:9', auth: 'dev', database: ':memory:', logger: () => {}, ...options });
      try {
        service.answers.set('POST /v2/playlist', { status: 200, body: observedPlaylist('p') });
        service.answers.set('GET /v2/playlist/p', { status: 200, body: observedPlaylist('p') });
        service.answers.set(`PUT ${path}`, { status: 200, body: {} });
        service.requests.length = 0;
        await fetch(`${relay.url}/playlists`, json({ title: 't', description: '' }));
        const put = await fetch(`${relay.url}/playlists/p/content`, { ...json({ items: [{ id: 'v', type: 'vod' }] }), method: 'PUT' });
        assert.equal(put.status, 200, await put.clone().text());
        // The answer was no playlist: the saved list is shown, pending until the service shows it.
        const shown = (await put.json()) as any;
        assert.deepEqual(shown.content.list.map((i: any) => [i.id, i.type, i.position]), [['v', 'vod', '1']]);
        assert.equal(shown.pending, true);
        const request = service.requests.find((r) => r.method === 'PUT')!;
        assert.equal(request.path, path);
        assert.deepEqual(JSON.parse(request.body).content, expected);
      } finally {
        await relay.close();
      }
    });
  }
});
