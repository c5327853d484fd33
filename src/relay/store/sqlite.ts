// The embedded store: SQLite through better-sqlite3, WAL mode, versioned migrations
// (PRAGMA user_version). Every write that the relay acknowledges is committed before it answers.
// One process per file, held with an exclusive lock while open (a second process is refused): its
// event feed and playlist locks are this process's own (several instances need PostgreSQL).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../log.js';
import { uploadState, type CallbackOutcome, type ContentRecord, type EventBounds, type LibraryCursor, type OwnedType, type PendingKind, type PendingRecord, type PlaylistLock, type Store, type StoredEvent, type UploadRecord } from './store.js';
import { EventFeed, SQL, eventPage, judgeCallback, libraryPage, libraryQuery, now, queued, toContent, toPending, toUpload, type ContentRow, type EventRow, type PendingRow, type UploadTableRow } from './shared.js';

/** Migration N brings the schema from version N to N+1. Append only; never edit a shipped one. */
export const MIGRATIONS: string[] = [
  `CREATE TABLE uploads (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     source TEXT NOT NULL,
     token_hash BLOB NOT NULL UNIQUE,
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
     PRIMARY KEY (type, id)
   );
   CREATE INDEX content_owner ON content(owner, created_at);
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     owner TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX events_owner ON events(owner, seq);`,
  // Types users gave to items the relay did not know, once the service accepted the save.
  `CREATE TABLE playlist_item_types (
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
     at INTEGER NOT NULL,
     PRIMARY KEY (playlist_id, kind)
   );
   CREATE INDEX playlist_pending_at ON playlist_pending(at);`,
];

/** Applies pending migrations; returns the schema version. */
export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`The relay database has schema version ${current}, newer than this relay (${MIGRATIONS.length}).`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return MIGRATIONS.length;
}

export class SqliteStore implements Store {
  readonly db: Database.Database;
  readonly ready = Promise.resolve();
  readonly #feed = new EventFeed();
  /** The last task queued per playlist lock. */
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #log: Logger | undefined;

  constructor(path: string, options: { log?: Logger } = {}) {
    this.#log = options.log;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') this.#claim(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
  }

