// The upload queue's vocabulary (core/upload-queue.ts): its rows, the events it reports, and what
// it is given to talk to (the relay, the form poster, the watcher, storage, settings, a clock).
import type { ErrorCode } from './errors.js';
import type { RelayClient } from './relay-client.js';
import type { UploadWatcherOptions } from './sse.js';
import type { PostFormOptions, PostFormResult } from './upload-form.js';

export type UploadRowState = 'queued' | 'signing' | 'uploading' | 'processing' | 'ready' | 'failed' | 'cancelled';

/** Why the queue failed a row itself: a rejected file, a failed processing, an upload the relay forgot. */
export type FailureReason = 'empty' | 'type' | 'size' | 'content' | 'processing' | 'unknown';

/** A file as the queue needs it (a `File` in browsers, any named Blob in tests). */
export type QueueFile = Blob & { readonly name: string };

/** One row: an immutable snapshot, replaced (never changed) by each transition. */
export interface UploadRow {
  readonly id: string;
  readonly name: string;
  /** Bytes; unknown for a row restored after a reload. */
  readonly size?: number;
  readonly state: UploadRowState;
  /** The relay's upload id, once signed. */
  readonly uploadId?: string;
  /** File bytes the upload address has received, as far as can be told (never moves back). */
  readonly loaded: number;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
  readonly reason?: FailureReason;
  readonly vod?: { readonly id: string; readonly title: string };
  readonly stillProcessing: boolean;
  /** Shown again from the relay after a reload (no file to retry with). */
  readonly restored: boolean;
  readonly file?: QueueFile;
  /** The upload address accepted the file (a retry then only tells the relay). */
  readonly delivered: boolean;
  /** The whole body is sent; the answer is awaited. */
  readonly sent: boolean;
  readonly note?: { readonly kind: 'renewing' } | { readonly kind: 'retrying'; readonly attempt: number };
  /** Transfer speed and time left, while known. */
  readonly bytesPerSecond?: number;
  readonly secondsLeft?: number;
}

/** What happened to a row, for the element to turn into events and announcements. */
export type QueueEventType =
  | 'queued'
  | 'start'
  | 'progress'
  | 'uploaded'
  | 'processing'
  | 'still-processing'
  | 'ready'
  | 'failed'
  | 'cancelled';

export interface QueueEvent {
  type: QueueEventType;
  row: UploadRow;
}

/** Where the ids of processing uploads are kept so a reload can show them again. */
export interface PendingStorage {
  list(): string[];
  add(uploadId: string): void;
  remove(uploadId: string): void;
}

/** The part of `UploadWatcher` (core/sse.ts) the queue uses. */
export interface Watcher {
  watch(uploadId: string): void;
  unwatch(uploadId: string): void;
  close(): void;
}

export interface QueueSettings {
  accept: string;
  /** Largest file from the page; the relay's limit comes from `limit()`. */
  maxSize?: number;
  concurrency: number;
  stillProcessingAfter: number;
  networkRetries: number;
  retryDelay: number;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UploadQueueOptions {
  client(): Pick<RelayClient, 'createUpload' | 'markUploaded' | 'upload'>;
  post(options: PostFormOptions): Promise<PostFormResult>;
  watcher(options: Pick<UploadWatcherOptions, 'onEvent' | 'onError'>): Watcher;
  storage: PendingStorage;
  settings(): QueueSettings;
  /** The largest file allowed when the page sets none (the relay's `max_upload_bytes`). */
  limit(): Promise<number | undefined>;
  /** The message of a failure the queue decides itself (in the viewer's language). */
  message(reason: FailureReason, row: UploadRow, maxSize?: number): string;
  /** The name of a restored row whose source the relay does not know. */
  restoredName(uploadId: string): string;
  onEvent?(event: QueueEvent): void;
  clock?: Clock;
}
