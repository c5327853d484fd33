// Server-sent events without EventSource (which cannot send an Authorization header): a DOM-free
// parser of the text/event-stream format (WHATWG HTML, "Parsing an event stream"), a reader over
// `fetch` streaming with the relay's headers, and a watcher of upload states that reconnects with
// Last-Event-ID and backoff and falls back to polling `GET /svc/uploads/{id}`. The relay's own
// messages are understood: `event: reset` (the cursor is ahead of the relay's store: drop it and
// re-read every followed upload) and `event: close` with a reason (`token_expired`: reconnect at
// once with a fresh token; `too_many_streams`: this page's stream was the user's oldest, so poll
// for a while rather than push another tab's stream out).
import { SvcError, networkError, toSvcError } from './errors.js';
import type { RelayClient } from './relay-client.js';
import type { StreamClose, StreamCloseReason, StreamEventName, UploadEvent } from './wire.js';
import { backoffDelay, delay } from './timing.js';

export interface SseEvent {
  /** `event:` field, or `message` when none was given. */
  type: string;
  /** `data:` lines joined with `\n`. */
  data: string;
  /** The last event id in effect when the event was dispatched (`''` when none). */
  lastEventId: string;
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  /** A comment line (without the leading colon), e.g. a heartbeat `: ping`. */
  onComment?(text: string): void;
  /** A valid `retry:` field, in milliseconds. */
  onRetry?(ms: number): void;
}

const LF = 10;
const CR = 13;

/** Incremental parser: feed decoded text in chunks split anywhere; events come out as complete. */
export class SseParser {
  #buffer = '';
  #scanned = 0;
  #skipLeadingLF = false;
  #started = false;
  #data: string[] = [];
  #type = '';
  #lastEventId = '';

  constructor(readonly handlers: SseHandlers) {}

  /** The last event id seen so far (what a reconnect sends as `Last-Event-ID`). */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  push(chunk: string): void {
    let text = chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.#skipLeadingLF && text.length > 0) {
      this.#skipLeadingLF = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    this.#buffer += text;
    let start = 0;
    for (let i = this.#scanned; i < this.#buffer.length; i++) {
      const c = this.#buffer.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      const line = this.#buffer.slice(start, i);
      if (c === CR) {
        // CRLF is one terminator; a CR at the end of a chunk may be followed by LF in the next.
        if (i + 1 < this.#buffer.length) {
          if (this.#buffer.charCodeAt(i + 1) === LF) i++;
        } else {
          this.#skipLeadingLF = true;
        }
      }
      start = i + 1;
      this.#line(line);
    }
    this.#buffer = this.#buffer.slice(start);
    this.#scanned = this.#buffer.length;
  }

  /** End of stream: an event not terminated by a blank line is discarded, as the standard says. */
  end(): void {
    this.#buffer = '';
    this.#scanned = 0;
    this.#data = [];
    this.#type = '';
  }

  #line(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.charCodeAt(0) === 58 /* : */) return this.handlers.onComment?.(line.slice(1).replace(/^ /, ''));
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#type = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      default:
      // unknown fields are ignored
    }
  }

  #dispatch(): void {
    const data = this.#data;
    const type = this.#type;
    this.#data = [];
    this.#type = '';
    if (data.length === 0) return;
    this.handlers.onEvent({ type: type || 'message', data: data.join('\n'), lastEventId: this.#lastEventId });
  }
}

export interface EventStreamOptions extends Partial<SseHandlers> {
  client: Pick<RelayClient, 'fetch'>;
  /** Relay path of the stream; default `/events`. */
  path?: string;
  lastEventId?: string;
  signal?: AbortSignal;
  /** The relay answered with an event stream. */
  onOpen?(): void;
}

export interface EventStreamResult {
  /** Last event id seen (or the one given, when none came). */
  lastEventId: string;
  /** Whether any byte arrived on the stream. */
  received: boolean;
}

/**
 * One connection to an event stream: resolves when the server ends it, rejects with an SvcError
 * when it cannot be opened or breaks (`aborted` when the signal fires).
 */
export async function readEventStream(options: EventStreamOptions): Promise<EventStreamResult> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Cache-Control': 'no-cache' };
  if (options.lastEventId) headers['Last-Event-ID'] = options.lastEventId;
  let response: Response;
  try {
    response = await options.client.fetch(options.path ?? '/events', { headers, signal: options.signal });
  } catch (error) {
    throw networkError(error);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new SvcError(
      response.status >= 500 ? 'upstream_unavailable' : 'internal',
      `The relay's event stream answered HTTP ${response.status} (${type || 'no content type'}).`,
      response.status,
    );
  }
  options.onOpen?.();
  let lastEventId = options.lastEventId ?? '';
  let received = false;
  const parser = new SseParser({
    onEvent: (event) => {
      lastEventId = event.lastEventId;
      options.onEvent?.(event);
    },
    onComment: options.onComment,
    onRetry: options.onRetry,
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength) received = true;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } catch (error) {
    throw networkError(error);
  } finally {
    parser.end();
    reader.releaseLock();
  }
  return { lastEventId: parser.lastEventId || lastEventId, received };
}

export type WatchMode = 'idle' | 'streaming' | 'reconnecting' | 'polling';

