// The relay against the local service over real loopback HTTP: every route of a user's flow,
// with every response scanned for the API key and the logs scanned too. Run twice: against the
// observed profile with a consistency delay (the relay on its defaults), and against the seed
// profile (the relay set to the seed's forms: singular path, array envelope, string positions).
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { STACK_CONSISTENCY_MS, serviceOptions, startStack, uploadVod, type Stack } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { KeyScanner, SseReader, control, describeStores, json, logCapture, startRelay } from './helpers.js';

const H = { 'X-Svc-Request': '1' };

for (const profile of ['observed', 'seed'] as const) describeStores(`relay flow against the local service (${profile} profile)`, (store) => {
  const observed = profile === 'observed';
  let stack: Stack;
  let scan: KeyScanner;
  const logs = logCapture();
  let vod: { upload_id: string; vod_id: string; title: string };
  let channelId: string;
  let playlistId: string;

  before(async () => {
    stack = await startStack({
      processingMs: 100,
      profile,
      consistencyMs: observed ? STACK_CONSISTENCY_MS : 0,
      relay: { logger: logs.sink, database: await store.database() },
    });
    scan = new KeyScanner(stack.service.apiKey);
  });
  after(async () => {
    await stack?.close();
  });

  it('GET /healthz says the relay is up and the service reachable', async () => {
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/healthz`);
    assert.equal(response.status, 200);
    assert.deepEqual(body, { status: 'ok', upstream: { reachable: true } });
  });

  it('GET /config points at the service origins', async () => {
    const { json: body } = await scan.fetch(`${stack.relayUrl}/config`);
    assert.equal(body.upload_url, stack.service.uploadUrl);
    assert.equal(body.player_origin, new URL(stack.service.playerUrl).origin);
    // The player origin stays in the list; the service's iframe origin follows.
    assert.deepEqual(body.iframe_origins, [new URL(stack.service.playerUrl).origin, stack.service.iframeUrl]);
  });

  it('POST /uploads signs with the service and returns the fields in the service order', async () => {
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/uploads`, json({ source: 'clip.mp4', size: 1000, type: 'video/mp4' }));
    assert.equal(response.status, 201);
    assert.match(body.upload_id, /^up_[A-Za-z0-9_-]+$/);
    assert.equal(body.upload_url, stack.service.uploadUrl);
    assert.deepEqual(
      body.fields.map(([name]: [string, string]) => name),
      ['acl', 'bucket', 'key', 'policy', 'success_action_status', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-signature'],
    );
    // The key is the service's `vod/<id>/none/<id>`, and signing alone delivered nothing to the upload address.
    const key = body.fields.find(([name]: [string, string]) => name === 'key')[1];
    assert.match(key, /^vod\/(\d+)\/none\/\1$/);
    const received = async () => ((await control(stack.controlUrl, '/state')).uploads as any[]).filter((u) => u.key === key);
    assert.deepEqual(await received(), []);
    const { response: polled, json: upload } = await scan.fetch(`${stack.relayUrl}/uploads/${body.upload_id}`, { headers: H });
    assert.equal(polled.status, 200);
    assert.deepEqual(upload, { upload_id: body.upload_id, source: 'clip.mp4', state: 'signed' });
    // The same check sees the POST the browser makes next, with the signed fields, in their order.
    const form = new FormData();
    for (const [name, value] of body.fields as [string, string][]) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(1000)], { type: 'video/mp4' }), 'clip.mp4');
    await (await fetch(body.upload_url, { method: 'POST', body: form })).arrayBuffer();
    const posted = await received();
    assert.equal(posted.length, 1);
    assert.deepEqual(posted[0].field_names, [...body.fields.map(([name]: [string, string]) => name), 'file']);
  });

  it('delivers signed, processing and ready over /events while a real video is uploaded', async () => {
    const events = await fetch(`${stack.relayUrl}/events`, { headers: H });
    assert.equal(events.status, 200);
    assert.match(events.headers.get('content-type')!, /^text\/event-stream/);
    assert.equal(events.headers.get('x-accel-buffering'), 'no');
    const reader = new SseReader(events);
    vod = await uploadVod(stack.relayUrl, makeVideo({ seconds: 1 }));
    await reader.until(() => reader.events.some((e) => e.data.upload_id === vod.upload_id && e.data.state === 'ready'), 'ready event');
    const mine = reader.events.filter((e) => e.data.upload_id === vod.upload_id);
    // "processing" comes from the browser's POST …/uploaded; when the service's callback is faster,
    // "signed" becomes "ready" directly (and a late "uploaded" changes nothing): both orders are right.
    const states = mine.map((e) => e.data.state);
    assert.ok(
      JSON.stringify(states) === JSON.stringify(['signed', 'processing', 'ready']) || JSON.stringify(states) === JSON.stringify(['signed', 'ready']),
      `states ${states.join(', ')}`,
    );
    assert.deepEqual(mine.at(-1)!.data.vod, { id: vod.vod_id, title: vod.title });
    assert.ok(mine.every((e) => e.event === 'upload'));
    assert.ok(mine.every((e, i) => i === 0 || mine[i - 1]!.id < e.id), 'ids increase');
    await reader.close();
    const callbacks = (await control(stack.controlUrl, '/state')).callbacks as any[];
    const callback = callbacks.find((c) => c.vod_id === vod.vod_id);
    assert.ok(callback.delivered);
    assert.equal(callback.callback_origin, new URL(stack.relayUrl).origin);
  });

  it('GET /uploads/{id} reports ready with the VOD', async () => {
    const { json: body } = await scan.fetch(`${stack.relayUrl}/uploads/${vod.upload_id}`, { headers: H });
    assert.equal(body.state, 'ready');
    assert.deepEqual(body.vod, { id: vod.vod_id, title: vod.title });
  });

  it('POST /channels validates, creates and returns the service channel unchanged', async () => {
    const request = { title: 'Live', description: 'Evening show', region: 'europe', rendition_count: 3 };
    const { response, json: channel } = await scan.fetch(`${stack.relayUrl}/channels`, json(request));
    assert.equal(response.status, 201);
    assert.equal(channel.title, 'Live');
    assert.equal(typeof channel.config.stream_name, 'string');
    assert.equal(typeof channel.share_code.facebook, 'string');
    channelId = channel.id;
    const logText = logs.lines.join('\n');
    assert.ok(!logText.includes(channel.config.password), 'channel password not logged');
    assert.ok(!logText.includes(channel.config.stream_name), 'stream key not logged');
  });

  it('POST /playlists creates; PUT /content replaces with positions; GET annotates types', async () => {
    const created = await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'Best of', description: 'mix' }));
    assert.equal(created.response.status, 201);
    assert.equal(created.json.content.list, null);
    playlistId = created.json.id;
    const put = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, {
      ...json({ items: [{ id: channelId, type: 'channel' }, { id: vod.vod_id, type: 'vod' }], base_save_date: created.json.save_date }),
      method: 'PUT',
    });
    assert.equal(put.response.status, 200, put.text);
    assert.deepEqual(
      put.json.content.list.map((i: any) => [i.id, i.position, i.type]),
      [[channelId, '1', 'channel'], [vod.vod_id, '2', 'vod']],
    );
    const got = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: H });
    assert.deepEqual(got.json.content.list.map((i: any) => i.type), ['channel', 'vod']);
    assert.notEqual(got.json.save_date, created.json.save_date);
  });

  it('shows a new playlist and a saved list at once, pending until the service shows them; conflicts stay exact', async () => {
    const upstream = (id: string) =>
      fetch(`${stack.service.baseUrl}/v2/playlist/${id}`, { headers: { 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' } });
    const created = await scan.fetch(`${stack.relayUrl}/playlists`, json({ title: 'Fresh', description: '' }));
    assert.equal(created.response.status, 201);
    const id = created.json.id;
    // The service does not show it yet (observed: eventual consistency); the relay does.
    assert.equal((await upstream(id)).status, observed ? 404 : 200);
    const got = await scan.fetch(`${stack.relayUrl}/playlists/${id}`, { headers: H });
    assert.equal(got.response.status, 200, got.text);
    assert.equal(got.json.id, id);
    assert.equal(got.json.title, 'Fresh');

    const items = [{ id: channelId, type: 'channel' }, { id: vod.vod_id, type: 'vod' }];
    const saved = await scan.fetch(`${stack.relayUrl}/playlists/${id}/content`, { ...json({ items, base_save_date: created.json.save_date }), method: 'PUT' });
    assert.equal(saved.response.status, 200, saved.text);
    assert.deepEqual(saved.json.content.list.map((i: any) => [i.id, i.type, i.position]), [[channelId, 'channel', '1'], [vod.vod_id, 'vod', '2']]);
    assert.equal(saved.json.pending, observed ? true : undefined);
    if (observed) assert.equal(((await (await upstream(id)).json()) as any).content.list, null, 'the service still shows the old list');
    const again = await scan.fetch(`${stack.relayUrl}/playlists/${id}`, { headers: H });
    assert.deepEqual(again.json.content.list.map((i: any) => [i.id, i.type]), [[channelId, 'channel'], [vod.vod_id, 'vod']]);
    assert.equal(again.json.save_date, saved.json.save_date);

    // A save based on what the relay showed is no conflict, even while the service lags...
    const second = await scan.fetch(`${stack.relayUrl}/playlists/${id}/content`, {
      ...json({ items: [{ id: vod.vod_id, type: 'vod' }], base_save_date: saved.json.save_date }),
      method: 'PUT',
    });
    assert.equal(second.response.status, 200, second.text);
    assert.deepEqual(second.json.content.list.map((i: any) => i.id), [vod.vod_id]);
    // ...and a save based on the version before the first save is a real one.
    const stale = await scan.fetch(`${stack.relayUrl}/playlists/${id}/content`, { ...json({ items: [], base_save_date: created.json.save_date }), method: 'PUT' });
    assert.equal(stale.response.status, 409, stale.text);
    assert.deepEqual(stale.json.current.content.list.map((i: any) => i.id), [vod.vod_id]);

    // Once the service shows the save, the relay shows the service's own version, not pending.
    await new Promise((resolve) => setTimeout(resolve, observed ? STACK_CONSISTENCY_MS + 200 : 0));
    const settled = await scan.fetch(`${stack.relayUrl}/playlists/${id}`, { headers: H });
    assert.deepEqual(settled.json.content.list.map((i: any) => [i.id, i.type]), [[vod.vod_id, 'vod']]);
    assert.equal(settled.json.pending, undefined);
    assert.equal(settled.json.save_date, ((await (await upstream(id)).json()) as any).save_date);
  });

  it('PUT /content with a stale base_save_date answers 409 with the current playlist', async () => {
    const current = (await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: H })).json;
    const stale = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, {
      ...json({ items: [], base_save_date: '2000-01-01T00:00:00.000Z' }),
      method: 'PUT',
    });
    assert.equal(stale.response.status, 409);
    assert.equal(stale.json.error.code, 'conflict');
    assert.equal(stale.json.current.save_date, current.save_date);
    assert.equal(stale.json.current.content.list.length, 2);
    assert.deepEqual(stale.json.current.content.list.map((i: any) => i.type), ['channel', 'vod']);
    const after = (await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}`, { headers: H })).json;
    assert.equal(after.content.list.length, 2, 'nothing overwritten');
  });

  it('PUT /content refuses items without a valid type', async () => {
    for (const items of [[{ id: vod.vod_id }], [{ id: vod.vod_id, type: 'movie' }], [{ id: vod.vod_id, type: null }], [{ id: '../x', type: 'vod' }]]) {
      const { response, json: body } = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, { ...json({ items }), method: 'PUT' });
      assert.equal(response.status, 400, JSON.stringify(items));
      assert.ok(Object.keys(body.error.fields).some((k) => k.startsWith('items.0')));
    }
  });

  it('passes the service\'s own 4xx on as upstream_rejected, with the service\'s reason', async () => {
    const { response, json: body } = await scan.fetch(`${stack.relayUrl}/playlists/${playlistId}/content`, {
      ...json({ items: [{ id: '999999999', type: 'vod' }] }),
      method: 'PUT',
    });
    assert.equal(response.status, 400);
    assert.equal(body.error.code, 'upstream_rejected');
    // The service's own words reach the user, whatever its error body form.
    assert.match(body.error.message, /no ready VOD with id "999999999"/);
    const embed = await scan.fetch(`${stack.relayUrl}/embed/vod/123/javascript`);
    assert.equal(embed.response.status, 404);
    assert.equal(embed.json.error.code, 'not_found');
  });

  it('answers 404 not_found for another account\'s content (the service answers 403)', async () => {
    const { id } = await control(stack.controlUrl, '/other-account', { kind: 'vod' });
    const direct = await fetch(`${stack.service.baseUrl}/v2/vod/${id}/embed/javascript`, {
      headers: { 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' },
    });
    assert.equal(direct.status, observed ? 403 : 404);
    const embed = await scan.fetch(`${stack.relayUrl}/embed/vod/${id}/javascript`);
    assert.equal(embed.response.status, 404);
    assert.equal(embed.json.error.code, 'not_found');
  });

  it('GET /library lists the VOD, channel and playlist, newest first', async () => {
    const { json: body } = await scan.fetch(`${stack.relayUrl}/library`, { headers: H });
    assert.deepEqual(
      body.items.filter((i: any) => i.title !== 'Fresh').map((i: any) => [i.type, i.id]),
      [['playlist', playlistId], ['channel', channelId], ['vod', vod.vod_id]],
    );
    assert.equal(body.items.filter((i: any) => i.title === 'Fresh').length, 1);
  });

  it('GET /embed returns all six codes unchanged, cached with ETag and 304', async () => {
    const ids = { vod: vod.vod_id, channel: channelId, playlist: playlistId };
    for (const [kind, id] of Object.entries(ids)) {
      for (const variant of ['javascript', 'iframe']) {
        const direct = await fetch(`${stack.service.baseUrl}/v2/${kind}/${id}/embed/${variant}`, {
          headers: { 'X-Api-Key': stack.service.apiKey, 'X-Format': 'default' },
        });
        const expected = await direct.json();
        const { response, json: body } = await scan.fetch(`${stack.relayUrl}/embed/${kind}/${id}/${variant}`);
        assert.equal(response.status, 200);
        assert.deepEqual(body, expected);
        assert.match(response.headers.get('cache-control')!, /public, max-age=\d+/);
        const etag = response.headers.get('etag')!;
        const again = await fetch(`${stack.relayUrl}/embed/${kind}/${id}/${variant}`, { headers: { 'If-None-Match': etag } });
        assert.equal(again.status, 304);
      }
    }
  });

  it('serves cached embed codes without another upstream call, and coalesces concurrent misses', async () => {
    // A failure injected for the next upstream call of this path is not seen: the code is cached.
    await control(stack.controlUrl, '/faults', { origin: 'api', path: `/v2/vod/${vod.vod_id}/embed/iframe`, status: 404, count: 1 });
    assert.equal((await fetch(`${stack.relayUrl}/embed/vod/${vod.vod_id}/iframe`)).status, 200);
    await control(stack.controlUrl, '/reset', {});
    // Concurrent misses of one key share one upstream call: with every upstream call of the path
    // slowed down (so the five overlap), the service sees exactly one request.
    const path = `/v2/playlist/${playlistId}/embed/iframe`;
    const fresh = await startStackLikeRelayWithEmptyCache();
    await control(stack.controlUrl, '/faults', { origin: 'api', path, latency_ms: 1000, count: 0 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${fresh.url}/embed/playlist/${playlistId}/iframe`)));
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200]);
    const fault = (await control(stack.controlUrl, '/state')).faults.find((f: any) => f.path === path);
    assert.equal(fault.hits, 1, 'one upstream call for five concurrent misses');
    await control(stack.controlUrl, '/reset', {});
    await fresh.close();
  });

  it('never shows the key in a response or a log line', async () => {
    // Routes not visited above: the bundle, a preflight, an unknown route, an unauthorised call,
    // and the event stream (headers and replayed body).
    await scan.fetch(`${stack.relayUrl}/elements.js`);
    await scan.fetch(`${stack.relayUrl}/uploads`, { method: 'OPTIONS', headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'POST' } });
    await scan.fetch(`${stack.relayUrl}/no-such-route`, { headers: H });
    await scan.fetch(`${stack.relayUrl}/library`);
    const stream = await fetch(`${stack.relayUrl}/events`, { headers: { ...H, 'Last-Event-ID': '0' } });
    const reader = new SseReader(stream);
    await reader.until(() => reader.events.some((e) => e.data.state === 'ready'), 'replayed ready');
    await reader.close();
    scan.record(stream, JSON.stringify(reader.events) + reader.comments.join('\n'));
    scan.assertClean();
    assert.ok(logs.lines.length > 10);
    const text = logs.lines.join('\n');
    assert.ok(!text.includes(stack.service.apiKey));
    assert.ok(!/callbacks\/upload\/[A-Za-z0-9_-]{43}/.test(text), 'callback tokens not logged');
  });

  function startStackLikeRelayWithEmptyCache() {
    return startRelay({
      ...serviceOptions(stack.service),
      auth: 'dev',
      database: ':memory:',
      logger: logs.sink,
    });
  }
});
