// What the relay remembers, behind a small async interface: the embedded SQLite store, or
// PostgreSQL shared by several relay instances (store/open.ts picks one from SVC_DATABASE).
import type { UploadState, UploadStateName } from '../../core/wire.js';

export type OwnedType = 'vod' | 'channel' | 'playlist';

export interface UploadRecord {
  id: string;
  owner: string;
  source: string;
  state: UploadStateName;
  vodId: string | null;
  vodTitle: string | null;
  createdAt: string;
}

export interface ContentRecord {
  id: string;
  type: OwnedType;
  owner: string;
  title: string;
  createdAt: string;
}

/** Where a page of a library ends (its last item's place in the newest-first order). */
export interface LibraryCursor {
  createdAt: string;
  /** The insertion order of the item (breaks ties of `createdAt`). */
  rowid: number;
}

/** A persisted upload state change; `seq` is the SSE event id (monotonic). */
export interface StoredEvent {
  seq: number;
  owner: string;
  data: UploadState;
}

/**
 * Which consistency state of a playlist (routes/content.ts): its create's answer, its last save, or
 * a save whose update was sent to the service and whose outcome is not recorded yet ('flight').
 */
export type PendingKind = 'created' | 'save' | 'flight';

/** A playlist's consistency state as the relay wrote it: JSON text, and when (epoch ms). */
export interface PendingRecord {
  data: string;
  at: number;
}

export interface EventBounds {
  newest: number;
  oldest: number;
  /** The owner's newest event id: what `event: reset` tells the owner (never another user's activity). */
  own: number;
}

/** The writes of a lock holder: made through the lock's own connection, so they fail once it is lost. */
export interface PlaylistLock {
  /** False once the lock is lost (its connection dropped): another instance may hold it now. */
  held(): boolean;
  /** `Store.setPlaylistPending` of the locked playlist, only while the lock is held. */
  setPending(kind: PendingKind, record: PendingRecord): Promise<void>;
  /** `Store.replacePlaylistPending` of the locked playlist, only while the lock is held. */
  replacePending(kind: PendingKind, expected: string, next: string | null): Promise<void>;
}

/** The playlist's lock was not had in time (another save holds it long, or every lock connection is busy). */
export class LockBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockBusyError';
  }
}

export type CallbackOutcome =
  | { status: 'stored'; upload: UploadRecord; event: StoredEvent }
  | { status: 'duplicate'; upload: UploadRecord }
  | { status: 'conflict'; upload: UploadRecord }
  | { status: 'unknown' };

export interface Store {
  /** Settles when the store is usable (migrated, its event feed listening); rejects with the reason. */
  readonly ready: Promise<void>;
  /**
   * Every event stored through this store, and with PostgreSQL through any relay on the same
   * database, once committed: each once, in `seq` order. Returns the unsubscribe function.
   */
  subscribe(listener: (event: StoredEvent) => void): () => void;
  /** Records a signed upload and its first event ("signed"). */
  createUpload(upload: { id: string; owner: string; source: string; tokenHash: Buffer }): Promise<{ upload: UploadRecord; event: StoredEvent }>;
  getUpload(id: string): Promise<UploadRecord | undefined>;
  /** "signed" becomes "processing"; any other state is left as it is (no event then). */
  markUploaded(id: string): Promise<{ upload: UploadRecord; event?: StoredEvent }>;
  /** The upload whose callback token hashes to `tokenHash` (an indexed lookup of the SHA-256; that is the whole check). */
  uploadByToken(tokenHash: Buffer): Promise<UploadRecord | undefined>;
  /**
   * Uploads signed before `createdBefore` (ISO time) that are still "signed" or "processing" can
   * no longer get their callback (the token expired): they become "failed", one event each.
   */
  failExpiredUploads(createdBefore: string): Promise<StoredEvent[]>;
  /** Stores the VOD of a callback atomically (upload ready + owned VOD + event), idempotently. */
  completeUpload(tokenHash: Buffer, vod: { id: string; title: string }): Promise<CallbackOutcome>;
  addContent(record: Omit<ContentRecord, 'createdAt'>): Promise<ContentRecord>;
  getContent(type: OwnedType, id: string): Promise<ContentRecord | undefined>;
  /** Known records (of any owner) for these ids, VODs and channels only. */
  contentByIds(ids: string[]): Promise<ContentRecord[]>;
  /** Replaces the types last saved in a playlist (what the service accepted for each item). */
  savePlaylistTypes(playlistId: string, items: { id: string; type: 'vod' | 'channel' }[]): Promise<void>;
  /** Types of a playlist's items as last saved through this relay, by item id. */
  playlistTypes(playlistId: string): Promise<Map<string, 'vod' | 'channel'>>;
  /**
   * Runs `work` holding the playlist's lock, one holder at a time for every instance on the store:
   * with PostgreSQL a session advisory lock on a connection of its own (released when `work`
   * settles, or when the connection or the instance dies), taken by one save of the playlist at a
   * time per instance; with SQLite (one process per file) in this process. Rejects with
   * `LockBusyError` when the lock (or a connection for it) is not had within the store's wait.
   */
  withPlaylistLock<T>(playlistId: string, work: (lock: PlaylistLock) => Promise<T>): Promise<T>;
  /** The consistency state of a playlist, by kind (what `setPlaylistPending` last wrote). */
  playlistPending(playlistId: string): Promise<Partial<Record<PendingKind, PendingRecord>>>;
  /** Writes (replaces) one consistency state of a playlist. */
  setPlaylistPending(playlistId: string, kind: PendingKind, record: PendingRecord): Promise<void>;
  /** Replaces the state's text by `next` (null: removes it), only if it is still `expected`. */
  replacePlaylistPending(playlistId: string, kind: PendingKind, expected: string, next: string | null): Promise<void>;
  /** Removes every consistency state written before `before` (epoch ms). */
  prunePlaylistPending(before: number): Promise<void>;
  /**
   * One page of `owner`'s ready VODs, channels and playlists, newest first: at most `limit`, after
   * `after` (the `next` of the page before); `next` is null on the last page.
   */
  library(owner: string, page: { limit: number; after?: LibraryCursor }): Promise<{ items: ContentRecord[]; next: LibraryCursor | null }>;
  /** Events of `owner` after `seq`, oldest first; a corrupt row is skipped (and logged), the page filled from later rows. */
  eventsAfter(owner: string, seq: number, limit?: number): Promise<StoredEvent[]>;
  /** Where a replay for `owner` stands: the newest and oldest stored event ids (any owner) and `owner`'s newest (0 when none). */
  eventBounds(owner: string): Promise<EventBounds>;
  /**
   * Retention: deletes the events created before `before` (ISO time; as a prefix of ids) and the
   * failed uploads (never completed) signed before it. One instance at a time: undefined when
   * another instance is pruning.
   */
  prune(before: string): Promise<{ events: number; uploads: number } | undefined>;
  /** The id of the newest stored event of any owner (0 when there is none). */
  lastEventSeq(): Promise<number>;
  close(): Promise<void>;
}

export function uploadState(upload: UploadRecord): UploadState {
  return {
    upload_id: upload.id,
    source: upload.source,
    state: upload.state,
    ...(upload.vodId !== null ? { vod: { id: upload.vodId, title: upload.vodTitle ?? '' } } : {}),
  };
}
