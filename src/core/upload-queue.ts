// The upload queue of <svc-uploader>, without a DOM: rows added, checked, signed, transferred,
// followed through processing to ready, cancelled, retried and removed, at most `concurrency` at
// a time, and shown again after a reload. Its rows live in an UploadRows (core/upload-rows.ts),
// which may hold files queued before this code arrived. What it talks to is injected: the relay client, the form poster, the event watcher, the storage of
// pending ids and a clock; the words it cannot know (a rejection's message) come from `message`.
import { SvcError, toSvcError } from './errors.js';
import type { UploadCreated, UploadState } from './relay-client.js';
import { backoffDelay, delay } from './timing.js';
import { checkFile } from './file-rules.js';
import { TransferRate } from './transfer-progress.js';
import { SIGNATURE_BYTES, videoContainer } from './video-signature.js';

import type { Clock, QueueEventType, UploadQueueOptions, Watcher } from './upload-queue-options.js';
import type { FailureReason, QueueFile, UploadRow, UploadRowState, UploadRows } from './upload-rows.js';

export type { Clock, PendingStorage, QueueEvent, QueueEventType, QueueSettings, UploadQueueOptions, Watcher } from './upload-queue-options.js';
export type { FailureReason, QueueFile, UploadRow, UploadRowState } from './upload-rows.js';

const ACTIVE: readonly UploadRowState[] = ['signing', 'uploading'];
const BUSY: readonly UploadRowState[] = ['queued', 'signing', 'uploading'];
const REJECTIONS: readonly (FailureReason | undefined)[] = ['empty', 'type', 'size', 'content'];

/** Longest wait the queue honours from one `Retry-After` (a longer one is asked again after it). */
const MAX_WAIT_MS = 10 * 60_000;

/** The relay or the upload address asks to slow down (429, 503): the whole queue waits. */
function slowDown(error: SvcError): boolean {
  return error.status === 429 || error.status === 503 || error.code === 'rate_limited';
}

/** Worth another try after a while: a lost connection, a timeout, a server's failure (not one that cannot change). */
function transient(error: SvcError): boolean {
  return error.code === 'network_error' || error.status === 408 || (error.status >= 500 && error.status !== 501 && error.status !== 505);
}

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

type Patch = Parameters<UploadRows['update']>[1];

export class UploadQueue {
  readonly #list: UploadRows;
  /** Rows whose file was checked (rows queued in the list before the queue was made are checked when it is). */
  readonly #checked = new Set<string>();
  #nextId = 1;
  #live = true;
  #watcher?: Watcher;
  readonly #controllers = new Map<string, AbortController>();
  readonly #rates = new Map<string, TransferRate>();
  readonly #timers = new Map<string, unknown>();
  /** Signatures kept for a row sent back to the queue by a slow-down, used when it starts again. */
  readonly #signed = new Map<string, UploadCreated>();
  #waitUntil?: number;
  #waitTimer?: unknown;
  /** Slow-downs in a row without `Retry-After`, for the backoff. */
  #waits = 0;
  readonly #options: UploadQueueOptions;
  readonly #clock: Clock;

  constructor(options: UploadQueueOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#list = options.rows;
    this.admit();
  }

  /** Every row, oldest first (a new array after each change). */
  get rows(): readonly UploadRow[] {
    return this.#list.rows;
  }

