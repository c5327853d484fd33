// Issue 25: event replays over HTTP that say only the caller's own activity, go on past a corrupt
// row and past retention, and a database that stays flat under a steady load of uploads that are
// signed and never sent.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import pg from 'pg';
import { openStore } from '../../src/relay/store/open.js';
import type { Store } from '../../src/relay/store/store.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { numbered } from '../../src/relay/store/shared.js';
import { createLogger } from '../../src/relay/log.js';
import { startStack } from '../support/servers.js';
import { SseReader, describeStores, json, logCapture, offlineOptions, startRelay, type RelayServer, type StoreKind } from './helpers.js';

const upload = (id: string, owner: string) => ({ id, owner, source: `${id}.mp4`, tokenHash: hashToken(`token-${id}`) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Row counts of the relay's growing tables, read beside the relay. */
/**
 * The relay's own SQLite handle: the relay holds its file exclusively (one process per file), so
 * what a test reads or writes behind its back goes through the store's connection.
 */
const sqliteOf = (store: Store) => (store as SqliteStore).db;

/** The store createRelay would open, SQLite's as its class itself (sqliteOf reads its connection). */
const openDirect = (kind: StoreKind, database: string, options: { log?: ReturnType<typeof createLogger> } = {}): Store =>
  kind.name === 'sqlite' ? new SqliteStore(database, options) : openStore(database, options);

/** The bytes a SQLite database uses (its pages less the free ones), WAL included: what it would take on disk. */
function sqliteUsedBytes(store: Store): number {
  const db = sqliteOf(store);
  const pages = (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  return pages * (db.pragma('page_size', { simple: true }) as number);
}

async function rowCounts(kind: StoreKind, database: string, store: Store): Promise<{ uploads: number; events: number }> {
  const sql = 'SELECT (SELECT COUNT(*) FROM uploads) AS uploads, (SELECT COUNT(*) FROM events) AS events';
  if (kind.name === 'sqlite') return sqliteOf(store).prepare(sql).get() as { uploads: number; events: number };
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ uploads: string; events: string }>(sql);
    return { uploads: Number(rows[0]!.uploads), events: Number(rows[0]!.events) };
  } finally {
    await client.end();
  }
}

async function insertRawEvent(kind: StoreKind, database: string, store: Store, owner: string, data: string) {
  const sql = 'INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?)';
  if (kind.name === 'sqlite') {
    sqliteOf(store).prepare(sql).run(owner, data, new Date().toISOString());
    return;
  }
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  await client.query(numbered(sql), [owner, data, new Date().toISOString()]).finally(() => client.end());
}

describeStores('event replay over HTTP', (kind) => {
  let database: string;
  let store: Store;
  let server: RelayServer;
  const logs = logCapture();
  before(async () => {
    database = await kind.database(mkdtempSync(join(tmpdir(), 'relay-replay-')));
    store = openDirect(kind, database, { log: createLogger(logs.sink, []) }); // as createRelay opens it
    await store.ready;
    server = await startRelay((origin) => ({
      ...offlineOptions('replay-key'),
      publicUrl: origin,
      store,
      auth: async (request) => ({ id: request.headers.get('x-user') ?? 'anon' }),
      logger: logs.sink,
    }));
  });
  after(() => server.close());

  const open = async (user: string, lastId: number) =>
    new SseReader(await fetch(`${server.url}/events`, { headers: { 'X-Svc-Request': '1', 'X-User': user, 'Last-Event-ID': String(lastId) } }));

  it("answers a Last-Event-ID ahead of the store with the caller's own newest id, not another user's activity", { timeout: 20_000 }, async () => {
    const own = (await store.createUpload(upload('a1', 'alice'))).event.seq;
    let newest = 0;
    for (let i = 0; i < 3; i++) newest = (await store.createUpload(upload(`b${i}`, 'bob'))).event.seq;
    assert.ok(newest > own);
    const stream = await open('alice', newest + 1000);
    await stream.until(() => stream.events.length > 0, 'the reset');
    assert.deepEqual(stream.events[0], { id: own, event: 'reset', data: { last_event_id: own } });
    const next = (await store.markUploaded('a1')).event!.seq;
    await stream.until(() => stream.events.length > 1, 'the next event');
    assert.deepEqual([stream.events[1]!.id, stream.events[1]!.data.state], [next, 'processing']);
    await stream.close();
  });

  it('skips a corrupt event row (logged) and replays what follows it', { timeout: 20_000 }, async () => {
    const first = (await store.createUpload(upload('c1', 'carol'))).event.seq;
    await insertRawEvent(kind, database, store, 'carol', '{not json');
    const last = (await store.createUpload(upload('c2', 'carol'))).event.seq;
    const stream = await open('carol', 0);
    await stream.until(() => stream.events.some((event) => event.id === last), 'the event after the corrupt row');
    assert.deepEqual(stream.events.map((event) => [event.id, event.data.upload_id]), [[first, 'c1'], [last, 'c2']]);
    assert.ok(logs.lines.some((line) => line.includes('"event_row_invalid"') && line.includes(`"seq":${first + 1}`)), 'logged');
    await stream.close();
  });

  it('answers a Last-Event-ID older than what retention kept with event: reset, then live events', { timeout: 20_000 }, async () => {
    const gone = (await store.createUpload(upload('d1', 'dave'))).event.seq;
    await store.createUpload(upload('d2', 'dave'));
    await sleep(5);
    await store.prune(new Date().toISOString());
    const kept = (await store.createUpload(upload('d3', 'dave'))).event.seq;
    const stream = await open('dave', gone);
    await stream.until(() => stream.events.length > 0, 'the reset');
    assert.deepEqual(stream.events[0], { id: kept, event: 'reset', data: { last_event_id: kept } });
    const next = (await store.markUploaded('d3')).event!.seq;
    await stream.until(() => stream.events.length > 1, 'the next event');
    assert.equal(stream.events[1]!.id, next);
    // A client whose cursor is still kept replays as before.
    const current = await open('dave', kept);
    await current.until(() => current.events.length > 0, 'the replay');
    assert.deepEqual(current.events.map((event) => [event.id, event.event]), [[next, 'upload']]);
    await Promise.all([stream.close(), current.close()]);
  });
});

describeStores('retention under a steady load of uploads signed and never sent', (kind) => {
  it('keeps the row counts (and the SQLite file) flat while uploads keep being signed', async () => {
    const database = await kind.database(mkdtempSync(join(tmpdir(), 'relay-retention-')));
    // Callback lifetime 1 s, retention 2 s: the sweep (every 250 ms) fails and prunes as it goes.
    const store = openDirect(kind, database); // as createRelay opens it; the test reads through it
    await store.ready;
    const stack = await startStack({ relay: { store, callbackTtlS: 1, eventRetentionS: 2, logger: () => {} } });
    try {
      const samples: { uploads: number; events: number; bytes: number }[] = [];
      let signed = 0;
      const started = Date.now();
      // At least 8 s (lifetime + retention + a few sweeps) and 120 uploads, however slow the machine.
      while (Date.now() - started < 8000 || signed < 120) {
        for (let i = 0; i < 5; i++) {
          const response = await fetch(`${stack.relayUrl}/uploads`, json({ source: `never-${signed}.mp4`, size: 1000, type: 'video/mp4' }));
          assert.equal(response.status, 201, await response.text());
          signed++;
        }
        if (samples.length < Math.floor((Date.now() - started) / 1000)) {
          const counts = await rowCounts(kind, database, store);
          samples.push({ ...counts, bytes: kind.name === 'sqlite' ? sqliteUsedBytes(store) : 0 });
        }
        await sleep(100);
      }
      const settled = samples.slice(4); // after the first lifetime + retention
      assert.ok(signed >= 100 && settled.length >= 2, `${signed} signed, ${samples.length} samples`);
      // Without retention every upload stays (and two events each, signed and failed).
      const peak = Math.max(...settled.map((s) => s.uploads));
      assert.ok(peak < signed / 2, `uploads kept: ${JSON.stringify(samples)}, ${signed} signed`);
      assert.ok(Math.max(...settled.map((s) => s.events)) < signed, `events kept: ${JSON.stringify(samples)}`);
      const [first, last] = [settled[0]!, settled.at(-1)!];
      assert.ok(last.uploads <= first.uploads * 2 + 20 && last.events <= first.events * 2 + 40, `flat: ${JSON.stringify(samples)}`);
      if (kind.name === 'sqlite') assert.ok(last.bytes <= first.bytes * 1.5 + 64 * 1024, `file: ${JSON.stringify(samples.map((s) => s.bytes))}`);
    } finally {
      await stack.close();
    }
  });
});
