// The shared store: PostgreSQL through `pg` with a pool (SVC_DATABASE_POOL), for several relay
// instances on one database. Migrations run at start inside one transaction under an advisory
// lock, so instances that start together take turns and the later ones find the work done.
// Event ids come from one identity column; an advisory lock held from an event's insert to its
// commit makes commit order equal id order, so no reader that has seen id N finds a smaller id
// later. Each event's transaction sends an empty NOTIFY (delivered on commit), which wakes
// PgEventListener on every instance, this one included: it reads the new events from the table
// and is this store's event feed.
import pg from 'pg';
import type { Logger } from '../log.js';
import { LockBusyError, uploadState, type CallbackOutcome, type ContentRecord, type LibraryCursor, type OwnedType, type PendingKind, type PendingRecord, type PlaylistLock, type Store, type StoredEvent, type UploadRecord } from './store.js';
import { EventFeed, SQL, eventPage, judgeCallback, libraryPage, libraryQuery, now, numbered, queued, toContent, toPending, toUpload, type ContentRow, type EventRow, type PendingRow, type UploadTableRow } from './shared.js';
import { CHANNEL, PgEventListener } from './pg-listener.js';

/** Migration N brings the schema from version N to N+1. Append only; never edit a shipped one. */
export const MIGRATIONS: string[] = [
  `CREATE TABLE uploads (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     source TEXT NOT NULL,
     token_hash BYTEA NOT NULL UNIQUE,
     state TEXT NOT NULL,
     vod_id TEXT,
     vod_title TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX uploads_owner ON uploads(owner);
   CREATE TABLE content (
     type TEXT NOT NULL,
     id TEXT NOT NULL,
     owner TEXT NOT NULL,
     title TEXT NOT NULL,
     created_at TEXT NOT NULL,
     rowid BIGINT GENERATED ALWAYS AS IDENTITY,
     PRIMARY KEY (type, id)
   );
   CREATE INDEX content_owner ON content(owner, created_at);
   CREATE TABLE events (
     seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     owner TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX events_owner ON events(owner, seq);
   CREATE TABLE playlist_item_types (
     playlist_id TEXT NOT NULL,
     item_id TEXT NOT NULL,
     type TEXT NOT NULL,
     PRIMARY KEY (playlist_id, item_id)
   );`,
  // Uploads whose callback token expires while they wait (failExpiredUploads).
  `CREATE INDEX uploads_pending ON uploads(state, created_at);`,
  // The consistency state of playlists (creates and saves the service may not show yet).
  `CREATE TABLE playlist_pending (
     playlist_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     data TEXT NOT NULL,
     at BIGINT NOT NULL,
     PRIMARY KEY (playlist_id, kind)
   );
   CREATE INDEX playlist_pending_at ON playlist_pending(at);`,
];

/** Advisory lock keys: (class, key) pairs of this relay ('svcr'). */
const LOCK_CLASS = 0x73766372;
const LOCK = { migrate: 1, events: 2, retention: 3 } as const;
const LOCK_PLAYLIST_CLASS = LOCK_CLASS + 1;
/** The lock of a whole playlist save (withPlaylistLock), apart from the one savePlaylistTypes takes inside it. */
const LOCK_SAVE_CLASS = LOCK_CLASS + 2;

/** Taken from an event's insert to its commit (and by the migration copy): ids commit in order. */
export async function lockEvents(client: pg.ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK.events]);
}

/** The statements of store/shared.ts with PostgreSQL's numbered placeholders. */
const Q = Object.fromEntries(Object.entries(SQL).map(([name, text]) => [name, numbered(text)])) as Record<keyof typeof SQL, string>;

