// Playlist saves through several relay instances (each its own CLI process) on one PostgreSQL
// database: no save is lost, whichever instance each editor reaches. Two saves with the same
// base give one 200 and one 409, with a fast or a slow service; a save the service does not show
// yet (its consistency window) is seen by every instance; an instance killed in the middle of a
// save leaves no lock behind.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService } from '../../src/emulator/app.js';
import { RELAY_BIN, relayEnv, startCli, type Cli } from '../support/cli.js';
import { freshDatabase, postgresAvailable, SKIP_LINE } from '../support/postgres.js';
import { control } from './helpers.js';

const H = { 'X-Svc-Request': '1' };
const JSON_H = { ...H, 'Content-Type': 'application/json' };

/** A local service and `count` relay processes on one new PostgreSQL database. */
async function group(count: number, consistencyMs: number) {
  const service = await createLocalService({ apiPort: 0, uploadPort: 0, playerPort: 0, control: true, consistencyMs, apiKey: 'k-' + randomBytes(12).toString('hex') });
  const database = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'svc-relay-saves-'));
  const env = relayEnv(service, { SVC_DATABASE: database, SVC_DATABASE_POOL: '4' });
  const relays = await Promise.all(Array.from({ length: count }, () => startCli(RELAY_BIN, [], env, dir)));
  return { service, relays, controlUrl: `${service.baseUrl}/_control`, start: () => startCli(RELAY_BIN, [], env, dir) };
}

