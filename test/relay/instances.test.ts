// Several relay instances on one PostgreSQL database and one local service, each from its CLI,
// as they would run behind a load balancer without sticky sessions: what one instance stores,
// every other one serves and streams; a callback delivered to two instances at once counts
// once; an instance killed with SIGKILL loses nothing, and a restarted one sees everything.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { RELAY_BIN, relayEnv, startCli, type Cli } from '../support/cli.js';
import { freshDatabase, postgresAvailable, SKIP_LINE } from '../support/postgres.js';
import { uploadVod } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { SseReader, control, multipart, recordingProxy } from './helpers.js';
import { waitFor } from '../support/wait.js';

const H = { 'X-Svc-Request': '1' };
const JSON_H = { ...H, 'Content-Type': 'application/json' };

describe('several relay instances on one PostgreSQL', { skip: !postgresAvailable() && SKIP_LINE }, () => {
  let service: LocalService;
  let database: string;
  let dir: string;
  const clis: Cli[] = [];
  let a: Cli;
  let b: Cli;
  let streamOnB: SseReader;
  let vod: { upload_id: string; vod_id: string; title: string };
  let playlistId: string;
  // The instances reach the service through a recording proxy: it keeps the callback URLs (with
  // their tokens), which the service's control API never shows.
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  const start = async () => {
    const env = relayEnv(service, { SVC_BASE_URL: proxy.url, SVC_DATABASE: database, SVC_DATABASE_POOL: '4' });
    const cli = await startCli(RELAY_BIN, [], env, dir);
    clis.push(cli);
    return cli;
  };
  const get = async (cli: Cli, path: string) => {
    const response = await fetch(`${cli.ready.url}${path}`, { headers: H });
    assert.equal(response.status, 200, `${path} on ${cli.ready.url}`);
    return (await response.json()) as any;
  };
  const controlUrl = () => `${service.baseUrl}/_control`;

  before(async () => {
    service = await createLocalService({ apiPort: 0, uploadPort: 0, playerPort: 0, control: true, processingMs: 100, apiKey: 'k-' + randomBytes(12).toString('hex') });
    proxy = await recordingProxy(() => service.baseUrl);
    database = await freshDatabase();
    dir = mkdtempSync(join(tmpdir(), 'svc-relay-instances-'));
    // Three instances starting together on a new database: the migrations take turns.
    [a, b] = await Promise.all([start(), start(), start()]);
    streamOnB = new SseReader(await fetch(`${b.ready.url}/events`, { headers: H }));
  });
  after(async () => {
    await streamOnB?.close();
    for (const cli of clis) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await service?.close();
    await proxy?.close();
  });

  it('refuses to start (exit 1, the reason, no password) when the database is unreachable', async () => {
    const cli = startCli(RELAY_BIN, [], relayEnv(service, { SVC_DATABASE: 'postgres://relay:pw-s3cret@127.0.0.1:1/none' }), dir);
    await assert.rejects(cli, (error: Error) => /exited with 1/.test(error.message) && /svc-relay: .*ECONNREFUSED/.test(error.message) && !error.message.includes('pw-s3cret'));
  });

  it('streams an upload signed and called back through A as ready on a stream held by B, in B\'s state and library', async () => {
    vod = await uploadVod(a.ready.url, makeVideo({ seconds: 1 }));
    const callback = ((await control(controlUrl(), '/state')).callbacks as any[]).find((c) => c.vod_id === vod.vod_id);
    assert.equal(callback.callback_origin, new URL(a.ready.url).origin, 'the service called A back');
    assert.ok(proxy.callbackUrls.some((url) => url.startsWith(`${a.ready.url}/callbacks/upload/`)), 'A signed with its own callback URL');
    await streamOnB.until(() => streamOnB.events.some((e) => e.data.upload_id === vod.upload_id && e.data.state === 'ready'), 'ready on B');
    const mine = streamOnB.events.filter((e) => e.data.upload_id === vod.upload_id);
    assert.deepEqual(mine.map((e) => e.data.state), ['signed', 'processing', 'ready']);
    assert.deepEqual(mine[2]!.data.vod, { id: vod.vod_id, title: vod.title });
    assert.deepEqual(await get(b, `/uploads/${vod.upload_id}`), { upload_id: vod.upload_id, source: 'sample-1s.mp4', state: 'ready', vod: { id: vod.vod_id, title: vod.title } });
    assert.ok((await get(b, '/library')).items.some((item: any) => item.id === vod.vod_id && item.type === 'vod'));
  });

  it('yields one event when the same callback reaches A and B at the same moment', async () => {
    // The service's own deliveries fail, so the callback reaches the relays only as sent here.
    await control(controlUrl(), '/callbacks', { fail_next: 1000 });
    const known = ((await control(controlUrl(), '/state')).callbacks as any[]).length;
    const bytes = await readFile(makeVideo({ seconds: 1 }));
    const signed = (await (await fetch(`${a.ready.url}/uploads`, { method: 'POST', headers: JSON_H, body: JSON.stringify({ source: 'twice.mp4', size: bytes.length, type: 'video/mp4' }) })).json()) as any;
    const form = new FormData();
    for (const [name, value] of signed.fields as [string, string][]) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'video/mp4' }), 'twice.mp4');
    assert.ok((await fetch(signed.upload_url, { method: 'POST', body: form })).ok);
    await fetch(`${a.ready.url}/uploads/${signed.upload_id}/uploaded`, { method: 'POST', headers: JSON_H, body: '{}' });
    const record = await waitFor(async () => {
      const sent = ((await control(controlUrl(), '/state')).callbacks as any[])[known];
      return sent?.attempts.length && sent;
    }, "the service's first attempt to deliver the callback");
    await control(controlUrl(), '/callbacks', { fail_next: 0 });
    const path = new URL(proxy.callbackUrls.at(-1)!).pathname;
    const answers = await Promise.all(
      [a, b].map(async (cli) => {
        const response = await fetch(`${new URL(cli.ready.url).origin}${path}`, { method: 'POST', body: multipart({ file_id: record.vod_id, title: record.title }) });
        return { status: response.status, body: (await response.json()) as any };
      }),
    );
    assert.deepEqual(answers.map((x) => x.status), [200, 200]);
    assert.deepEqual(answers.map((x) => x.body.duplicate === true).sort(), [false, true], 'one stored, one duplicate');
    // A marker event after both: every event before it has arrived on B's stream.
    const marker = (await (await fetch(`${b.ready.url}/uploads`, { method: 'POST', headers: JSON_H, body: '{"source":"marker.mp4","size":1}' })).json()) as any;
    await streamOnB.until(() => streamOnB.events.some((e) => e.data.upload_id === marker.upload_id), 'marker');
    assert.equal(streamOnB.events.filter((e) => e.data.upload_id === signed.upload_id && e.data.state === 'ready').length, 1);
    const ids = streamOnB.events.map((e) => e.id);
    assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'in order');
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
  });

  it('saves through B a playlist created on A', async () => {
    const created = (await (await fetch(`${a.ready.url}/playlists`, { method: 'POST', headers: JSON_H, body: '{"title":"Across","description":""}' })).json()) as any;
    playlistId = created.id;
    const put = await fetch(`${b.ready.url}/playlists/${playlistId}/content`, {
      method: 'PUT',
      headers: JSON_H,
      body: JSON.stringify({ items: [{ id: vod.vod_id, type: 'vod' }], base_save_date: created.save_date }),
    });
    assert.equal(put.status, 200, await put.clone().text());
    const read = await get(b, `/playlists/${playlistId}`);
    assert.deepEqual(read.content.list.map((item: any) => [item.id, item.type]), [[vod.vod_id, 'vod']]);
    assert.ok((await get(b, '/library')).items.some((item: any) => item.id === playlistId && item.type === 'playlist'));
  });

  it('serves everything from B after A is killed with SIGKILL, and a restarted A sees all of it', async () => {
    a.child.kill('SIGKILL');
    assert.equal(await a.exited, null);
    const onB = await get(b, '/library');
    assert.ok(onB.items.some((item: any) => item.id === vod.vod_id));
    assert.ok(onB.items.some((item: any) => item.id === playlistId));
    assert.equal((await get(b, `/uploads/${vod.upload_id}`)).state, 'ready');
    const replay = new SseReader(await fetch(`${b.ready.url}/events`, { headers: { ...H, 'Last-Event-ID': '0' } }));
    await replay.until(() => replay.events.length >= streamOnB.events.length, 'the whole story replayed on B');
    assert.deepEqual(replay.events.map((e) => e.id), streamOnB.events.map((e) => e.id));
    await replay.close();

    const restarted = await start();
    assert.deepEqual((await get(restarted, '/library')).items.map((item: any) => item.id), onB.items.map((item: any) => item.id));
    assert.equal((await get(restarted, `/uploads/${vod.upload_id}`)).vod.id, vod.vod_id);
    assert.deepEqual((await get(restarted, `/playlists/${playlistId}`)).content.list.map((item: any) => item.id), [vod.vod_id]);
    // And it takes part in the fan-out again: what it stores reaches B's stream.
    const fresh = (await (await fetch(`${restarted.ready.url}/uploads`, { method: 'POST', headers: JSON_H, body: '{"source":"after.mp4","size":1}' })).json()) as any;
    await streamOnB.until(() => streamOnB.events.some((e) => e.data.upload_id === fresh.upload_id), 'event from the restarted A');
    assert.ok(!b.stderr.join('\n').includes(service.apiKey), 'logs never hold the key');
  });
});