/** Applies pending migrations under the migration lock; returns the schema version. */
export async function migrate(client: pg.ClientBase): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK.migrate]);
    await client.query('CREATE TABLE IF NOT EXISTS svc_relay_schema (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM svc_relay_schema');
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new Error(`The relay database has schema version ${current}, newer than this relay (${MIGRATIONS.length}).`);
    }
    for (const migration of MIGRATIONS.slice(current)) await client.query(migration);
    if (!rows.length) await client.query('INSERT INTO svc_relay_schema (version) VALUES ($1)', [MIGRATIONS.length]);
    else await client.query('UPDATE svc_relay_schema SET version = $1', [MIGRATIONS.length]);
    await client.query('COMMIT');
    return MIGRATIONS.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

export interface PostgresStoreOptions {
  /** Connections in the pool (SVC_DATABASE_POOL). Default 10. */
  poolSize?: number;
  /** How long a save waits for its playlist's lock, or for a connection to take it on. Default 20 000 ms. */
  lockWaitMs?: number;
  log?: Logger;
}

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  readonly ready: Promise<void>;
  readonly #feed = new EventFeed();
  readonly #listener: PgEventListener;
  /**
   * Connections that hold playlist locks (withPlaylistLock), apart from the pool: the queries made
   * while a lock is held must never wait for a connection that a lock holder keeps.
   */
  readonly #locks: pg.Pool;
  /** The last save queued per playlist in this process (one lock connection per playlist at a time). */
  readonly #queue = new Map<string, Promise<unknown>>();
  readonly #lockWaitMs: number;
  readonly #log: Logger | undefined;
  #closed: Promise<void> | undefined;

  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.#log = options.log;
    const poolSize = options.poolSize ?? 10;
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'svc-relay' });
    this.#lockWaitMs = options.lockWaitMs ?? 20_000;
    this.#log = options.log;
    this.#locks = new pg.Pool({
      connectionString: url,
      max: Math.ceil(poolSize / 2),
      application_name: 'svc-relay-lock',
      connectionTimeoutMillis: this.#lockWaitMs,
      lock_timeout: this.#lockWaitMs,
    });
    // An idle pooled connection that the server drops must not end the process; the next query reconnects.
    for (const pool of [this.pool, this.#locks]) pool.on('error', (error) => options.log?.warn('database_connection_lost', { error: error.message }));
    this.#listener = new PgEventListener(url, this.pool, (event) => this.#feed.emit(event), options.log);
    this.ready = this.#start();
    this.ready.catch(() => {}); // reported to whoever awaits it (the CLI, each query)
  }

  async #start() {
    const client = await this.pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
    await this.#listener.start();
  }

  subscribe(listener: (event: StoredEvent) => void) {
    return this.#feed.subscribe(listener);
  }

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.ready;
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready;
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Stores and NOTIFYs an event; the lock is held until commit, so ids commit in order. */
  async #event(client: pg.PoolClient, upload: UploadRecord): Promise<StoredEvent> {
    const data = uploadState(upload);
    await lockEvents(client);
    const { rows } = await client.query<{ seq: string }>(Q.insertEvent, [upload.owner, JSON.stringify(data), now()]);
    const event = { seq: Number(rows[0]!.seq), owner: upload.owner, data };
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, '']);
    return event;
  }

  async #upload(client: pg.PoolClient, id: string): Promise<UploadRecord | undefined> {
    const { rows } = await client.query<UploadTableRow>(Q.uploadById, [id]);
    return rows[0] && toUpload(rows[0]);
  }

  async createUpload(input: { id: string; owner: string; source: string; tokenHash: Buffer }) {
    return this.#transaction(async (client) => {
      const at = now();
      await client.query(Q.insertUpload, [input.id, input.owner, input.source, input.tokenHash, at, at]);
      const upload = (await this.#upload(client, input.id))!;
      return { upload, event: await this.#event(client, upload) };
    });
  }

  async getUpload(id: string) {
    const [row] = await this.#query<UploadTableRow>(Q.uploadById, [id]);
    return row && toUpload(row);
  }

  async markUploaded(id: string) {
    return this.#transaction(async (client): Promise<{ upload: UploadRecord; event?: StoredEvent }> => {
      const changed = (await client.query(Q.markUploaded, [now(), id])).rowCount;
      const upload = await this.#upload(client, id);
      if (!upload) throw new Error(`unknown upload ${id}`);
      return changed ? { upload, event: await this.#event(client, upload) } : { upload };
    });
  }

  async uploadByToken(tokenHash: Buffer) {
    const [row] = await this.#query<UploadTableRow>(Q.uploadByToken, [tokenHash]);
    return row && toUpload(row);
  }

  async failExpiredUploads(createdBefore: string) {
    return this.#transaction(async (client) => {
      const { rows } = await client.query<{ id: string }>(`${Q.pendingBefore} FOR UPDATE`, [createdBefore]);
      const events: StoredEvent[] = [];
      for (const { id } of rows) {
        // Another instance may have failed it (or its callback completed it) first: no second event.
        if (!(await client.query(Q.failUpload, [now(), id])).rowCount) continue;
        events.push(await this.#event(client, (await this.#upload(client, id))!));
      }
      return events;
    });
  }

  async completeUpload(tokenHash: Buffer, vod: { id: string; title: string }): Promise<CallbackOutcome> {
    return this.#transaction(async (client): Promise<CallbackOutcome> => {
      // FOR UPDATE: a second delivery of the same callback (at any instance) waits here, then
      // reads the row as the first one committed it, and is judged a duplicate.
      const { rows } = await client.query<UploadTableRow>(`${Q.uploadByToken} FOR UPDATE`, [tokenHash]);
      const judged = judgeCallback(rows[0], vod.id);
      if (judged.status !== 'store') return judged;
      const at = now();
      await client.query(Q.completeUpload, [vod.id, vod.title, at, judged.row.id]);
      await client.query(Q.insertVod, [vod.id, judged.row.owner, vod.title, at]);
      const upload = (await this.#upload(client, judged.row.id))!;
      return { status: 'stored', upload, event: await this.#event(client, upload) };
    });
  }

  async addContent(record: Omit<ContentRecord, 'createdAt'>) {
    await this.#query(Q.upsertContent, [record.type, record.id, record.owner, record.title, now()]);
    return (await this.getContent(record.type, record.id))!;
  }

  async getContent(type: OwnedType, id: string) {
    const [row] = await this.#query<ContentRow>(Q.contentByKey, [type, id]);
    return row && toContent(row);
  }

  async contentByIds(ids: string[]) {
    if (!ids.length) return [];
    // One statement for the whole list (a save can name hundreds of items).
    const rows = await this.#query<ContentRow>(`SELECT * FROM content WHERE type IN ('vod', 'channel') AND id = ANY($1::text[])`, [[...new Set(ids)]]);
    return rows.map(toContent);
  }

  async savePlaylistTypes(playlistId: string, items: { id: string; type: 'vod' | 'channel' }[]) {
    await this.#transaction(async (client) => {
      // Two saves of one playlist at once (two instances) must not mix their lists.
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_PLAYLIST_CLASS, playlistId]);
      await client.query(Q.deletePlaylistTypes, [playlistId]);
      for (const item of items) await client.query(Q.insertPlaylistType, [playlistId, item.id, item.type]);
    });
  }

  async playlistTypes(playlistId: string) {
    const rows = await this.#query<{ item_id: string; type: 'vod' | 'channel' }>(Q.playlistTypes, [playlistId]);
    return new Map(rows.map((row) => [row.item_id, row.type]));
  }

  async withPlaylistLock<T>(playlistId: string, work: (lock: PlaylistLock) => Promise<T>): Promise<T> {
    await this.ready;
    // Saves of one playlist take turns here first: each holds at most one lock connection.
    return queued(this.#queue, playlistId, async () => {
      const client = await this.#locks.connect().catch((error: Error) => {
        throw new LockBusyError(`No connection for the playlist's lock within ${this.#lockWaitMs} ms (${error.message}).`);
      });
      // A connection that drops while it is held (terminated, network) must not end the process:
      // the lock is gone with it, and so is every write made through `lock` from then on.
      let lost: Error | undefined;
      let done = false;
      const onError = (error: Error) => {
        if (done) return;
        lost ??= error;
        this.#log?.warn('playlist_lock_lost', { playlist_id: playlistId, error: error.message });
      };
      client.on('error', onError);
      const key = [LOCK_SAVE_CLASS, playlistId];
      let locked = false;
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', key).catch((error: { code?: string; message?: string }) => {
          if (error?.code === '55P03') throw new LockBusyError(`Another save of this playlist held its lock for more than ${this.#lockWaitMs} ms.`);
          throw error;
        });
        locked = true;
        const write = async (sql: string, params: unknown[]) => {
          if (lost) throw new Error(`The playlist's lock was lost: ${lost.message}`);
          await client.query(sql, params);
        };
        return await work({
          held: () => !lost,
          setPending: (kind, record) => write(Q.setPlaylistPending, [playlistId, kind, record.data, record.at]),
          replacePending: (kind, expected, next) =>
            next === null ? write(Q.deletePlaylistPending, [playlistId, kind, expected]) : write(Q.updatePlaylistPending, [next, playlistId, kind, expected]),
        });
      } finally {
        // A connection that cannot unlock is closed, which releases the lock.
        const unlocked = !locked || (!lost && (await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', key).then(() => true, () => false)));
        done = true;
        const destroy = !unlocked || lost !== undefined;
        client.release(destroy);
        // A pooled connection gets the pool's own listener back; a closed one keeps this (now silent) one.
        if (!destroy) client.off('error', onError);
      }
    });
  }

  async playlistPending(playlistId: string) {
    return toPending(await this.#query<PendingRow>(Q.playlistPending, [playlistId]));
  }

  async setPlaylistPending(playlistId: string, kind: PendingKind, record: PendingRecord) {
    await this.#query(Q.setPlaylistPending, [playlistId, kind, record.data, record.at]);
  }

  async replacePlaylistPending(playlistId: string, kind: PendingKind, expected: string, next: string | null) {
    if (next === null) await this.#query(Q.deletePlaylistPending, [playlistId, kind, expected]);
    else await this.#query(Q.updatePlaylistPending, [next, playlistId, kind, expected]);
  }

  async prunePlaylistPending(before: number) {
    await this.#query(Q.prunePlaylistPending, [before]);
  }

  async library(owner: string, page: { limit: number; after?: LibraryCursor }) {
    const [sql, params] = libraryQuery(owner, page);
    return libraryPage(await this.#query<ContentRow & { rowid: string }>(numbered(sql), params), page.limit);
  }

  async eventsAfter(owner: string, seq: number, limit = 1000) {
    return eventPage((after, wanted) => this.#query<EventRow>(Q.eventsAfter, [owner, after, wanted]), seq, limit, this.#log);
  }

  async eventBounds(owner: string) {
    const [row] = await this.#query<{ newest: string; oldest: string; own: string }>(Q.eventBounds, [owner]);
    return { newest: Number(row!.newest), oldest: Number(row!.oldest), own: Number(row!.own) };
  }

  async prune(before: string) {
    return this.#transaction(async (client) => {
      // One instance prunes at a time; the others find the lock taken and skip this round.
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS locked', [LOCK_CLASS, LOCK.retention]);
      if (!rows[0]!.locked) return undefined;
      const kept = (await client.query<{ seq: string }>(Q.firstKeptEvent, [before])).rows[0];
      const events = kept ? await client.query(Q.pruneEventsBefore, [kept.seq]) : await client.query(Q.pruneAllEventsBefore, [before]);
      const uploads = await client.query(Q.pruneFailedUploads, [before]);
      return { events: events.rowCount ?? 0, uploads: uploads.rowCount ?? 0 };
    });
  }

  async lastEventSeq() {
    const [row] = await this.#query<{ seq: string }>(Q.lastEventSeq, []);
    return Number(row?.seq ?? 0);
  }

  close() {
    return (this.#closed ??= (async () => {
      await this.ready.catch(() => {});
      await this.#listener.close();
      await Promise.all([this.pool.end(), this.#locks.end()]);
    })());
  }
}
