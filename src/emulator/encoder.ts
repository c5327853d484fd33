// Processing of uploaded VODs and delivery of the upload-complete callback: after the
// processing delay the VOD is ready and its callback_url gets a multipart POST with file_id and
// title, retried with exponential backoff on network errors and non-2xx answers. A file that is
// not a video container fails to "encode": it never becomes ready and no callback is sent.
import { open } from 'node:fs/promises';
import { SIGNATURE_BYTES, videoContainer } from '../core/video-signature.js';
import type { CallbackRecord, Control } from './control.js';
import type { Logger } from './log.js';
import type { VodRecord } from './store.js';

export interface EncoderOptions {
  /** Attempts per callback, the first included. */
  callbackAttempts: number;
  /** Delay before the first retry; doubles each time. */
  callbackRetryMs: number;
  /** Per-attempt time limit. */
  callbackTimeoutMs: number;
}

export class Encoder {
  #timers = new Set<NodeJS.Timeout>();
  #closed = new AbortController();

  constructor(
    private readonly control: Control,
    private readonly options: EncoderOptions,
    private readonly log: Logger,
  ) {}

  /** Starts processing an uploaded VOD; it becomes ready after the current processing delay. */
  process(vod: VodRecord): void {
    vod.status = 'encoding';
    this.#later(this.control.settings.processing_ms, () => void this.#finish(vod));
  }

  async #finish(vod: VodRecord): Promise<void> {
    const video = await isVideo(vod.file).catch(() => false);
    if (this.#closed.signal.aborted) return;
    if (!video) {
      vod.status = 'failed';
      this.log.warn('vod_failed', { vod_id: vod.id, reason: 'not_a_video' });
      return;
    }
    vod.status = 'ready';
    this.log.info('vod_ready', { vod_id: vod.id });
    this.#deliver(vod, this.control.takeDuplicate());
  }

  /** Stops every pending timer and in-flight delivery. */
  close(): void {
    this.#closed.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #later(ms: number, run: () => void): void {
    if (this.#closed.signal.aborted) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    this.#timers.add(timer);
  }

  #deliver(vod: VodRecord, duplicate: boolean): void {
    const record = this.control.newCallback({
      vod_id: vod.id,
      title: vod.title,
      callback_url: vod.callbackUrl,
      delivered: false,
      attempts: [],
    });
    const attempt = async (n: number): Promise<void> => {
      const ok = await this.#attempt(record);
      if (ok) {
        if (duplicate) this.#deliver(vod, false);
        return;
      }
      if (n + 1 >= this.options.callbackAttempts) {
        this.log.warn('callback_abandoned', { vod_id: vod.id, attempts: n + 1 });
        return;
      }
      this.#later(this.options.callbackRetryMs * 2 ** n, () => void attempt(n + 1));
    };
    void attempt(0);
  }

  async #attempt(record: CallbackRecord): Promise<boolean> {
    const at = new Date().toISOString();
    if (this.control.takeCallbackFailure()) {
      record.attempts.push({ at, status: null, error: 'failure injected by the control API' });
      return false;
    }
    const body = new FormData();
    body.append('file_id', record.vod_id);
    body.append('title', record.title);
    try {
      const response = await fetch(record.callback_url, {
        method: 'POST',
        body,
        redirect: 'manual',
        signal: AbortSignal.any([this.#closed.signal, AbortSignal.timeout(this.options.callbackTimeoutMs)]),
      });
      await response.body?.cancel();
      const ok = response.status >= 200 && response.status < 300;
      record.attempts.push({ at, status: response.status, error: ok ? null : `HTTP ${response.status}` });
      record.delivered ||= ok;
      this.log.info('callback_attempt', { vod_id: record.vod_id, status: response.status });
      return ok;
    } catch (error) {
      const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      record.attempts.push({ at, status: null, error: message });
      this.log.warn('callback_attempt', { vod_id: record.vod_id, error: message });
      return false;
    }
  }
}

/** Whether the file begins like a video container (the service cannot encode anything else). */
async function isVideo(file: string | undefined): Promise<boolean> {
  if (!file) return false;
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(new Uint8Array(SIGNATURE_BYTES), 0, SIGNATURE_BYTES, 0);
    return videoContainer(buffer.subarray(0, bytesRead)) !== undefined;
  } finally {
    await handle.close();
  }
}
