// What the upload queue (core/upload-queue.ts) is given: what it talks to (the relay, the form
// poster, the watcher, storage, settings, a clock, its row list) and the events it reports.
import type { RelayClient } from './relay-client.js';
import type { UploadWatcherOptions } from './sse.js';
import type { PostFormOptions, PostFormResult } from './upload-form.js';
import type { FailureReason, UploadRow, UploadRows } from './upload-rows.js';

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
  /**
   * The rows it runs (rows queued in it before the queue was made are taken up at once). The
   * element makes the list with its first paint; the queue's code only imports its type.
   */
  rows: UploadRows;
}
