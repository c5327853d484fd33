// Several users (jwt identity) against the local service: ownership (403 across users), SSE
// delivery and replay with Last-Event-ID, per-user and per-address rate limits, CORS/cookies.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serviceOptions, startStack, uploadVod, type Stack } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { JWT_SECRET, KeyScanner, SseReader, describeStores, json, signToken, startRelay, type RelayServer } from './helpers.js';

describeStores('users, events and limits (jwt)', (store) => {
  let stack: Stack;
  let scan: KeyScanner;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let vod: { upload_id: string; vod_id: string; title: string };
  let playlistId: string;
  let channelId: string;

  before(async () => {
    stack = await startStack({
      processingMs: 100,
      relay: {
        auth: 'jwt',
        jwtSecret: JWT_SECRET,
        allowedOrigins: ['https://cms.example'],
        rateLimits: { create: { limit: 4, windowMs: 60_000 }, public: { limit: 1000, windowMs: 60_000 } },
        logger: () => {},
        database: await store.database(),
      },
    });
    scan = new KeyScanner(stack.service.apiKey);
    alice = { Authorization: `Bearer ${await signToken('alice')}` };
    bob = { Authorization: `Bearer ${await signToken('bob')}` };
  });
  after(() => stack?.close());

  it('streams alice\'s upload to her, and replays missed events after Last-Event-ID', async () => {
    const first = new SseReader(await fetch(`${stack.relayUrl}/events`, { headers: alice }));
    vod = await uploadVod(stack.relayUrl, makeVideo({ seconds: 1 }), alice);
    await first.until(() => first.events.some((e) => e.data.upload_id === vod.upload_id && e.data.state === 'ready'), 'ready');
    await first.close();
    // "processing" is there when the browser's POST …/uploaded came before the service's callback.
    const [signed, ...later] = first.events.filter((e) => e.data.upload_id === vod.upload_id);
    const ready = later.at(-1)!;
    assert.equal(signed!.data.state, 'signed');
    assert.equal(ready.data.state, 'ready');

    // Reconnect having seen only "signed": every later event is replayed, in order.
    const replay = new SseReader(await fetch(`${stack.relayUrl}/events`, { headers: { ...alice, 'Last-Event-ID': String(signed!.id) } }));
    await replay.until(() => replay.events.some((e) => e.id === ready.id), 'the replayed ready event');
    assert.deepEqual(replay.events.map((e) => [e.id, e.data.state]), later.map((e) => [e.id, e.data.state]));
    assert.deepEqual(replay.events.at(-1)!.data.vod, { id: vod.vod_id, title: vod.title });
    await replay.close();

    // The query parameter works too (for clients that cannot set the header).
    const byQuery = new SseReader(await fetch(`${stack.relayUrl}/events?last_event_id=${later.at(-2)?.id ?? signed!.id}`, { headers: alice }));
    await byQuery.until(() => byQuery.events.length >= 1, 'one replayed event');
    assert.equal(byQuery.events[0]!.id, ready!.id);
    await byQuery.close();
  });

  it('replays none of alice\'s events to bob', async () => {
    const reader = new SseReader(await fetch(`${stack.relayUrl}/events`, { headers: { ...bob, 'Last-Event-ID': '0' } }));
    // A marker: bob's own new upload. Everything before it in his stream would be a leak.
    const signed = await scan.fetch(`${stack.relayUrl}/uploads`, json({ source: 'bob.mp4', size: 1000 }, bob));
    await reader.until(() => reader.events.some((e) => e.data.upload_id === signed.json.upload_id), 'bob\'s event');
    assert.deepEqual(reader.events.map((e) => e.data.upload_id), [signed.json.upload_id]);
    await reader.close();
  });

  it('refuses a malformed Last-Event-ID', async () => {
    const response = await fetch(`${stack.relayUrl}/events`, { headers: { ...alice, 'Last-Event-ID': 'abc' } });
    assert.equal(response.status, 400);
  });

  it('keeps each user to their own uploads, playlists and library (403)', async () => {
    playlistId = (await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'Alice list', description: '' }, alice))).json.id;
    channelId = (await scan.fetch(`${stack.relayUrl}/channels`, json({ title: 'Alice live', description: '', region: 'asia_pacific', rendition_count: 2 }, alice))).json.id;
    const asBob = [
      await scan.fetch(`${stack.relayUrl}/uploads/${vod.upload_id}`, { headers: bob }),
      await scan.fetch(`${stack.relayUrl}/uploads/${vod.upload_id}/uploaded`, json({}, bob)),
      await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: bob }),
      await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, { ...json({ items: [] }, bob), method: 'PUT' }),
    ];
    for (const { response, json: body } of asBob) {
      assert.equal(response.status, 403);
      assert.equal(body.error.code, 'forbidden');
    }
    const bobList = (await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'Bob list', description: '' }, bob))).json.id;
    const sneaky = await scan.fetch(`${stack.relayUrl}/playlists/${bobList}/content`, {
      ...json({ items: [{ id: vod.vod_id, type: 'vod' }] }, bob),
      method: 'PUT',
    });
    assert.equal(sneaky.response.status, 403, 'bob cannot put alice\'s VOD in his playlist');
    const library = (await scan.fetch(`${stack.relayUrl}/library`, { headers: bob })).json;
    assert.deepEqual(library.items.map((i: any) => i.title), ['Bob list']);
    const aliceLibrary = (await scan.fetch(`${stack.relayUrl}/library`, { headers: alice })).json;
    assert.deepEqual(aliceLibrary.items.map((i: any) => i.type), ['channel', 'playlist', 'vod']);
    // Alice can do all of it.
    const put = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, {
      ...json({ items: [{ id: vod.vod_id, type: 'vod' }, { id: channelId, type: 'channel' }] }, alice),
      method: 'PUT',
    });
    assert.equal(put.response.status, 200);
  });

  it('limits creations per user with 429 and Retry-After, without touching other users', async () => {
    // alice has created an upload, a playlist and a channel; the create limit is 4 per kind.
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      const { response } = await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: `p${i}`, description: '' }, alice));
      statuses.push(response.status);
      last = response;
    }
    assert.deepEqual(statuses, [201, 201, 201, 429, 429]);
    assert.match(last!.headers.get('retry-after')!, /^[1-9]\d*$/);
    const carol = { Authorization: `Bearer ${await signToken('carol')}` };
    assert.equal((await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'c', description: '' }, carol))).response.status, 201);
  });

  it('lets the cookie work only with X-Svc-Request and an allowed Origin', async () => {
    const cookie = `svc_token=${await signToken('alice')}`;
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.relayUrl}/uploads/${vod.upload_id}/uploaded`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers }, body: '{}' });
    assert.equal((await post({ 'X-Svc-Request': '1', Origin: 'https://cms.example' })).status, 200);
    assert.equal((await post({ Origin: 'https://cms.example' })).status, 403);
    assert.equal((await post({ 'X-Svc-Request': '1', Origin: 'https://evil.example' })).status, 403);
    const allowed = await fetch(`${stack.relayUrl}/library`, { headers: { Cookie: cookie, 'X-Svc-Request': '1', Origin: 'https://cms.example' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://cms.example');
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
  });

  it('never shows the key', () => scan.assertClean());
});

describe('public rate limit per client address', () => {
  let stack: Stack;
  let relay: RelayServer;
  before(async () => {
    stack = await startStack({ relay: { logger: () => {} } });
    // Served with node-server's env passed through, so the relay sees the socket's address.
    relay = await startRelay({
      ...serviceOptions(stack.service),
      auth: 'dev',
      database: ':memory:',
      rateLimits: { public: { limit: 3, windowMs: 60_000 } },
      logger: () => {},
    });
  });
  after(async () => {
    await relay?.close();
    await stack?.close();
  });

  it('answers 429 with Retry-After after the limit of public requests', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${relay.url}/config`);
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.match(last!.headers.get('retry-after')!, /^[1-9]\d*$/);
    assert.equal(((await last!.json()) as any).error.code, 'rate_limited');
    // The limit is on public routes only: the user's own routes go on.
    assert.equal((await fetch(`${relay.url}/library`, { headers: { 'X-Svc-Request': '1' } })).status, 200);
  });
});
