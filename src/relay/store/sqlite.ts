// The embedded store: SQLite through better-sqlite3, WAL mode, versioned migrations
// (PRAGMA user_version). Every write that the relay acknowledges is committed before it answers.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import Database from 'better-sqlite3';
import type { UploadStateName } from '../../core/relay-client.js';
import {
  uploadState,
  type CallbackOutcome,
  type ContentRecord,
  type OwnedType,
  type Store,
  type StoredEvent,
  type UploadRecord,
} from './store.js';

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
];

interface UploadRow {
  id: string;
  owner: string;
  source: string;
  token_hash: Buffer;
  state: UploadStateName;
  vod_id: string | null;
  vod_title: string | null;
  created_at: string;
}

interface ContentRow {
  type: OwnedType;
  id: string;
  owner: string;
  title: string;
  created_at: string;
}

const toUpload = (row: UploadRow): UploadRecord => ({
  id: row.id,
  owner: row.owner,
  source: row.source,
  state: row.state,
  vodId: row.vod_id,
  vodTitle: row.vod_title,
  createdAt: row.created_at,
});

const toContent = (row: ContentRow): ContentRecord => ({
  id: row.id,
  type: row.type,
  owner: row.owner,
  title: row.title,
  createdAt: row.created_at,
});

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

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
  }

  #now() {
    return new Date().toISOString();
  }

  #event(owner: string, upload: UploadRecord): StoredEvent {
    const data = uploadState(upload);
    const result = this.db
      .prepare('INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?)')
      .run(owner, JSON.stringify(data), this.#now());
    return { seq: Number(result.lastInsertRowid), owner, data };
  }

  #upload(id: string): UploadRecord | undefined {
    const row = this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(id) as UploadRow | undefined;
    return row && toUpload(row);
  }

  async createUpload(input: { id: string; owner: string; source: string; tokenHash: Buffer }) {
    return this.db.transaction(() => {
      const now = this.#now();
      this.db
        .prepare(
          `INSERT INTO uploads (id, owner, source, token_hash, state, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'signed', ?, ?)`,
        )
        .run(input.id, input.owner, input.source, input.tokenHash, now, now);
      const upload = this.#upload(input.id)!;
      return { upload, event: this.#event(upload.owner, upload) };
    })();
  }

  async getUpload(id: string) {
    return this.#upload(id);
  }

  async markUploaded(id: string) {
    return this.db.transaction(() => {
      const changed = this.db
        .prepare(`UPDATE uploads SET state = 'processing', updated_at = ? WHERE id = ? AND state = 'signed'`)
        .run(this.#now(), id).changes;
      const upload = this.#upload(id);
      if (!upload) throw new Error(`unknown upload ${id}`);
      return changed ? { upload, event: this.#event(upload.owner, upload) } : { upload };
    })();
  }

  #byToken(tokenHash: Buffer): UploadRow | undefined {
    const row = this.db.prepare('SELECT * FROM uploads WHERE token_hash = ?').get(tokenHash) as UploadRow | undefined;
    // The index finds the row; the comparison that decides is constant-time.
    if (!row || row.token_hash.length !== tokenHash.length || !timingSafeEqual(row.token_hash, tokenHash)) return undefined;
    return row;
  }

  async uploadByToken(tokenHash: Buffer) {
    const row = this.#byToken(tokenHash);
    return row && toUpload(row);
  }

  async failExpiredUploads(createdBefore: string) {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(`SELECT id FROM uploads WHERE state IN ('signed', 'processing') AND created_at < ? ORDER BY created_at`)
        .all(createdBefore) as { id: string }[];
      const update = this.db.prepare(`UPDATE uploads SET state = 'failed', updated_at = ? WHERE id = ?`);
      return rows.map(({ id }) => {
        update.run(this.#now(), id);
        const upload = this.#upload(id)!;
        return this.#event(upload.owner, upload);
      });
    })();
  }

  async completeUpload(tokenHash: Buffer, vod: { id: string; title: string }): Promise<CallbackOutcome> {
    return this.db.transaction((): CallbackOutcome => {
      const row = this.#byToken(tokenHash);
      if (!row) return { status: 'unknown' };
      if (row.vod_id !== null) {
        return { status: row.vod_id === vod.id ? 'duplicate' : 'conflict', upload: toUpload(row) };
      }
      const now = this.#now();
      this.db
        .prepare(`UPDATE uploads SET state = 'ready', vod_id = ?, vod_title = ?, updated_at = ? WHERE id = ?`)
        .run(vod.id, vod.title, now, row.id);
      this.db
        .prepare(
          `INSERT INTO content (type, id, owner, title, created_at) VALUES ('vod', ?, ?, ?, ?)
           ON CONFLICT (type, id) DO NOTHING`,
        )
        .run(vod.id, row.owner, vod.title, now);
      const upload = this.#upload(row.id)!;
      return { status: 'stored', upload, event: this.#event(upload.owner, upload) };
    })();
  }

  async addContent(record: Omit<ContentRecord, 'createdAt'>) {
    const createdAt = this.#now();
    this.db
      .prepare(
        `INSERT INTO content (type, id, owner, title, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (type, id) DO UPDATE SET title = excluded.title`,
      )
      .run(record.type, record.id, record.owner, record.title, createdAt);
    return (await this.getContent(record.type, record.id))!;
  }

  async getContent(type: OwnedType, id: string) {
    const row = this.db.prepare('SELECT * FROM content WHERE type = ? AND id = ?').get(type, id) as ContentRow | undefined;
    return row && toContent(row);
  }

  async contentByIds(ids: string[]) {
    if (!ids.length) return [];
    const unique = [...new Set(ids)];
    const rows: ContentRow[] = [];
    const statement = this.db.prepare(`SELECT * FROM content WHERE type IN ('vod', 'channel') AND id = ?`);
    for (const id of unique) rows.push(...(statement.all(id) as ContentRow[]));
    return rows.map(toContent);
  }

  async savePlaylistTypes(playlistId: string, items: { id: string; type: 'vod' | 'channel' }[]) {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM playlist_item_types WHERE playlist_id = ?').run(playlistId);
      const insert = this.db.prepare(
        'INSERT OR REPLACE INTO playlist_item_types (playlist_id, item_id, type) VALUES (?, ?, ?)',
      );
      for (const item of items) insert.run(playlistId, item.id, item.type);
    })();
  }

  async playlistTypes(playlistId: string) {
    const rows = this.db
      .prepare('SELECT item_id, type FROM playlist_item_types WHERE playlist_id = ?')
      .all(playlistId) as { item_id: string; type: 'vod' | 'channel' }[];
    return new Map(rows.map((row) => [row.item_id, row.type]));
  }

  async library(owner: string) {
    const rows = this.db
      .prepare('SELECT * FROM content WHERE owner = ? ORDER BY created_at DESC, rowid DESC')
      .all(owner) as ContentRow[];
    return rows.map(toContent);
  }

  async eventsAfter(owner: string, seq: number, limit = 1000) {
    const rows = this.db
      .prepare('SELECT seq, owner, data FROM events WHERE owner = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(owner, seq, limit) as { seq: number; owner: string; data: string }[];
    return rows.map((row) => ({ seq: row.seq, owner: row.owner, data: JSON.parse(row.data) }));
  }

  async lastEventSeq() {
    return (this.db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM events').get() as { seq: number }).seq;
  }

  async close() {
    if (this.db.open) this.db.close();
  }
}