export interface UploadWatcherOptions {
  client: Pick<RelayClient, 'fetch' | 'upload'>;
  /** Every upload event of the stream (all of the caller's uploads) and every polled state. */
  onEvent(event: UploadEvent): void;
  onModeChange?(mode: WatchMode): void;
  /** A failure worth knowing about (the watcher keeps going); `uploadId` when it concerns one upload. */
  onError?(error: SvcError, uploadId?: string): void;
  /** First reconnect delay; the server's `retry:` replaces it. Default 500 ms. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Failed connections in a row before polling. Default 3. */
  maxFailures?: number;
  pollIntervalMs?: number;
  /** While polling, try the stream again every this many polls. Default 15. */
  streamRetryEvery?: number;
}

/**
 * Follows the state of the uploads it is told to watch until they are unwatched: one event stream
 * while any is watched (closed when none is), with a catch-up `GET` of each watched upload
 * whenever the stream opens, so nothing that happened while it was closed is missed.
 */
export class UploadWatcher {
  readonly #ids = new Set<string>();
  readonly #options: UploadWatcherOptions;
  #lastEventId = '';
  #controller?: AbortController;
  #running = false;
  #closed = false;
  #streaming = false;
  #mode: WatchMode = 'idle';
  #retryMs?: number;
  /** What the last stream's `event: close` said (`unknown` when its data could not be read). */
  #closeReason?: StreamCloseReason | 'unknown';

  constructor(options: UploadWatcherOptions) {
    this.#options = options;
  }

  get mode(): WatchMode {
    return this.#mode;
  }

  get watched(): ReadonlySet<string> {
    return this.#ids;
  }

  watch(uploadId: string): void {
    if (this.#closed || this.#ids.has(uploadId)) return;
    this.#ids.add(uploadId);
    if (!this.#running) this.#start();
    else if (this.#streaming) void this.#catchUp([uploadId], this.#controller?.signal);
  }

  unwatch(uploadId: string): void {
    this.#ids.delete(uploadId);
    if (this.#ids.size === 0) this.#controller?.abort();
  }

  close(): void {
    this.#closed = true;
    this.#ids.clear();
    this.#controller?.abort();
  }

  #setMode(mode: WatchMode): void {
    if (mode === this.#mode) return;
    this.#mode = mode;
    this.#options.onModeChange?.(mode);
  }

  #start(): void {
    this.#running = true;
    this.#controller = new AbortController();
    void this.#run(this.#controller.signal).finally(() => {
      this.#running = false;
      this.#streaming = false;
      this.#setMode('idle');
      if (this.#ids.size && !this.#closed) this.#start();
    });
  }

  async #run(signal: AbortSignal): Promise<void> {
    const { maxFailures = 3, backoffMs = 500, maxBackoffMs = 10_000, pollIntervalMs = 2000 } = this.#options;
    const streamRetryEvery = this.#options.streamRetryEvery ?? 15;
    let failures = 0;
    let polls = 0;
    while (this.#ids.size && !signal.aborted) {
      if (failures >= maxFailures) {
        this.#setMode('polling');
        await this.#catchUp([...this.#ids], signal);
        await delay(pollIntervalMs, signal);
        if (++polls % streamRetryEvery === 0) failures = maxFailures - 1;
        continue;
      }
      this.#closeReason = undefined;
      try {
        const result = await readEventStream({
          client: this.#options.client,
          lastEventId: this.#lastEventId,
          signal,
          onOpen: () => {
            failures = 0;
            polls = 0;
            this.#streaming = true;
            this.#setMode('streaming');
            void this.#catchUp([...this.#ids], signal);
          },
          onEvent: (event) => this.#onStreamEvent(event, signal),
          onRetry: (ms) => (this.#retryMs = ms),
        });
        if (!result.received) failures++;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        this.#options.onError?.(toSvcError(error));
      }
      this.#streaming = false;
      if (signal.aborted || !this.#ids.size) break;
      if (this.#closeReason === 'token_expired') continue; // the next request carries a fresh token
      if (this.#closeReason === 'too_many_streams') {
        failures = maxFailures;
        continue;
      }
      this.#setMode('reconnecting');
      await delay(backoffDelay(Math.max(1, failures), this.#retryMs ?? backoffMs, maxBackoffMs), signal);
    }
  }

  #onStreamEvent(event: SseEvent, signal: AbortSignal): void {
    this.#lastEventId = event.lastEventId;
    // Compared as the relay's names (wire.ts); any other event type is skipped.
    const type = event.type as StreamEventName;
    if (type === 'reset') {
      // The relay's store is behind our cursor (reset, restored, another instance): the id of the
      // reset is where it stands; what we follow is read again.
      void this.#catchUp([...this.#ids], signal);
      return;
    }
    if (type === 'close') {
      try {
        this.#closeReason = (JSON.parse(event.data) as StreamClose).reason;
      } catch {
        this.#closeReason = 'unknown';
      }
      return;
    }
    if (type !== 'upload') return;
    let data: UploadEvent;
    try {
      data = JSON.parse(event.data) as UploadEvent;
    } catch {
      this.#options.onError?.(new SvcError('internal', 'The relay sent an upload event that is not JSON.'));
      return;
    }
    if (data && typeof data.upload_id === 'string' && typeof data.state === 'string') this.#options.onEvent(data);
  }

  async #catchUp(ids: string[], signal?: AbortSignal): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        try {
          const state = await this.#options.client.upload(id, signal);
          if (!signal?.aborted && this.#ids.has(id)) this.#options.onEvent(state);
        } catch (error) {
          const failure = toSvcError(error);
          if (failure.code === 'aborted') return;
          if (failure.code === 'not_found') this.#ids.delete(id);
          this.#options.onError?.(failure, id);
        }
      }),
    );
  }
}