const call = async (cli: Cli, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${cli.ready.url}${path}`, { method, headers: body === undefined ? H : JSON_H, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
};
const ok = async (cli: Cli, method: string, path: string, body?: unknown) => {
  const answer = await call(cli, method, path, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
const ids = (playlist: any) => (playlist.content.list ?? []).map((item: any) => item.id);
const save = (cli: Cli, id: string, channel: string, base: string) =>
  call(cli, 'PUT', `/playlists/${id}/content`, { items: [{ id: channel, type: 'channel' }], base_save_date: base });
const stop = (clis: Cli[]) => {
  for (const cli of clis) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
};

describe('playlist saves through several relay instances on one PostgreSQL', { skip: !postgresAvailable() && SKIP_LINE }, () => {
  describe('a service that shows every save at once', () => {
    let g: Awaited<ReturnType<typeof group>>;
    let a: Cli;
    let b: Cli;
    let c: Cli;
    const channels: string[] = [];
    before(async () => {
      g = await group(3, 0);
      [a, b, c] = g.relays as [Cli, Cli, Cli];
      for (const title of ['One', 'Two', 'Three']) {
        channels.push((await ok(a, 'POST', '/channels', { title, description: '', region: 'europe', rendition_count: 1 })).id);
      }
    });
    after(async () => {
      stop(g?.relays ?? []);
      await g?.service.close();
    });

    /** Saves through each instance at once with the base of a new playlist: exactly one wins, nothing is lost. */
    async function race(instances: Cli[]) {
      const created = await ok(a, 'POST', '/playlists', { title: 'Race', description: '' });
      const answers = await Promise.all(instances.map((cli, i) => save(cli, created.id, channels[i]!, created.save_date)));
      assert.deepEqual(answers.map((x) => x.status).sort(), [200, ...instances.slice(1).map(() => 409)], JSON.stringify(answers.map((x) => x.status)));
      const winner = answers.find((x) => x.status === 200)!.body;
      for (const loser of answers.filter((x) => x.status === 409)) assert.deepEqual(ids(loser.body.current), ids(winner), 'the 409 shows the saved list');
      for (const cli of instances) assert.deepEqual(ids(await ok(cli, 'GET', `/playlists/${created.id}`)), ids(winner), 'every instance shows the saved list');
    }

    it('answers one 200 and one 409 to two saves with the same base through A and B (10 trials)', async () => {
      for (let trial = 0; trial < 10; trial++) await race([a, b]);
    });

    it('answers one 200 and two 409 to three saves with the same base through A, B and C (5 trials)', async () => {
      for (let trial = 0; trial < 5; trial++) await race([a, b, c]);
    });

    it('answers one 200 and one 409 when the service takes 500 ms to answer each GET (3 trials)', async () => {
      await control(g.controlUrl, '/faults', { origin: 'api', method: 'GET', path: '/v2/playlist/', latency_ms: 500, count: 0 });
      try {
        for (let trial = 0; trial < 3; trial++) await race([a, b]);
      } finally {
        await control(g.controlUrl, '/reset', {});
      }
    });

    it('releases the lock of an instance killed in the middle of a save: the next save through another instance works', async () => {
      const created = await ok(a, 'POST', '/playlists', { title: 'Killed', description: '' });
      // The update waits at the service while C holds the playlist's lock.
      const fault = await control(g.controlUrl, '/faults', { origin: 'api', method: 'PUT', path: `/v2/playlists/${created.id}/content`, latency_ms: 1500 });
      const hits = async () => ((await control(g.controlUrl, '/state')).faults as any[]).find((f) => f.id === fault.id)?.hits ?? 0;
      const dying = save(c, created.id, channels[0]!, created.save_date).catch((error: Error) => error);
      while ((await hits()) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      c.child.kill('SIGKILL');
      assert.ok((await dying) instanceof Error, 'C never answered');
      // Let the service finish C's update (it may apply it): B then compares against what the service shows.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const current = await ok(b, 'GET', `/playlists/${created.id}`);
      const saved = await save(b, created.id, channels[1]!, current.save_date);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(ids(await ok(a, 'GET', `/playlists/${created.id}`)), [channels[1]]);
      // And a stale base through A is still refused.
      assert.equal((await save(a, created.id, channels[2]!, current.save_date)).status, 409);
    });
  });

  describe('a service that shows a create or a save only after 4 s', () => {
    let g: Awaited<ReturnType<typeof group>>;
    let a: Cli;
    let b: Cli;
    const channels: string[] = [];
    before(async () => {
      g = await group(2, 4000);
      [a, b] = g.relays as [Cli, Cli];
      for (const title of ['One', 'Two']) {
        channels.push((await ok(a, 'POST', '/channels', { title, description: '', region: 'europe', rendition_count: 1 })).id);
      }
    });
    after(async () => {
      stop(g?.relays ?? []);
      await g?.service.close();
    });

    it('saves through B a playlist just created through A, with the base A answered', async () => {
      const created = await ok(a, 'POST', '/playlists', { title: 'New', description: '' });
      const saved = await save(b, created.id, channels[0]!, created.save_date);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(ids(saved.body), [channels[0]]);
      const onA = await ok(a, 'GET', `/playlists/${created.id}`);
      assert.deepEqual(ids(onA), [channels[0]], 'A shows the save made through B');
      assert.equal(onA.save_date, saved.body.save_date);
    });

    it('refuses (409) a stale save through B while a save through A is pending, and keeps A\'s list', async () => {
      const created = await ok(a, 'POST', '/playlists', { title: 'Pending', description: '' });
      // Wait until the service shows the new playlist: from then on only the save lags.
      let visible = await ok(b, 'GET', `/playlists/${created.id}`);
      while (visible.pending) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        visible = await ok(b, 'GET', `/playlists/${created.id}`);
      }
      const first = await save(a, created.id, channels[0]!, visible.save_date);
      assert.equal(first.status, 200);
      assert.equal(first.body.pending, true, 'the service does not show the save yet');
      const stale = await save(b, created.id, channels[1]!, visible.save_date);
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.deepEqual(ids(stale.body.current), [channels[0]]);
      assert.equal(stale.body.current.save_date, first.body.save_date);
      const onB = await ok(b, 'GET', `/playlists/${created.id}`);
      assert.deepEqual(ids(onB), [channels[0]], 'B shows A\'s pending save');
      // The version A answered is current on B too: no false 409.
      const next = await save(b, created.id, channels[1]!, first.body.save_date);
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.deepEqual(ids(next.body), [channels[1]]);
    });
  });
});