  get #rows(): readonly UploadRow[] {
    return this.#list.rows;
  }

  /** Until when (epoch ms) the queue waits because the relay or the upload address asked it to; undefined when it does not. */
  get waitingUntil(): number | undefined {
    return this.#waitUntil;
  }

  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.#list.subscribe(listener);
  }

  /** Whether a failed or cancelled row can be sent again (a rejected or restored one cannot). */
  canRetry(row: UploadRow): boolean {
    return !REJECTIONS.includes(row.reason) && !!row.file && (row.state === 'failed' || row.state === 'cancelled');
  }

  /** Adds a file as a queued row (or a failed one, when it breaks a rule), then starts what may start. */
  add(file: QueueFile, id = `upload-${this.#nextId++}`): UploadRow {
    const row = this.#insert({ id, name: file.name, size: file.size, file, state: 'queued' });
    if (this.#check(row)) this.#emit('queued', row);
    this.#pump();
    return this.#row(id)!;
  }

  /**
   * Takes up the queued rows others added to its list (the element, before this code arrived):
   * checks their files (one that breaks a rule fails), then starts what may start.
   */
  admit(): void {
    for (const row of this.#rows) if (row.state === 'queued' && !this.#checked.has(row.id) && this.#check(row)) this.#emit('queued', row);
    this.#pump();
  }

  /** Checks a new row's file against the rules before anything is signed; false when it failed. */
  #check({ id, file }: UploadRow): boolean {
    this.#checked.add(id);
    const { accept, maxSize } = this.#options.settings();
    const rejection = file && checkFile({ name: file.name, type: file.type, size: file.size }, { accept, maxSize });
    if (rejection) this.#reject(id, rejection, maxSize);
    return !rejection;
  }

  /** Cancels a queued or running upload. */
  cancel(id: string): void {
    const row = this.#row(id);
    if (!row || !BUSY.includes(row.state)) return;
    this.#controllers.get(id)?.abort();
    this.#emit('cancelled', this.#update(id, { state: 'cancelled', note: undefined }));
    this.#pump();
  }

  /** Starts a failed or cancelled upload again. */
  retry(id: string): void {
    const row = this.#row(id);
    if (!row || !this.canRetry(row)) return;
    const next = this.#update(id, {
      state: 'queued',
      error: undefined,
      reason: undefined,
      note: undefined,
      loaded: row.delivered ? row.loaded : 0,
    });
    this.#emit('queued', next);
    this.#pump();
  }

  /** Starts every failed upload that can be sent again. */
  retryFailed(): void {
    for (const row of this.#rows) if (row.state === 'failed') this.retry(row.id);
  }

  /** Removes every ready or cancelled row. */
  clearFinished(): void {
    for (const row of this.#rows) if (row.state === 'ready' || row.state === 'cancelled') this.remove(row.id);
  }

  /** Removes a row that is not transferring; a processing upload goes on at the service. */
  remove(id: string): void {
    const row = this.#row(id);
    if (!row || ACTIVE.includes(row.state)) return;
    this.#forget(row);
    this.#signed.delete(id);
    this.#checked.delete(id);
    this.#list.delete(id);
  }

  /** Shows again the uploads that were processing when the page was left. */
  async restore(): Promise<void> {
    const client = this.#options.client();
    await Promise.all(
      this.#options.storage.list().map(async (uploadId) => {
        if (this.#rows.some((row) => row.uploadId === uploadId)) return;
        let upload: UploadState;
        try {
          upload = await client.upload(uploadId);
        } catch (error) {
          const { code } = toSvcError(error);
          // Unknown or not ours any more: nothing to show. Other failures keep the id for later.
          if (code === 'not_found' || code === 'forbidden') this.#options.storage.remove(uploadId);
          return;
        }
        if (this.#rows.some((row) => row.uploadId === uploadId)) return;
        const { id } = this.#insert({
          id: `restored-${uploadId}`, // never one of the ids the element gives added files
          name: upload.source || this.#options.restoredName(uploadId),
          state: 'processing',
          uploadId,
          restored: true,
          delivered: true,
          sent: true,
        });
        this.#startStillProcessing(id);
        this.#apply(id, upload);
        this.#watch(id);
      }),
    );
  }

  /** The view is back: follow every processing upload again. */
  attach(): void {
    this.#live = true;
    for (const row of this.#rows) this.#watch(row.id);
  }

  /** The view went away: stop following (transfers go on). */
  detach(): void {
    this.#live = false;
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #row(id: string): UploadRow | undefined {
    return this.#list.get(id);
  }

  #insert(init: Patch & Pick<UploadRow, 'id' | 'name' | 'state'>): UploadRow {
    return this.#list.insert(init);
  }

  #update(id: string, patch: Patch): UploadRow | undefined {
    return this.#list.update(id, patch);
  }

  #changed(): void {
    this.#list.changed();
  }

  #emit(type: QueueEventType, row: UploadRow | undefined): void {
    if (row) this.#options.onEvent?.({ type, row });
  }

  #fail(id: string, error: SvcError, reason?: FailureReason): void {
    this.#clearTimer(id);
    this.#emit('failed', this.#update(id, { state: 'failed', note: undefined, reason, error: { code: error.code, message: error.message } }));
  }

  #reject(id: string, reason: FailureReason, maxSize?: number): void {
    const message = this.#options.message(reason, this.#row(id)!, maxSize);
    this.#fail(id, new SvcError('file_rejected', message), reason);
  }

  /** Starts queued uploads while fewer than `concurrency` are signing or uploading. */
  #pump(): void {
    if (this.#waitUntil !== undefined) return;
    const limit = Math.max(1, Math.floor(this.#options.settings().concurrency) || 1);
    let active = this.#rows.filter((row) => ACTIVE.includes(row.state)).length;
    for (const row of this.#rows) {
      if (active >= limit) break;
      if (row.state !== 'queued') continue;
      active++;
      void this.#run(row.id);
    }
  }

  async #run(id: string): Promise<void> {
    const controller = new AbortController();
    this.#controllers.set(id, controller);
    const { signal } = controller;
    const row = this.#update(id, { state: 'signing' })!; // a queued row is never removed
    try {
      if (!row.delivered) {
        // The file's first bytes must be a video container's, before anything is signed.
        const head = new Uint8Array(await row.file!.slice(0, SIGNATURE_BYTES).arrayBuffer());
        if (signal.aborted) return;
        if (!videoContainer(head)) return this.#reject(id, 'content');
        const maxSize = this.#options.settings().maxSize ?? (await this.#options.limit());
        if (signal.aborted) return;
        if (maxSize !== undefined && (row.size ?? 0) > maxSize) return this.#reject(id, 'size', maxSize);
        await this.#transfer(id, row.file!, signal);
      }
      const processing = this.#update(id, { state: 'processing', note: undefined })!; // nor a running one
      this.#startStillProcessing(id);
      this.#emit('processing', processing);
      const current = await this.#patiently(id, signal, () => this.#options.client().markUploaded(processing.uploadId!, signal));
      this.#waits = 0;
      if (!this.#row(id)) return; // removed meanwhile: not shown again after a reload either
      this.#options.storage.add(processing.uploadId!);
      this.#apply(id, current);
      this.#watch(id);
    } catch (error) {
      if (signal.aborted || !this.#row(id) || this.#row(id)!.state === 'cancelled') return;
      const failure = toSvcError(error);
      if (slowDown(failure)) return this.#requeue(id, failure);
      this.#fail(id, failure);
    } finally {
      if (this.#controllers.get(id) === controller) this.#controllers.delete(id);
      this.#pump();
    }
  }

  /**
   * A row the relay or the upload address asked to slow down goes back to the queue (its signature
   * kept), and the queue waits for `Retry-After` (else a growing backoff) before it starts any row.
   */
  #requeue(id: string, failure: SvcError): void {
    this.#clearTimer(id);
    const row = this.#row(id)!;
    this.#update(id, { state: 'queued', note: undefined, sent: false, loaded: row.delivered ? row.loaded : 0, bytesPerSecond: undefined, secondsLeft: undefined });
    const now = this.#clock.now();
    const ms = failure.retryAfter !== undefined ? failure.retryAfter * 1000 : backoffDelay(++this.#waits, 2000, 60_000);
    const until = now + Math.min(MAX_WAIT_MS, Math.max(ms, 250));
    if (this.#waitUntil !== undefined && this.#waitUntil >= until) return;
    if (this.#waitTimer !== undefined) this.#clock.clearTimeout(this.#waitTimer);
    this.#waitUntil = until;
    this.#waitTimer = this.#clock.setTimeout(() => {
      this.#waitTimer = this.#waitUntil = undefined;
      this.#changed();
      this.#pump();
    }, until - now);
    this.#changed();
  }

  /** A request to the relay, tried again after a transient failure (with backoff and jitter), `networkRetries` times at most. */
  async #patiently<T>(id: string, signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    const { networkRetries, retryDelay } = this.#options.settings();
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await request();
        if (attempt > 1) this.#update(id, { note: undefined });
        return answer;
      } catch (error) {
        const failure = toSvcError(error);
        if (signal.aborted || slowDown(failure) || !transient(failure) || attempt > networkRetries) throw failure;
        this.#update(id, { note: { kind: 'retrying', attempt } });
        await delay(backoffDelay(attempt, retryDelay, 30_000), signal);
        if (signal.aborted) throw new SvcError('aborted', 'The upload was cancelled.');
      }
    }
  }

  /** Signs and posts the file; renews an expired signature once, retries lost connections and failed servers. */
  async #transfer(id: string, file: QueueFile, signal: AbortSignal): Promise<void> {
    const client = this.#options.client();
    const { networkRetries, retryDelay } = this.#options.settings();
    let created = this.#signed.get(id);
    this.#signed.delete(id);
    let renewed = false;
    let connectionFailures = 0;
    let started = created !== undefined; // sent back by a slow-down: its start was told
    this.#rates.set(id, new TransferRate());
    this.#update(id, { sent: false, bytesPerSecond: undefined, secondsLeft: undefined });
    for (;;) {
      if (!created) {
        this.#update(id, { state: 'signing' });
        const body = { source: file.name, size: file.size, type: file.type || undefined };
        created = await this.#patiently(id, signal, () => client.createUpload(body, signal));
        this.#update(id, { uploadId: created.upload_id });
      }
      const uploading = this.#update(id, { state: 'uploading' });
      if (!started) {
        started = true;
        this.#emit('start', uploading);
      }
      try {
        await this.#options.post({
          url: created.upload_url,
          fields: created.fields,
          file,
          signal,
          onProgress: (loaded) => this.#progress(id, loaded),
          onSent: () => this.#update(id, { sent: true }),
        });
        this.#emit('uploaded', this.#update(id, { delivered: true, note: undefined }));
        this.#waits = 0;
        return;
      } catch (error) {
        const failure = toSvcError(error);
        this.#update(id, { sent: false });
        if (failure.code === 'signature_expired' && !renewed) {
          renewed = true;
          created = undefined;
          this.#update(id, { note: { kind: 'renewing' } });
          continue;
        }
        if (slowDown(failure)) {
          this.#signed.set(id, created);
          throw failure;
        }
        if (transient(failure) && connectionFailures < networkRetries) {
          connectionFailures++;
          this.#update(id, { note: { kind: 'retrying', attempt: connectionFailures } });
          await delay(backoffDelay(connectionFailures, retryDelay, 30_000), signal);
          if (signal.aborted) throw new SvcError('aborted', 'The upload was cancelled.');
          continue;
        }
        throw failure;
      }
    }
  }

  #progress(id: string, loaded: number): void {
    const row = this.#row(id);
    // Across a renewed or retried attempt the row holds its value until the new attempt passes it.
    if (!row || loaded <= row.loaded || row.state === 'cancelled') return;
    const rate = this.#rates.get(id) ?? new TransferRate();
    rate.add(loaded, this.#clock.now());
    const next = this.#update(id, {
      loaded,
      note: undefined,
      bytesPerSecond: rate.bytesPerSecond,
      secondsLeft: rate.secondsLeft((row.size ?? loaded) - loaded),
    });
    this.#emit('progress', next);
  }

  #startStillProcessing(id: string): void {
    this.#clearTimer(id);
    const after = this.#options.settings().stillProcessingAfter;
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(id);
      if (this.#row(id)?.state !== 'processing') return;
      this.#emit('still-processing', this.#update(id, { stillProcessing: true }));
    }, after);
    this.#timers.set(id, timer);
  }

  #clearTimer(id: string): void {
    if (this.#timers.has(id)) this.#clock.clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  #watch(id: string): void {
    const row = this.#row(id);
    if (!this.#live || row?.state !== 'processing' || !row.uploadId) return; // attach() watches again
    this.#watcher ??= this.#options.watcher({
      onEvent: (event) => {
        const target = this.#rows.find((other) => other.uploadId === event.upload_id);
        if (target) this.#apply(target.id, event);
      },
      onError: (error, uploadId) => {
        const target = uploadId && this.#rows.find((other) => other.uploadId === uploadId);
        if (target && error.code === 'not_found' && target.state === 'processing') {
          this.#options.storage.remove(uploadId);
          this.#fail(target.id, new SvcError('not_found', this.#options.message('unknown', target), 404), 'unknown');
        }
      },
    });
    this.#watcher.watch(row.uploadId);
  }

  /** A state from the relay (event, poll or answer) for a row that is processing. */
  #apply(id: string, upload: UploadState): void {
    const row = this.#row(id);
    if (row?.state !== 'processing') return;
    if (row.restored && upload.source && upload.source !== row.name) this.#update(id, { name: upload.source });
    if (upload.state === 'ready' && upload.vod) {
      this.#clearTimer(id);
      const ready = this.#update(id, { state: 'ready', stillProcessing: false, vod: { id: upload.vod.id, title: upload.vod.title } })!;
      this.#forget(ready);
      this.#emit('ready', ready);
    } else if (upload.state === 'failed') {
      this.#forget(row);
      this.#update(id, { delivered: false }); // the service lost it: a retry sends the file again
      this.#fail(id, new SvcError('upload_failed', this.#options.message('processing', row)), 'processing');
    }
  }

  #forget(row: UploadRow): void {
    this.#clearTimer(row.id);
    if (!row.uploadId) return;
    this.#watcher?.unwatch(row.uploadId);
    this.#options.storage.remove(row.uploadId);
  }
}
