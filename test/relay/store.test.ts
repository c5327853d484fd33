// The Store behaviour suite: one suite, run against every implementation (SQLite, and
// PostgreSQL on the run's throwaway cluster). "Two instances" are two store objects on one
// database: for PostgreSQL two pools and two listening connections, as two relays would have;
// for SQLite (one process per file) the same store twice.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/relay/store/open.js';
import { MIGRATIONS as SQLITE_MIGRATIONS, SqliteStore } from '../../src/relay/store/sqlite.js';
import { MIGRATIONS as PG_MIGRATIONS, PostgresStore } from '../../src/relay/store/postgres.js';
import { CHANNEL, LISTENER_NAME } from '../../src/relay/store/pg-listener.js';
import { LockBusyError, type Store, type StoredEvent } from '../../src/relay/store/store.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { numbered } from '../../src/relay/store/shared.js';
import { createLogger } from '../../src/relay/log.js';
import { describeStores, logCapture, type StoreKind } from './helpers.js';
import { RELAY_BIN, relayEnv, runCli, startCli } from '../support/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'relay-store-'));

/** Collects a store's feed; `until(n)` waits for n events. */
function collect(store: Store) {
  const events: StoredEvent[] = [];
  const waiters: (() => void)[] = [];
  const unsubscribe = store.subscribe((event) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (n: number, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (events.length < n) {
      if (Date.now() > deadline) throw new Error(`feed has ${events.length} events, expected ${n}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return { events, until, unsubscribe };
}

const upload = (id: string, owner = 'alice') => ({ id, owner, source: `${id}.mp4`, tokenHash: hashToken(`token-${id}`) });

/** Runs one statement (`?` placeholders) on the database beside the store, as an operator's tool or `migrate` would. */
/** Runs SQL behind the store's back: with SQLite through its own connection (it holds its file exclusively). */
async function runSql(kind: StoreKind, database: string, sql: string, params: unknown[] = [], store?: Store): Promise<unknown[]> {
  if (kind.name === 'sqlite') {
    const db = store ? (store as SqliteStore).db : new Database(database);
    try {
      const statement = db.prepare(sql);
      return statement.reader ? statement.all(...params) : (statement.run(...params), []);
    } finally {
      if (!store) db.close();
    }
  }
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query(numbered(sql), params)).rows;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeStores('Store behaviour', (kind: StoreKind) => {
  const opened: Store[] = [];
  const open = async (database: string) => {
    const store = openStore(database);
    opened.push(store);
    await store.ready;
    return store;
  };
  /** Two handles on one new database, as two relay instances would hold. */
  const instances = async (): Promise<[Store, Store]> => {
    const database = await kind.database(tmp());
    const first = await open(database);
    return [first, kind.name === 'sqlite' ? first : await open(database)];
  };
  after(() => Promise.all(opened.map((store) => store.close())));

  it('records an upload with its first event, and reads it back', async () => {
    const [store] = await instances();
    const { upload: record, event } = await store.createUpload(upload('u1'));
    assert.deepEqual({ ...record, createdAt: typeof record.createdAt }, {
      id: 'u1', owner: 'alice', source: 'u1.mp4', state: 'signed', vodId: null, vodTitle: null, createdAt: 'string',
    });
    assert.deepEqual(event.data, { upload_id: 'u1', source: 'u1.mp4', state: 'signed' });
    assert.deepEqual(await store.getUpload('u1'), record);
    assert.equal(await store.getUpload('nope'), undefined);
    await assert.rejects(store.createUpload(upload('u1')), 'an id is recorded once');
  });

  it('marks an upload processing once (no event without a change), and refuses an unknown one', async () => {
    const [store] = await instances();
    await store.createUpload(upload('u1'));
    const first = await store.markUploaded('u1');
    assert.equal(first.upload.state, 'processing');
    assert.equal(first.event!.data.state, 'processing');
    assert.equal((await store.markUploaded('u1')).event, undefined);
    await assert.rejects(store.markUploaded('nope'), /unknown upload/);
  });

  it('completes a callback atomically and idempotently: stored, duplicate, conflict, unknown', async () => {
    const [store] = await instances();
    await store.createUpload(upload('u1'));
    const token = hashToken('token-u1');
    const stored = await store.completeUpload(token, { id: 'v1', title: 'First' });
    assert.equal(stored.status, 'stored');
    assert.deepEqual(stored.status === 'stored' && stored.event.data, { upload_id: 'u1', source: 'u1.mp4', state: 'ready', vod: { id: 'v1', title: 'First' } });
    assert.equal((await store.getUpload('u1'))!.vodId, 'v1');
    assert.equal((await store.getContent('vod', 'v1'))!.owner, 'alice');
    const duplicate = await store.completeUpload(token, { id: 'v1', title: 'Renamed' });
    assert.equal(duplicate.status, 'duplicate');
    assert.equal((await store.getUpload('u1'))!.vodTitle, 'First');
    assert.equal((await store.completeUpload(token, { id: 'v2', title: 'Other' })).status, 'conflict');
    assert.equal(await store.getContent('vod', 'v2'), undefined);
    assert.equal((await store.completeUpload(hashToken('forged'), { id: 'v3', title: 'x' })).status, 'unknown');
    assert.deepEqual((await store.eventsAfter('alice', 0)).map((e) => e.data.state), ['signed', 'ready']);
  });

  it('stores one VOD and one event when two instances receive the same callback at the same moment', async () => {
    const [a, b] = await instances();
    for (let i = 0; i < 5; i++) await a.createUpload(upload(`u${i}`));
    const outcomes = await Promise.all(
      [0, 1, 2, 3, 4].flatMap((i) => [a, b].map((store) => store.completeUpload(hashToken(`token-u${i}`), { id: `v${i}`, title: `T${i}` }))),
    );
    assert.equal(outcomes.filter((o) => o.status === 'stored').length, 5);
    assert.equal(outcomes.filter((o) => o.status === 'duplicate').length, 5);
    const events = await b.eventsAfter('alice', 0);
    assert.equal(events.filter((e) => e.data.state === 'ready').length, 5);
    assert.equal((await a.library('alice', { limit: 10 })).items.length, 5);
  });

  it('keeps content: upserts titles, finds VODs and channels by id for any owner, lists a library newest first', async () => {
    const [store] = await instances();
    await store.addContent({ type: 'playlist', id: 'p1', owner: 'alice', title: 'P1' });
    await store.addContent({ type: 'channel', id: 'c1', owner: 'alice', title: 'C1' });
    await store.addContent({ type: 'vod', id: 'x', owner: 'bob', title: 'Bob VOD' });
    await store.addContent({ type: 'channel', id: 'x', owner: 'bob', title: 'Bob channel' });
    const renamed = await store.addContent({ type: 'playlist', id: 'p1', owner: 'alice', title: 'P1 renamed' });
    assert.equal(renamed.title, 'P1 renamed');
    assert.equal((await store.getContent('playlist', 'p1'))!.title, 'P1 renamed');
    assert.equal(await store.getContent('vod', 'p1'), undefined);
    const byId = await store.contentByIds(['x', 'x', 'p1', 'c1', 'missing']);
    assert.deepEqual(byId.map((r) => `${r.type}:${r.id}:${r.owner}`).sort(), ['channel:c1:alice', 'channel:x:bob', 'vod:x:bob']);
    assert.deepEqual(await store.contentByIds([]), []);
    // Same created_at is possible within a millisecond: insertion order breaks the tie.
    assert.deepEqual((await store.library('alice', { limit: 10 })).items.map((r) => r.id), ['c1', 'p1']);
    assert.deepEqual((await store.library('bob', { limit: 10 })).items.map((r) => `${r.type}:${r.id}`), ['channel:x', 'vod:x']);
    assert.deepEqual(await store.library('nobody', { limit: 10 }), { items: [], next: null });
    // In pages: a cursor after each page but the last, which ends where the order ends.
    for (let i = 0; i < 5; i++) await store.addContent({ type: 'vod', id: `v${i}`, owner: 'alice', title: `V${i}` });
    const first = await store.library('alice', { limit: 3 });
    assert.deepEqual(first.items.map((r) => r.id), ['v4', 'v3', 'v2']);
    const second = await store.library('alice', { limit: 3, after: first.next! });
    assert.deepEqual(second.items.map((r) => r.id), ['v1', 'v0', 'c1']);
    assert.deepEqual(await store.library('alice', { limit: 3, after: second.next! }), { items: [(await store.getContent('playlist', 'p1'))!], next: null });
  });

  it('replaces the saved item types of a playlist', async () => {
    const [store] = await instances();
    await store.savePlaylistTypes('p1', [{ id: 'a', type: 'vod' }, { id: 'b', type: 'channel' }]);
    await store.savePlaylistTypes('p2', [{ id: 'a', type: 'channel' }]);
    assert.deepEqual([...(await store.playlistTypes('p1'))], [['a', 'vod'], ['b', 'channel']].sort());
    await store.savePlaylistTypes('p1', [{ id: 'b', type: 'vod' }]);
    assert.deepEqual([...(await store.playlistTypes('p1'))], [['b', 'vod']]);
    assert.deepEqual([...(await store.playlistTypes('p2'))], [['a', 'channel']]);
    assert.equal((await store.playlistTypes('none')).size, 0);
  });

  it('runs one holder of a playlist lock at a time across instances, others in parallel, and goes on after a failure', async () => {
    const [a, b] = await instances();
    const trace: string[] = [];
    const hold = (store: Store, playlist: string, name: string, fail = false) =>
      store.withPlaylistLock(playlist, async () => {
        trace.push(`${name}+`);
        // Queries while holding it (the lock must not starve the store of connections).
        await Promise.all(Array.from({ length: 8 }, () => store.playlistTypes(playlist)));
        await new Promise((resolve) => setTimeout(resolve, 30));
        trace.push(`${name}-`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([hold(a, 'p1', 'a1', true), hold(b, 'p1', 'b1'), hold(a, 'p1', 'a2'), hold(b, 'p1', 'b2')]);
    assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), ['a1 failed', 'b1', 'a2', 'b2']);
    for (let i = 0; i < trace.length; i += 2) assert.equal(trace[i]!.slice(0, -1), trace[i + 1]!.slice(0, -1), `one holder at a time: ${trace.join(' ')}`);
    // Different playlists do not wait for each other (12 at once, more than a pool holds).
    trace.length = 0;
    await Promise.all(Array.from({ length: 12 }, (_, i) => hold(i % 2 ? a : b, `q${i}`, `q${i}`)));
    assert.ok(trace.indexOf('q0-') > trace.indexOf('q1+'), `in parallel: ${trace.join(' ')}`);
  });

  it('keeps the consistency state of playlists for every instance: written, replaced only if unchanged, pruned', async () => {
    const [a, b] = await instances();
    assert.deepEqual(await b.playlistPending('p1'), {});
    await a.setPlaylistPending('p1', 'created', { data: '{"c":1}', at: 1000 });
    await a.setPlaylistPending('p1', 'save', { data: '{"s":1}', at: 2000 });
    await a.setPlaylistPending('p2', 'save', { data: '{"s":2}', at: 5000 });
    assert.deepEqual(await b.playlistPending('p1'), { created: { data: '{"c":1}', at: 1000 }, save: { data: '{"s":1}', at: 2000 } });
    await b.setPlaylistPending('p1', 'save', { data: '{"s":3}', at: 3000 });
    // A replacement written over what another instance has replaced meanwhile changes nothing.
    await a.replacePlaylistPending('p1', 'save', '{"s":1}', '{"s":1,"applied":"x"}');
    await a.replacePlaylistPending('p1', 'save', '{"s":1}', null);
    assert.deepEqual((await a.playlistPending('p1')).save, { data: '{"s":3}', at: 3000 });
    await a.replacePlaylistPending('p1', 'save', '{"s":3}', '{"s":3,"applied":"x"}');
    assert.deepEqual((await b.playlistPending('p1')).save, { data: '{"s":3,"applied":"x"}', at: 3000 });
    await b.replacePlaylistPending('p1', 'save', '{"s":3,"applied":"x"}', null);
    assert.deepEqual(await a.playlistPending('p1'), { created: { data: '{"c":1}', at: 1000 } });
    await b.prunePlaylistPending(5000);
    assert.deepEqual(await a.playlistPending('p1'), {});
    assert.deepEqual(await a.playlistPending('p2'), { save: { data: '{"s":2}', at: 5000 } });
  });

  it('numbers events from one monotonic sequence across instances, and pages them per owner', async () => {
    const [a, b] = await instances();
    const seqs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const store = i % 2 ? b : a;
      seqs.push((await store.createUpload(upload(`u${i}`, i < 4 ? 'alice' : 'bob'))).event.seq);
    }
    assert.deepEqual([...seqs].sort((x, y) => x - y), seqs, 'increasing across instances');
    assert.deepEqual((await a.eventsAfter('alice', 0)).map((e) => e.seq), seqs.slice(0, 4));
    assert.deepEqual((await b.eventsAfter('alice', seqs[1]!, 1)).map((e) => e.seq), [seqs[2]]);
    assert.deepEqual((await b.eventsAfter('bob', 0)).map((e) => e.data.upload_id), ['u4', 'u5']);
  });

  it('feeds every committed event, once each and in order, to subscribers of every instance', async () => {
    const [a, b] = await instances();
    const onA = collect(a);
    const onB = collect(b);
    const stored: number[] = [];
    // Writes from both instances at once: the feed must still come out in seq order.
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const store = i % 2 ? b : a;
        const { event } = await store.createUpload(upload(`u${i}`, i % 3 ? 'alice' : 'bob'));
        stored.push(event.seq);
        const marked = await store.markUploaded(`u${i}`);
        stored.push(marked.event!.seq);
      }),
    );
    stored.sort((x, y) => x - y);
    await onA.until(40);
    await onB.until(40);
    assert.deepEqual(onA.events.map((e) => e.seq), stored);
    assert.deepEqual(onB.events.map((e) => e.seq), stored);
    assert.deepEqual(onB.events, await Promise.all(onB.events.map(async (e) => (await a.eventsAfter(e.owner, e.seq - 1, 1))[0]!)));
    onA.unsubscribe();
    await b.createUpload(upload('after'));
    await onB.until(41);
    assert.equal(onA.events.length, 40, 'unsubscribed');
  });

  it("says where a replay stands: the newest and oldest ids, and the owner's own newest", async () => {
    const [a, b] = await instances();
    assert.deepEqual(await a.eventBounds('alice'), { newest: 0, oldest: 0, own: 0 });
    const first = (await a.createUpload(upload('u1', 'alice'))).event.seq;
    const second = (await b.createUpload(upload('u2', 'bob'))).event.seq;
    const third = (await b.markUploaded('u2')).event!.seq;
    assert.deepEqual(await b.eventBounds('alice'), { newest: third, oldest: first, own: first });
    assert.deepEqual(await a.eventBounds('bob'), { newest: third, oldest: first, own: third });
    assert.deepEqual(await a.eventBounds('carol'), { newest: third, oldest: first, own: 0 });
    assert.ok(second < third);
  });

  it('skips a corrupt event row (logged) and fills the page from the rows after it', async () => {
    const database = await kind.database(tmp());
    const logs = logCapture();
    // SQLite's class itself: runSql writes through its connection (it holds its file exclusively).
    const store = kind.name === 'sqlite' ? new SqliteStore(database, { log: createLogger(logs.sink, []) }) : openStore(database, { log: createLogger(logs.sink, []) });
    opened.push(store);
    await store.ready;
    const before = (await store.createUpload(upload('u1'))).event.seq;
    await runSql(kind, database, 'INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?)', ['alice', '{"upload_id":"u1",', new Date().toISOString()], store);
    await runSql(kind, database, 'INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?)', ['alice', 'null', new Date().toISOString()], store);
    await store.markUploaded('u1');
    await store.createUpload(upload('u2'));
    const replay = await store.eventsAfter('alice', 0);
    assert.deepEqual(replay.map((e) => [e.data.upload_id, e.data.state]), [['u1', 'signed'], ['u1', 'processing'], ['u2', 'signed']]);
    const page = await store.eventsAfter('alice', before, 2);
    assert.deepEqual(page.map((e) => [e.data.upload_id, e.data.state]), [['u1', 'processing'], ['u2', 'signed']], 'two events after the bad rows, not a short page');
    const bad = logs.lines.map((line) => JSON.parse(line)).filter((entry) => entry.event === 'event_row_invalid');
    // Each read that meets them logs them (with PostgreSQL the event listener reads them too).
    assert.deepEqual([...new Set(bad.map((entry) => entry.seq))].sort((x, y) => x - y), [before + 1, before + 2]);
    assert.ok(bad.length >= 4, `logged ${bad.length} times`);
  });

  it('prunes events older than the cutoff as a prefix of ids, and failed uploads signed before it', async () => {
    const [a, b] = await instances();
    await a.createUpload(upload('failed'));
    await a.createUpload(upload('ready'));
    await a.completeUpload(hashToken('token-ready'), { id: 'v1', title: 'Ready' });
    await a.createUpload(upload('waiting'));
    await sleep(5);
    const cutoff = new Date().toISOString();
    await sleep(5);
    await a.failExpiredUploads(new Date(Date.parse(cutoff) - 2).toISOString()); // 'failed' and 'waiting' fail, after the cutoff
    const kept = await a.eventsAfter('alice', 0);
    const pruned = await b.prune(cutoff);
    assert.deepEqual(pruned, { events: 4, uploads: 2 });
    assert.deepEqual(await a.eventsAfter('alice', 0), kept.slice(4), 'the failed events are newer than the cutoff');
    assert.equal((await a.eventBounds('alice')).oldest, kept[4]!.seq);
    assert.equal(await a.getUpload('failed'), undefined);
    assert.equal(await a.getUpload('waiting'), undefined);
    assert.equal((await a.getUpload('ready'))!.vodId, 'v1', 'a completed upload is kept');
    assert.equal((await a.getContent('vod', 'v1'))!.owner, 'alice');
    assert.deepEqual(await a.prune(cutoff), { events: 0, uploads: 0 });
    const later = new Date(Date.now() + 1000).toISOString();
    assert.deepEqual(await a.prune(later), { events: 2, uploads: 0 }, 'every event is older: all go');
    assert.deepEqual(await a.eventBounds('alice'), { newest: 0, oldest: 0, own: 0 });
    const next = (await a.createUpload(upload('next'))).event.seq;
    assert.ok(next > kept.at(-1)!.seq, 'ids go on after a prune');
  });

  it('runs migrations once when several instances start together, and reopens with the data', async () => {
    const database = await kind.database(tmp());
    const stores = kind.name === 'sqlite' ? [await open(database)] : await Promise.all([open(database), open(database), open(database)]);
    await stores[0]!.createUpload(upload('kept'));
    await Promise.all(stores.map((store) => store.close()));
    const again = await open(database);
    assert.equal((await again.getUpload('kept'))!.source, 'kept.mp4');
    assert.equal((await again.eventsAfter('alice', 0)).length, 1);
  });

  if (kind.name === 'postgres') {
    it('re-establishes a lost listening connection and delivers the events stored meanwhile: no gap, no duplicate, in order', async () => {
      const database = await kind.database();
      const [listening, writing] = [await open(database), await open(database)];
      const feed = collect(listening);
      const first = await writing.createUpload(upload('before'));
      await feed.until(1);
      const admin = new pg.Client({ connectionString: database });
      await admin.connect();
      try {
        const ours = 'application_name = $1 AND datname = current_database()';
        const listeners = async () =>
          (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE ${ours} ORDER BY pid`, [LISTENER_NAME])).rows.map((r) => r.pid);
        const before = await listeners();
        assert.equal(before.length, 2, 'one listening connection per instance');
        // Cut both instances' listeners while events keep being stored.
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${ours}`, [LISTENER_NAME]);
        const meanwhile: number[] = [];
        for (let i = 0; i < 5; i++) meanwhile.push((await writing.createUpload(upload(`meanwhile${i}`))).event.seq);
        await feed.until(6);
        const later = await writing.createUpload(upload('later'));
        await feed.until(7);
        // Events arrive in order: once a marker stored after them has, a duplicate would have too.
        const marker = await writing.createUpload(upload('marker'));
        await feed.until(8);
        assert.deepEqual(feed.events.map((e) => e.seq), [first.event.seq, ...meanwhile, later.event.seq, marker.event.seq]);
        const now = await listeners();
        assert.equal(now.length, 2);
        assert.ok(now.every((pid) => !before.includes(pid)), 'new listening connections');
      } finally {
        await admin.end();
      }
    });

    it('delivers nothing a notification says: forged ones from a role without grants move no cursor and reach no subscriber', async () => {
      const database = await kind.database();
      const [writing, listening] = [await open(database), await open(database)];
      const feed = collect(listening);
      const first = await writing.createUpload(upload('real-before'));
      await feed.until(1);
      const role = `intruder_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: database });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN`).finally(() => admin.end());
      const url = new URL(database);
      url.username = role;
      const intruder = new pg.Client({ connectionString: url.href });
      await intruder.connect();
      try {
        await assert.rejects(intruder.query('SELECT * FROM events'), /permission denied/, 'the role has no grant on the tables');
        const fake = (seq: number, id: string) => JSON.stringify({ seq, owner: 'alice', data: { upload_id: id, source: 'fake.mp4', state: 'ready', vod: { id: 'v-fake', title: 'Fake' } } });
        await intruder.query('SELECT pg_notify($1, $2)', [CHANNEL, fake(4_000_000_000_000_000, 'fake-far')]);
        await intruder.query('SELECT pg_notify($1, $2)', [CHANNEL, fake(first.event.seq + 1, 'fake-next')]);
        await intruder.query('SELECT pg_notify($1, $2)', [CHANNEL, '{"seq":']);
      } finally {
        await intruder.end();
      }
      const real = await writing.createUpload(upload('real-after'));
      const deadline = Date.now() + 5000;
      while (!feed.events.some((e) => e.seq === real.event.seq) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 200)); // a late forged delivery would arrive now
      assert.deepEqual(feed.events.map((e) => e.data.upload_id), ['real-before', 'real-after']);
      assert.deepEqual(feed.events, [first.event, real.event]);
    });

    it('passes over an event row it cannot read and goes on with the next ones', async () => {
      const database = await kind.database();
      const [writing, listening] = [await open(database), await open(database)];
      const feed = collect(listening);
      const first = await writing.createUpload(upload('before-bad'));
      await feed.until(1);
      const admin = new pg.Client({ connectionString: database });
      await admin.connect();
      try {
        for (const data of ['{"upload_id":', 'null']) {
          await admin.query(`INSERT INTO events (owner, data, created_at) VALUES ('alice', $1, 'x')`, [data]);
          await admin.query(`NOTIFY ${CHANNEL}`);
        }
      } finally {
        await admin.end();
      }
      const after = await writing.createUpload(upload('after-bad'));
      await feed.until(2);
      assert.deepEqual(feed.events, [first.event, after.event]);
    });

    it('reads the table again by itself when a read after a notification failed', async () => {
      const database = await kind.database();
      const writing = await open(database);
      const listening = new PostgresStore(database);
      opened.push(listening);
      await listening.ready;
      const feed = collect(listening);
      const query = listening.pool.query.bind(listening.pool);
      let failed = 0;
      listening.pool.query = ((...args: Parameters<typeof query>) => {
        if (failed === 0 && String(args[0]).includes('FROM events')) {
          failed++;
          return Promise.reject(new Error('the database is away'));
        }
        return query(...args);
      }) as typeof listening.pool.query;
      const stored = await writing.createUpload(upload('after-failure'));
      await feed.until(1);
      assert.equal(failed, 1);
      assert.deepEqual(feed.events, [stored.event]);
    });

    it('carries an event too large for a notification by reading it from the table', async () => {
      const [a, b] = await instances();
      const feed = collect(b);
      const big = { ...upload('big'), source: 'x'.repeat(255) };
      await a.createUpload(big);
      const title = 'é'.repeat(4000); // 8,000 bytes in UTF-8: more than a notification may carry
      await a.completeUpload(big.tokenHash, { id: 'vbig', title });
      await a.createUpload(upload('small'));
      await feed.until(3);
      assert.deepEqual(feed.events.map((e) => e.data.state), ['signed', 'ready', 'signed']);
      assert.equal(feed.events[1]!.data.vod!.title, title);
    });

    it('finds the records of 500 ids with one query', async () => {
      const store = new PostgresStore(await kind.database());
      opened.push(store);
      await store.ready;
      const ids = Array.from({ length: 500 }, (_, i) => `id${i}`);
      for (const id of ids.slice(0, 3)) await store.addContent({ type: 'vod', id, owner: 'alice', title: id });
      await store.addContent({ type: 'channel', id: 'id1', owner: 'bob', title: 'c' });
      await store.addContent({ type: 'playlist', id: 'id2', owner: 'alice', title: 'p' });
      const query = store.pool.query.bind(store.pool);
      let queries = 0;
      store.pool.query = ((...args: Parameters<typeof query>) => (queries++, query(...args))) as typeof store.pool.query;
      const found = await store.contentByIds([...ids, 'id0']);
      assert.equal(queries, 1);
      assert.deepEqual(found.map((r) => `${r.type}:${r.id}:${r.owner}`).sort(), ['channel:id1:bob', 'vod:id0:alice', 'vod:id1:alice', 'vod:id2:alice']);
    });

    it('prunes on one instance at a time: another that finds the retention lock taken skips', async () => {
      const database = await kind.database();
      const store = await open(database);
      await store.createUpload(upload('u1'));
      const other = new pg.Client({ connectionString: database });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1, $2)', [0x73766372, 3]);
        const later = new Date(Date.now() + 1000).toISOString();
        assert.equal(await store.prune(later), undefined);
        assert.equal((await store.eventsAfter('alice', 0)).length, 1, 'nothing deleted');
        await other.query('SELECT pg_advisory_unlock($1, $2)', [0x73766372, 3]);
        assert.deepEqual(await store.prune(later), { events: 1, uploads: 0 });
      } finally {
        await other.end();
      }
    });

    it('gives up waiting for a playlist lock, or for a lock connection, after its wait (LockBusyError), and the lock works after', async () => {
      const database = await kind.database();
      // Pool 2: one lock connection each; a wait of 300 ms.
      const [a, b] = [new PostgresStore(database, { poolSize: 2, lockWaitMs: 300 }), new PostgresStore(database, { poolSize: 2, lockWaitMs: 300 })];
      opened.push(a, b);
      await Promise.all([a.ready, b.ready]);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const holding = a.withPlaylistLock('p1', async () => (entered(), held));
      await inside;
      // Another instance waits for the lock held by A; A itself has no second lock connection for p2.
      await assert.rejects(b.withPlaylistLock('p1', async () => 'b'), LockBusyError);
      await assert.rejects(a.withPlaylistLock('p2', async () => 'a'), LockBusyError);
      release();
      await holding;
      assert.equal(await b.withPlaylistLock('p1', async () => 'b'), 'b');
      assert.equal(await a.withPlaylistLock('p2', async () => 'a'), 'a');
    });

    it('upgrades a database of the schema before playlist_pending, keeping its data', async () => {
      const database = await kind.database();
      const admin = new pg.Client({ connectionString: database });
      await admin.connect();
      try {
        await admin.query('CREATE TABLE svc_relay_schema (version INTEGER NOT NULL)');
        for (const migration of PG_MIGRATIONS.slice(0, -1)) await admin.query(migration);
        await admin.query('INSERT INTO svc_relay_schema (version) VALUES ($1)', [PG_MIGRATIONS.length - 1]);
        await admin.query(`INSERT INTO content (type, id, owner, title, created_at) VALUES ('playlist', 'p1', 'alice', 'Old', '2024-01-01T00:00:00.000Z')`);
      } finally {
        await admin.end();
      }
      const store = await open(database);
      assert.equal((await store.getContent('playlist', 'p1'))!.title, 'Old');
      await store.setPlaylistPending('p1', 'save', { data: '{}', at: 1 });
      assert.deepEqual(await store.playlistPending('p1'), { save: { data: '{}', at: 1 } });
    });

    it('refuses a database migrated by a newer relay', async () => {
      const database = await kind.database();
      await (await open(database)).close();
      const admin = new pg.Client({ connectionString: database });
      await admin.connect();
      await admin.query('UPDATE svc_relay_schema SET version = $1', [PG_MIGRATIONS.length + 1]).finally(() => admin.end());
      const store = openStore(database);
      await assert.rejects(store.ready, /newer than this relay/);
      await store.close();
    });
  }
});

describe('SQLite file', () => {
  it('migrates a new file to the latest version, in WAL mode, and reopens it unchanged', async () => {
    const path = join(tmp(), 'nested/dir/relay.db');
    const store = new SqliteStore(path);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(store.db.pragma('user_version', { simple: true }), SQLITE_MIGRATIONS.length);
    await store.createUpload(upload('u1'));
    await store.close();
    const again = new SqliteStore(path);
    assert.equal((await again.getUpload('u1'))!.source, 'u1.mp4');
    await again.close();
  });

  it('is held by one relay process: a second one on the same file exits, naming SVC_DATABASE and PostgreSQL', async () => {
    const dir = tmp();
    // The relays never call the service here.
    const env = relayEnv(
      { baseUrl: 'http://127.0.0.1:9/v2', uploadUrl: 'http://127.0.0.1:9/upload', playerUrl: 'http://127.0.0.1:9/', apiKey: 'k-' + randomBytes(12).toString('hex') },
      { SVC_DATABASE: join(dir, 'relay.db') },
    );
    const first = await startCli(RELAY_BIN, [], env, dir);
    try {
      const second = await runCli(RELAY_BIN, [], env, dir);
      assert.equal(second.code, 1, second.stdout + second.stderr);
      assert.doesNotMatch(second.stdout, /"ready"/);
      assert.match(second.stderr, /in use by another relay process/);
      assert.match(second.stderr, /SVC_DATABASE/);
      assert.match(second.stderr, /use PostgreSQL/);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    // Once the first is gone, the file opens again.
    const again = new SqliteStore(join(dir, 'relay.db'));
    await again.close();
  });

  it('upgrades a file of the schema before playlist_pending, keeping its data', async () => {
    const path = join(tmp(), 'relay.db');
    const db = new Database(path);
    for (const migration of SQLITE_MIGRATIONS.slice(0, -1)) db.exec(migration);
    db.pragma(`user_version = ${SQLITE_MIGRATIONS.length - 1}`);
    db.prepare(`INSERT INTO content (type, id, owner, title, created_at) VALUES ('playlist', 'p1', 'alice', 'Old', '2024-01-01T00:00:00.000Z')`).run();
    db.close();
    const store = new SqliteStore(path);
    assert.equal(store.db.pragma('user_version', { simple: true }), SQLITE_MIGRATIONS.length);
    assert.equal((await store.getContent('playlist', 'p1'))!.title, 'Old');
    await store.setPlaylistPending('p1', 'save', { data: '{}', at: 1 });
    assert.deepEqual(await store.playlistPending('p1'), { save: { data: '{}', at: 1 } });
    await store.close();
  });

  it('refuses a database from a newer relay', async () => {
    const path = join(tmp(), 'relay.db');
    const db = new Database(path);
    db.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
    db.close();
    assert.throws(() => new SqliteStore(path), /newer than this relay/);
  });
});