  /**
   * Holds the file for this process until it closes (an exclusive lock, taken by a write at open):
   * a second relay on the same file would lose saves (its playlist locks are this process's own).
   */
  #claim(path: string) {
    try {
      this.db.pragma('busy_timeout = 2000'); // a relay that is still exiting (restart)
      this.db.pragma('locking_mode = EXCLUSIVE');
      this.db.exec('BEGIN IMMEDIATE; COMMIT');
    } catch (error) {
      this.db.close();
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      throw new Error(
        `The SQLite database ${path} (SVC_DATABASE) is in use by another relay process. One relay process per SQLite file: for several instances, use PostgreSQL (a postgres:// URL in SVC_DATABASE).`,
      );
    }
  }

  subscribe(listener: (event: StoredEvent) => void) {
    return this.#feed.subscribe(listener);
  }

  /** Runs `write` in one transaction, then (committed) tells the feed about the event it stored. */
  #commit<T extends object>(write: () => T): T {
    const result = this.db.transaction(write)();
    if ('event' in result && result.event) this.#feed.emit(result.event as StoredEvent);
    return result;
  }

  #event(upload: UploadRecord): StoredEvent {
    const data = uploadState(upload);
    const { seq } = this.db.prepare(SQL.insertEvent).get(upload.owner, JSON.stringify(data), now()) as { seq: number };
    return { seq, owner: upload.owner, data };
  }

  #upload(id: string): UploadRecord | undefined {
    const row = this.db.prepare(SQL.uploadById).get(id) as UploadTableRow | undefined;
    return row && toUpload(row);
  }

  async createUpload(input: { id: string; owner: string; source: string; tokenHash: Buffer }) {
    return this.#commit(() => {
      const at = now();
      this.db.prepare(SQL.insertUpload).run(input.id, input.owner, input.source, input.tokenHash, at, at);
      const upload = this.#upload(input.id)!;
      return { upload, event: this.#event(upload) };
    });
  }

  async getUpload(id: string) {
    return this.#upload(id);
  }

  async markUploaded(id: string) {
    return this.#commit((): { upload: UploadRecord; event?: StoredEvent } => {
      const changed = this.db.prepare(SQL.markUploaded).run(now(), id).changes;
      const upload = this.#upload(id);
      if (!upload) throw new Error(`unknown upload ${id}`);
      return changed ? { upload, event: this.#event(upload) } : { upload };
    });
  }

  async uploadByToken(tokenHash: Buffer) {
    const row = this.db.prepare(SQL.uploadByToken).get(tokenHash) as UploadTableRow | undefined;
    return row && toUpload(row);
  }

  async failExpiredUploads(createdBefore: string) {
    const events = this.db.transaction(() => {
      const rows = this.db.prepare(SQL.pendingBefore).all(createdBefore) as { id: string }[];
      const fail = this.db.prepare(SQL.failUpload);
      return rows.flatMap(({ id }) => (fail.run(now(), id).changes ? [this.#event(this.#upload(id)!)] : []));
    })();
    for (const event of events) this.#feed.emit(event);
    return events;
  }

  async completeUpload(tokenHash: Buffer, vod: { id: string; title: string }): Promise<CallbackOutcome> {
    return this.#commit((): CallbackOutcome => {
      const judged = judgeCallback(this.db.prepare(SQL.uploadByToken).get(tokenHash) as UploadTableRow | undefined, vod.id);
      if (judged.status !== 'store') return judged;
      const at = now();
      this.db.prepare(SQL.completeUpload).run(vod.id, vod.title, at, judged.row.id);
      this.db.prepare(SQL.insertVod).run(vod.id, judged.row.owner, vod.title, at);
      const upload = this.#upload(judged.row.id)!;
      return { status: 'stored', upload, event: this.#event(upload) };
    });
  }

  async addContent(record: Omit<ContentRecord, 'createdAt'>) {
    this.db.prepare(SQL.upsertContent).run(record.type, record.id, record.owner, record.title, now());
    return (await this.getContent(record.type, record.id))!;
  }

  async getContent(type: OwnedType, id: string) {
    const row = this.db.prepare(SQL.contentByKey).get(type, id) as ContentRow | undefined;
    return row && toContent(row);
  }

  async contentByIds(ids: string[]) {
    const statement = this.db.prepare(SQL.itemsById);
    return [...new Set(ids)].flatMap((id) => (statement.all(id) as ContentRow[]).map(toContent));
  }

  async savePlaylistTypes(playlistId: string, items: { id: string; type: 'vod' | 'channel' }[]) {
    this.db.transaction(() => {
      this.db.prepare(SQL.deletePlaylistTypes).run(playlistId);
      const insert = this.db.prepare(SQL.insertPlaylistType);
      for (const item of items) insert.run(playlistId, item.id, item.type);
    })();
  }

  async playlistTypes(playlistId: string) {
    const rows = this.db.prepare(SQL.playlistTypes).all(playlistId) as { item_id: string; type: 'vod' | 'channel' }[];
    return new Map(rows.map((row) => [row.item_id, row.type]));
  }

  /** One process per file: the lock is this process's queue for the playlist. */
  async withPlaylistLock<T>(playlistId: string, work: (lock: PlaylistLock) => Promise<T>): Promise<T> {
    const lock: PlaylistLock = {
      held: () => true,
      setPending: (kind, record) => this.setPlaylistPending(playlistId, kind, record),
      replacePending: (kind, expected, next) => this.replacePlaylistPending(playlistId, kind, expected, next),
    };
    return queued(this.#locks, playlistId, () => work(lock));
  }

  async playlistPending(playlistId: string) {
    return toPending(this.db.prepare(SQL.playlistPending).all(playlistId) as PendingRow[]);
  }

  async setPlaylistPending(playlistId: string, kind: PendingKind, record: PendingRecord) {
    this.db.prepare(SQL.setPlaylistPending).run(playlistId, kind, record.data, record.at);
  }

  async replacePlaylistPending(playlistId: string, kind: PendingKind, expected: string, next: string | null) {
    if (next === null) this.db.prepare(SQL.deletePlaylistPending).run(playlistId, kind, expected);
    else this.db.prepare(SQL.updatePlaylistPending).run(next, playlistId, kind, expected);
  }

  async prunePlaylistPending(before: number) {
    this.db.prepare(SQL.prunePlaylistPending).run(before);
  }

  async library(owner: string, page: { limit: number; after?: LibraryCursor }) {
    const [sql, params] = libraryQuery(owner, page);
    return libraryPage(this.db.prepare(sql).all(...params) as (ContentRow & { rowid: number })[], page.limit);
  }

  async eventsAfter(owner: string, seq: number, limit = 1000) {
    const statement = this.db.prepare(SQL.eventsAfter);
    return eventPage((after, wanted) => statement.all(owner, after, wanted) as EventRow[], seq, limit, this.#log);
  }

  async eventBounds(owner: string) {
    return this.db.prepare(SQL.eventBounds).get(owner) as EventBounds;
  }

  async prune(before: string) {
    // One process per file: no other instance to take turns with.
    return this.db.transaction(() => {
      const kept = this.db.prepare(SQL.firstKeptEvent).get(before) as { seq: number } | undefined;
      const events = kept ? this.db.prepare(SQL.pruneEventsBefore).run(kept.seq) : this.db.prepare(SQL.pruneAllEventsBefore).run(before);
      const uploads = this.db.prepare(SQL.pruneFailedUploads).run(before);
      return { events: events.changes, uploads: uploads.changes };
    })();
  }

  async lastEventSeq() {
    return (this.db.prepare(SQL.lastEventSeq).get() as { seq: number }).seq;
  }

  async close() {
    if (this.db.open) this.db.close();
  }
}
