// The rows of an upload list, without a DOM and without the code that runs them: <svc-uploader>
// loads this with its first paint, so a file added before the queue's code has arrived is a row at
// once, and the queue (core/upload-queue.ts), once there, runs the same rows: one owner from the
// first file. Every change replaces the row with a new frozen object (the list too), so a view can
// compare snapshots and never sees a row change under it.
import type { ErrorCode } from './errors.js';

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

type Patch = { -readonly [K in keyof UploadRow]?: UploadRow[K] };

export class UploadRows {
  #rows: readonly UploadRow[] = [];
  readonly #listeners = new Set<() => void>();

  /** Every row, oldest first (a new array after each change). */
  get rows(): readonly UploadRow[] {
    return this.#rows;
  }

  get(id: string): UploadRow | undefined {
    return this.#rows.find((row) => row.id === id);
  }

  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells the listeners that something they show changed. */
  changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Appends a row (the flags not given are false, nothing loaded). */
  insert(init: Patch & Pick<UploadRow, 'id' | 'name' | 'state'>): UploadRow {
    const row: UploadRow = Object.freeze({ loaded: 0, stillProcessing: false, restored: false, delivered: false, sent: false, ...init });
    this.#rows = [...this.#rows, row];
    this.changed();
    return row;
  }

  /** Replaces row `id` with a frozen copy carrying `patch`; returns it (undefined when the row is gone). */
  update(id: string, patch: Patch): UploadRow | undefined {
    let next: UploadRow | undefined;
    this.#rows = this.#rows.map((row) => (row.id === id ? (next = Object.freeze({ ...row, ...patch })) : row));
    if (next) this.changed();
    return next;
  }

  delete(id: string): void {
    this.#rows = this.#rows.filter((row) => row.id !== id);
    this.changed();
  }
}
