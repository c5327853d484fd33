// Upload state changes pushed to browsers over Server-Sent Events. Events are persisted in the
// store first (that is what gives them their monotonic id), so a reconnecting browser that sends
// Last-Event-ID gets every event it missed, even across a relay restart. A Last-Event-ID the store
// has never reached (a reset or restored database, another instance), or one older than what
// retention kept (SVC_EVENT_RETENTION), is answered with `event: reset` and the owner's own newest
// id, so the client drops its cursor and re-reads states instead of waiting for ids that will not come.
// A stream ends with `event: close` and a reason: too many streams for the user (the oldest
// goes), the token that opened it expired, or the relay is closing. The hub hears events from the
// store's feed (with PostgreSQL, those stored by every relay instance on the database).
import type { StreamClose, StreamCloseReason, StreamEventName, StreamReset } from '../core/wire.js';
import type { Store, StoredEvent } from './store/store.js';

/** Hears an event with its wire form, encoded once for every stream of the owner. */
type Listener = (event: StoredEvent, bytes: Uint8Array) => void;

const encoder = new TextEncoder();
const MAX_TIMER_MS = 2 ** 31 - 1;
const PING = encoder.encode(': ping\n\n');
/** Events read from the store per page (one chunk) while a stream catches up. */
const REPLAY_PAGE = 500;
/** Live chunks that may wait for a client that does not read; past it, the stream falls behind to the store. */
const MAX_QUEUED = 64;

/** One event of the stream in its wire form (`id` omitted when undefined). */
function frame(name: StreamEventName, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

const formatEvent = (event: StoredEvent) => frame('upload', event.data, event.seq);

export interface StreamOptions {
  owner: string;
  /** Last-Event-ID sent by the client. */
  lastId?: number;
  /** When the credential that opened the stream expires (epoch ms). */
  expiresAt?: number;
  onError(error: unknown): void;
}

interface OpenStream {
  write(bytes: Uint8Array): void;
  finish(reason?: StreamCloseReason): void;
}

export class EventHub {
  readonly #listeners = new Map<string, Set<Listener>>();
  /** Open streams per owner, oldest first. */
  readonly #streams = new Map<string, OpenStream[]>();
  /** One heartbeat for every open stream (none while no stream is open). */
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly store: Store,
    readonly heartbeatMs: number,
    readonly maxStreamsPerUser = 10,
  ) {
    store.subscribe((event) => this.publish(event));
  }

  /** Hands `event` to the owner's streams, serialized and encoded once for all of them. */
  publish(event: StoredEvent): void {
    const listeners = this.#listeners.get(event.owner);
    if (!listeners) return;
    const bytes = encoder.encode(formatEvent(event));
    for (const listener of listeners) listener(event, bytes);
  }

  #subscribe(owner: string, listener: Listener): () => void {
    let set = this.#listeners.get(owner);
    if (!set) this.#listeners.set(owner, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.#listeners.delete(owner);
    };
  }

  /**
   * A text/event-stream body for `owner`: replay after `lastId` (when given), then live events.
   * What the client has not been sent is read from the store as the client reads (`pull`), a page
   * at a time, never held here: a replay starts so, and a live stream whose client stops reading
   * falls back to it once MAX_QUEUED chunks wait. So a stream holds about one page however far
   * behind its client is, and events of any age reach it in order from one place, the table.
   */
  stream({ owner, lastId, expiresAt, onError }: StreamOptions): ReadableStream<Uint8Array> {
    const open = this.#streams.get(owner) ?? [];
    this.#streams.set(owner, open);
    while (open.length >= this.maxStreamsPerUser) open[0]!.finish('too_many_streams');
    const self: OpenStream = { write: () => {}, finish: () => {} };
    open.push(self);
    this.#heartbeat ??= setInterval(() => {
      for (const streams of this.#streams.values()) for (const stream of streams) stream.write(PING);
    }, this.heartbeatMs);
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let sent = lastId ?? 0;
    /** Events after `sent` are to be read from the store (replaying, or the client fell behind). */
    let behind = lastId !== undefined;
    /** The newest event heard live while behind: the catch-up is done once it reached it. */
    let heard = 0;
    let checked = lastId === undefined;
    let expiry: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe = () => {};
    const write = (bytes: Uint8Array) => {
      if (closed) return;
      try {
        controller.enqueue(bytes);
      } catch {
        self.finish();
      }
    };
    const text = (value: string) => write(encoder.encode(value));
    const live: Listener = (event, bytes) => {
      if (event.seq <= sent) return;
      if (behind || (controller.desiredSize ?? 0) < -MAX_QUEUED) {
        behind = true;
        heard = Math.max(heard, event.seq);
        return;
      }
      sent = event.seq;
      write(bytes);
    };
    /** One page of what the client has not been sent, as one chunk; live again once nothing is left. */
    const catchUp = async () => {
      if (!checked) {
        checked = true;
        const bounds = await this.store.eventBounds(owner);
        // Ahead of the store (reset or restored database, another store), or behind what retention
        // kept (the events after it may be gone): the client re-reads states from the owner's newest.
        if (sent > bounds.newest || sent < bounds.oldest - 1) {
          sent = bounds.own;
          text(frame('reset', { last_event_id: bounds.own } satisfies StreamReset, bounds.own));
        }
      }
      for (;;) {
        const before = heard;
        const events = await this.store.eventsAfter(owner, sent, REPLAY_PAGE);
        if (closed) return;
        if (events.length) {
          sent = events[events.length - 1]!.seq;
          write(encoder.encode(events.map(formatEvent).join('')));
        }
        if (events.length === REPLAY_PAGE) return; // more when the client has read this
        // Events heard before the read were committed before it: it had them. Ones heard while it
        // ran may not have been: read once more; else what comes next comes live.
        if (heard === before) {
          behind = false;
          return;
        }
      }
    };
    self.write = write;
    self.finish = (reason) => {
      if (closed) return;
      if (reason) text(frame('close', { reason } satisfies StreamClose));
      closed = true;
      clearTimeout(expiry);
      unsubscribe();
      const index = open.indexOf(self);
      if (index >= 0) open.splice(index, 1);
      if (!open.length && this.#streams.get(owner) === open) this.#streams.delete(owner);
      if (!this.#streams.size) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
      }
      try {
        controller.close();
      } catch {
        // already closed by the client
      }
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
          unsubscribe = this.#subscribe(owner, live);
          if (expiresAt !== undefined) {
            const arm = () => {
              const left = expiresAt - Date.now();
              if (left <= 0) return self.finish('token_expired');
              expiry = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
            };
            arm();
          }
          text('retry: 2000\n: connected\n\n');
        },
        // Called when the client has read what was queued: the next page, while behind.
        pull: async () => {
          if (!behind || closed) return;
          try {
            await catchUp();
          } catch (error) {
            // The client reconnects with the last id it got and is replayed from there.
            onError(error);
            self.finish();
          }
        },
        cancel: () => self.finish(),
      },
      { highWaterMark: 1 },
    );
  }

  /** Ends every open stream (used when the relay drains). */
  closeAll(): void {
    for (const open of [...this.#streams.values()]) for (const stream of [...open]) stream.finish('relay_closing');
  }

  get openStreams(): number {
    let count = 0;
    for (const open of this.#streams.values()) count += open.length;
    return count;
  }
}
