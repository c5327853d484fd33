// What the SQLite and PostgreSQL stores share: the statements (written once, `?` placeholders,
// numbered for PostgreSQL by `numbered`), the row shapes and their mapping to records, the rule
// that decides a callback, and the in-process event feed. Only the schema (types, identity
// columns) and the way each engine runs a transaction live in the store files.
import type { UploadStateName } from '../../core/wire.js';
import type { Logger } from '../log.js';
import type { CallbackOutcome, ContentRecord, LibraryCursor, OwnedType, PendingKind, PendingRecord, StoredEvent, UploadRecord } from './store.js';

export const SQL = {
  insertUpload: `INSERT INTO uploads (id, owner, source, token_hash, state, created_at, updated_at)
                 VALUES (?, ?, ?, ?, 'signed', ?, ?)`,
  uploadById: 'SELECT * FROM uploads WHERE id = ?',
  uploadByToken: 'SELECT * FROM uploads WHERE token_hash = ?',
  markUploaded: `UPDATE uploads SET state = 'processing', updated_at = ? WHERE id = ? AND state = 'signed'`,
  completeUpload: `UPDATE uploads SET state = 'ready', vod_id = ?, vod_title = ?, updated_at = ? WHERE id = ?`,
  insertVod: `INSERT INTO content (type, id, owner, title, created_at) VALUES ('vod', ?, ?, ?, ?)
              ON CONFLICT (type, id) DO NOTHING`,
  upsertContent: `INSERT INTO content (type, id, owner, title, created_at) VALUES (?, ?, ?, ?, ?)
                  ON CONFLICT (type, id) DO UPDATE SET title = excluded.title`,
  contentByKey: 'SELECT * FROM content WHERE type = ? AND id = ?',
  itemsById: `SELECT * FROM content WHERE type IN ('vod', 'channel') AND id = ?`,
  deletePlaylistTypes: 'DELETE FROM playlist_item_types WHERE playlist_id = ?',
  insertPlaylistType: `INSERT INTO playlist_item_types (playlist_id, item_id, type) VALUES (?, ?, ?)
                       ON CONFLICT (playlist_id, item_id) DO UPDATE SET type = excluded.type`,
  playlistTypes: 'SELECT item_id, type FROM playlist_item_types WHERE playlist_id = ?',
  playlistPending: 'SELECT kind, data, at FROM playlist_pending WHERE playlist_id = ?',
  setPlaylistPending: `INSERT INTO playlist_pending (playlist_id, kind, data, at) VALUES (?, ?, ?, ?)
                       ON CONFLICT (playlist_id, kind) DO UPDATE SET data = excluded.data, at = excluded.at`,
  updatePlaylistPending: 'UPDATE playlist_pending SET data = ? WHERE playlist_id = ? AND kind = ? AND data = ?',
  deletePlaylistPending: 'DELETE FROM playlist_pending WHERE playlist_id = ? AND kind = ? AND data = ?',
  prunePlaylistPending: 'DELETE FROM playlist_pending WHERE at < ?',
  /** `rowid` is SQLite's own and a PostgreSQL identity column of that name: insertion order breaks ties. */
  library: 'SELECT type, id, owner, title, created_at, rowid FROM content WHERE owner = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  libraryAfter: `SELECT type, id, owner, title, created_at, rowid FROM content
                 WHERE owner = ? AND (created_at < ? OR (created_at = ? AND rowid < ?))
                 ORDER BY created_at DESC, rowid DESC LIMIT ?`,
  insertEvent: 'INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?) RETURNING seq',
  eventsAfter: 'SELECT seq, owner, data FROM events WHERE owner = ? AND seq > ? ORDER BY seq LIMIT ?',
  /** Uploads whose callback token expired before they completed (oldest first). */
  pendingBefore: `SELECT id FROM uploads WHERE state IN ('signed', 'processing') AND created_at < ? ORDER BY created_at`,
  failUpload: `UPDATE uploads SET state = 'failed', updated_at = ? WHERE id = ? AND state IN ('signed', 'processing')`,
  lastEventSeq: 'SELECT COALESCE(MAX(seq), 0) AS seq FROM events',
  /** Every owner's events after a cursor (the fan-out catching up, the migration copying). */
  allEventsAfter: 'SELECT seq, owner, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
  /** Where a replay stands: the newest and oldest stored ids, and the owner's newest (0 for none). */
  eventBounds: `SELECT COALESCE((SELECT MAX(seq) FROM events), 0) AS newest,
                       COALESCE((SELECT MIN(seq) FROM events), 0) AS oldest,
                       COALESCE((SELECT MAX(seq) FROM events WHERE owner = ?), 0) AS own`,
  /**
   * Retention: the first event that is kept (created at or after the cutoff). Walked in id order
   * from the oldest, so it costs what it deletes; events go as a prefix of ids, which is what lets
   * a replay tell a pruned Last-Event-ID (below the oldest kept) from one that was never used.
   */
  firstKeptEvent: 'SELECT seq FROM events WHERE created_at >= ? ORDER BY seq LIMIT 1',
  pruneEventsBefore: 'DELETE FROM events WHERE seq < ?',
  pruneAllEventsBefore: 'DELETE FROM events WHERE created_at < ?',
  /** Uploads that never completed and can no longer (failed: their callback lifetime is over), once their events are gone too. */
  pruneFailedUploads: `DELETE FROM uploads WHERE state = 'failed' AND vod_id IS NULL AND created_at < ?`,
} as const;

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (no statement here has a `?` in a literal). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A row of the `uploads` table as both engines return it (UploadRecord is what the store hands out). */
export interface UploadTableRow {
  id: string;
  owner: string;
  source: string;
  token_hash: Buffer;
  state: UploadStateName;
  vod_id: string | null;
  vod_title: string | null;
  created_at: string;
}

export interface ContentRow {
  type: OwnedType;
  id: string;
  owner: string;
  title: string;
  created_at: string;
}

/** PostgreSQL returns BIGINT as a string; SQLite as a number. */
export interface EventRow {
  seq: number | string;
  owner: string;
  data: string;
}

export const toUpload = (row: UploadTableRow): UploadRecord => ({
  id: row.id,
  owner: row.owner,
  source: row.source,
  state: row.state,
  vodId: row.vod_id,
  vodTitle: row.vod_title,
  createdAt: row.created_at,
});

export const toContent = (row: ContentRow): ContentRecord => ({
  id: row.id,
  type: row.type,
  owner: row.owner,
  title: row.title,
  createdAt: row.created_at,
});

export const toEvent = (row: EventRow): StoredEvent => ({ seq: Number(row.seq), owner: row.owner, data: JSON.parse(row.data) });

/**
 * A page of up to `limit` events after `after` read with `read(after, limit)`. A row whose data is
 * not a JSON object (a corrupt row, e.g. copied in by hand) is skipped and logged, and the page is
 * filled from the rows after it: one bad row must not end a replay, nor make a page look like the last.
 */
export async function eventPage(
  read: (after: number, limit: number) => EventRow[] | Promise<EventRow[]>,
  after: number,
  limit: number,
  log?: Logger,
): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (;;) {
    const wanted = limit - events.length;
    const rows = await read(after, wanted);
    for (const row of rows) {
      let data: unknown;
      try {
        data = JSON.parse(row.data);
      } catch {
        data = undefined;
      }
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) events.push({ seq: Number(row.seq), owner: row.owner, data: data as StoredEvent['data'] });
      else log?.error('event_row_invalid', { seq: Number(row.seq), user: row.owner });
    }
    if (rows.length < wanted || events.length >= limit) return events;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

/**
 * What a callback for the upload found by its token means before anything is written: `store`
 * (first delivery) or a final outcome. Uploads are found by the SHA-256 of the token
 * (`SQL.uploadByToken`): the database compares hashes, so the lookup's timing tells nothing about
 * the token, and finding the row is the whole check.
 */
export function judgeCallback(
  row: UploadTableRow | undefined,
  vodId: string,
): { status: 'store'; row: UploadTableRow } | Exclude<CallbackOutcome, { status: 'stored' }> {
  if (!row) return { status: 'unknown' };
  if (row.vod_id !== null) return { status: row.vod_id === vodId ? 'duplicate' : 'conflict', upload: toUpload(row) };
  return { status: 'store', row };
}

/** `playlist_pending` rows (`at` is a BIGINT, a string from PostgreSQL) as records by kind. */
export function toPending(rows: PendingRow[]): Partial<Record<PendingKind, PendingRecord>> {
  return Object.fromEntries(rows.map((row) => [row.kind, { data: row.data, at: Number(row.at) }]));
}

export interface PendingRow {
  kind: PendingKind;
  data: string;
  at: number | string;
}

/** A library page read with one row more than `limit`: the items, and the cursor when there is more. */
export function libraryPage(rows: (ContentRow & { rowid: number | string })[], limit: number): { items: ContentRecord[]; next: LibraryCursor | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toContent), next: rows.length > limit && last ? { createdAt: last.created_at, rowid: Number(last.rowid) } : null };
}

/** The statement and parameters of a library page (`libraryPage` reads its rows). */
export function libraryQuery(owner: string, page: { limit: number; after?: LibraryCursor }): [string, unknown[]] {
  const { limit, after } = page;
  return after
    ? [SQL.libraryAfter, [owner, after.createdAt, after.createdAt, after.rowid, limit + 1]]
    : [SQL.library, [owner, limit + 1]];
}

export const now = () => new Date().toISOString();

type Listener = (event: StoredEvent) => void;

/** The listeners of a store's event feed (`Store.subscribe`). */
export class EventFeed {
  readonly #listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  emit(event: StoredEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/**
 * Runs `work` after every task queued before it under `key` (in `queue`), one at a time per key:
 * the saves of one playlist in this process take turns before they take the store's lock.
 */
export function queued<T>(queue: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  const previous = queue.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => {});
  queue.set(key, tail);
  void tail.then(() => queue.get(key) === tail && queue.delete(key));
  return run;
}
