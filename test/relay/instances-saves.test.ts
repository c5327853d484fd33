// Playlist saves through several relay instances (each its own CLI process) on one PostgreSQL
// database: no save is lost, whichever instance each editor reaches. Two saves with the same
// base give one 200 and one 409, with a fast or a slow service; a save the service does not show
// yet (its consistency window) is seen by every instance; an instance killed while its update is
// on its way to the service neither leaves its lock behind nor overwrites a save answered 200.
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
import http from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';

const H = { 'X-Svc-Request': '1' };
const JSON_H = { ...H, 'Content-Type': 'application/json' };

/** A local service and `count` relay processes on one new PostgreSQL database (reaching the service through `front`, if given). */
async function group(count: number, consistencyMs: number, front?: (target: string) => Promise<string>) {
  const service = await createLocalService({ apiPort: 0, uploadPort: 0, playerPort: 0, control: true, consistencyMs, apiKey: 'k-' + randomBytes(12).toString('hex') });
  const database = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'svc-relay-saves-'));
  const base = front ? { SVC_BASE_URL: await front(service.baseUrl) } : {};
  const env = { ...relayEnv(service, { SVC_DATABASE: database, SVC_DATABASE_POOL: '4' }), ...base };
  const relays = await Promise.all(Array.from({ length: count }, () => startCli(RELAY_BIN, [], env, dir)));
  return { service, relays, database, controlUrl: `${service.baseUrl}/_control`, start: () => startCli(RELAY_BIN, [], env, dir) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A front of the service that, like a real server, completes every request it fully received,
 * even once its caller is gone; it can hold PUTs for a while before passing them on.
 */
class Front {
  holdPutsMs = 0;
  heldPuts = 0;
  readonly #server = http.createServer((request, response) => void this.#pass(request, response));
  #target = '';

  async start(target: string): Promise<string> {
    this.#target = target.replace(/\/$/, '');
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${new URL(this.#target).pathname}`;
  }

  async #pass(request: http.IncomingMessage, response: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === 'PUT' && this.holdPutsMs) {
      this.heldPuts++;
      await sleep(this.holdPutsMs);
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0])),
    );
    const origin = new URL(this.#target).origin;
    const answer = await fetch(origin + request.url, { method: request.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await answer.arrayBuffer());
    if (response.destroyed) return; // the caller is gone: the service has done the work all the same
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(body);
  }

  close() {
    this.#server.closeAllConnections();
    this.#server.close();
  }
}

/** Runs `sql` on the test's database as its owner (a trigger that fails a write, ending a connection). */
async function admin(database: string, sql: string) {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Makes every write of the playlist_pending rows of `kind` fail (a transient database failure), until dropped. */
const failWrites = (database: string, kind: string) =>
  admin(
    database,
    `CREATE OR REPLACE FUNCTION fail_pending() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.kind = '${kind}' THEN RAISE EXCEPTION 'transient'; END IF; RETURN NEW; END $$;
     CREATE TRIGGER fail_pending BEFORE INSERT OR UPDATE ON playlist_pending FOR EACH ROW EXECUTE FUNCTION fail_pending();`,
  );
const restoreWrites = (database: string) => admin(database, 'DROP TRIGGER fail_pending ON playlist_pending');

/** Hits of a fault of the local service (set with latency only, it counts the requests it matched). */
const hitsOf = async (controlUrl: string, id: string) => ((await control(controlUrl, '/state')).faults as any[]).find((fault) => fault.id === id)?.hits ?? 0;

/** Retries a save answered 503 (with Retry-After) until it is decided: 200 or 409. */
async function decided(attempt: () => ReturnType<typeof call>) {
  for (let tries = 0; ; tries++) {
    const answer = await attempt();
    if (answer.status !== 503 || tries === 60) return answer;
    await sleep(250);
  }
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

    it('survives losing the lock connection in the middle of a save: that save is answered 503, a save with the same base through B is not answered 200, and the next save works', async () => {
      const created = await ok(a, 'POST', '/playlists', { title: 'Dropped', description: '' });
      const fault = await control(g.controlUrl, '/faults', { origin: 'api', method: 'PUT', path: `/v2/playlists/${created.id}/content`, latency_ms: 2000, count: 1 });
      try {
        const first = save(a, created.id, channels[0]!, created.save_date);
        while ((await hitsOf(g.controlUrl, fault.id)) < 1) await sleep(20);
        // Every lock connection of the relays is ended (a failover, an administrator, a network cut).
        const ended = await admin(g.database, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'svc-relay-lock' AND datname = current_database()`);
        assert.ok(ended.length >= 1, 'A\'s lock connection was there');
        const second = await decided(() => save(b, created.id, channels[1]!, created.save_date));
        const answer = await first;
        assert.equal(a.child.exitCode, null, 'A is still running');
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assert.equal(second.status, 409, 'A\'s update reached the service: the same base is stale');
        assert.deepEqual(ids(second.body.current), [channels[0]]);
        const next = await save(a, created.id, channels[2]!, second.body.current.save_date);
        assert.equal(next.status, 200, JSON.stringify(next.body));
        assert.deepEqual(ids(await ok(b, 'GET', `/playlists/${created.id}`)), [channels[2]]);
      } finally {
        await control(g.controlUrl, '/reset', {});
      }
    });

    it('saves a playlist while three saves of another one wait for a slow service (one lock connection per playlist)', async () => {
      const x = await ok(a, 'POST', '/playlists', { title: 'X', description: '' });
      const y = await ok(a, 'POST', '/playlists', { title: 'Y', description: '' });
      const fault = await control(g.controlUrl, '/faults', { origin: 'api', method: 'PUT', path: `/v2/playlists/${x.id}/content`, latency_ms: 3000, count: 0 });
      try {
        const done: string[] = [];
        const xs = [0, 1, 2].map((i) => save(a, x.id, channels[0]!, x.save_date).then((answer) => (done.push(`x${i}`), answer)));
        while ((await hitsOf(g.controlUrl, fault.id)) < 1) await sleep(20);
        // Two lock connections on A (SVC_DATABASE_POOL 4): the saves of X waiting their turn hold none.
        const ys = await save(a, y.id, channels[1]!, y.save_date).then((answer) => (done.push('y'), answer));
        assert.equal(ys.status, 200, JSON.stringify(ys.body));
        assert.deepEqual(done, ['y'], 'Y was saved while X\'s first save was still at the service');
        assert.deepEqual((await Promise.all(xs)).map((answer) => answer.status).sort(), [200, 409, 409]);
      } finally {
        await control(g.controlUrl, '/reset', {});
      }
    });

  });

  describe('an instance killed while its update is on its way to the service', () => {
    const front = new Front();
    let g: Awaited<ReturnType<typeof group>>;
    before(async () => {
      g = await group(2, 0, (target) => front.start(target));
    });
    after(async () => {
      stop(g?.relays ?? []);
      front.close();
      await g?.service.close();
    });

    it('never answers 200 to a save that the dead instance\'s update then overwrites; the next save works', async () => {
      const [b, c] = g.relays as [Cli, Cli];
      const channels: string[] = [];
      for (const title of ['One', 'Two']) channels.push((await ok(b, 'POST', '/channels', { title, description: '', region: 'europe', rendition_count: 1 })).id);
      const created = await ok(b, 'POST', '/playlists', { title: 'Killed', description: '' });
      // C's update is at the front (fully sent) when C dies: it reaches the service 1.5 s later.
      front.holdPutsMs = 1500;
      const dying = save(c, created.id, channels[0]!, created.save_date).catch((error: Error) => error);
      while (front.heldPuts < 1) await sleep(20);
      front.holdPutsMs = 0;
      c.child.kill('SIGKILL');
      assert.ok((await dying) instanceof Error, 'C never answered');
      // B saves at once with what it shows (the service does not show C's list yet).
      const shown = await ok(b, 'GET', `/playlists/${created.id}`);
      assert.deepEqual(ids(shown), [], 'C\'s list is not at the service yet');
      let saved = await decided(() => save(b, created.id, channels[1]!, shown.save_date));
      if (saved.status === 409) {
        // Refused because C's list may be current: it is, once the service shows it.
        assert.deepEqual(ids(saved.body.current), [channels[0]], JSON.stringify(saved.body));
        saved = await decided(() => save(b, created.id, channels[1]!, saved.body.current.save_date));
      }
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      // Whatever C's update did, it is over now: the list B was answered 200 for stays.
      await sleep(2000);
      assert.deepEqual(ids(await ok(b, 'GET', `/playlists/${created.id}`)), [channels[1]], 'B\'s saved list is not lost');
      // And a stale base is still refused.
      assert.equal((await save(b, created.id, channels[0]!, shown.save_date)).status, 409);
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

    /** A new playlist, once the service shows it. */
    async function visiblePlaylist(title: string) {
      const created = await ok(a, 'POST', '/playlists', { title, description: '' });
      let visible = await ok(b, 'GET', `/playlists/${created.id}`);
      while (visible.pending) {
        await sleep(250);
        visible = await ok(b, 'GET', `/playlists/${created.id}`);
      }
      return visible;
    }

    it('answers 503 and sends nothing when the save cannot be recorded before its update', async () => {
      const visible = await visiblePlaylist('Unrecorded');
      const fault = await control(g.controlUrl, '/faults', { origin: 'api', method: 'PUT', path: `/v2/playlists/${visible.id}/content`, latency_ms: 1 });
      await failWrites(g.database, 'flight');
      let answer;
      try {
        answer = await save(a, visible.id, channels[0]!, visible.save_date);
      } finally {
        await restoreWrites(g.database);
      }
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.ok(answer.body.error, 'an error body');
      assert.equal(await hitsOf(g.controlUrl, fault.id), 0, 'the service was not called');
      await control(g.controlUrl, '/reset', {});
    });

    it('refuses a stale save through B after a save through A whose record failed (the service not showing it yet)', async () => {
      const visible = await visiblePlaylist('Record failed');
      await failWrites(g.database, 'save');
      let first;
      try {
        first = await save(a, visible.id, channels[0]!, visible.save_date);
      } finally {
        await restoreWrites(g.database);
      }
      assert.equal(first.status, 200, 'the service accepted it');
      const stale = await decided(() => save(b, visible.id, channels[1]!, visible.save_date));
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.deepEqual(ids(stale.body.current), [channels[0]]);
      assert.deepEqual(ids(await ok(b, 'GET', `/playlists/${visible.id}`)), [channels[0]], 'A\'s list is kept');
    });
  });
});
