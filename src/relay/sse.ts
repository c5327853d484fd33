// Upload state changes pushed to browsers over Server-Sent Events. Events are persisted in the
// store first (that is what gives them their monotonic id), so a reconnecting browser that sends
// Last-Event-ID gets every event it missed, even across a relay restart. A Last-Event-ID the store
// has never reached (a reset or restored database, another instance) is answered with
// `event: reset`, so the client drops its cursor instead of waiting for ids that will not come.
// A stream ends with `event: close` and a reason: too many streams for the user (the oldest
// goes), the token that opened it expired, or the relay is closing. The hub hears events from the
// store's feed (with PostgreSQL, those stored by every relay instance on the database).
import type { Store, StoredEvent } from './store/store.js';

/** Hears an event with its wire form, encoded once for every stream of the owner. */
type Listener = (event: StoredEvent, bytes: Uint8Array) => void;

/** Why the relay ended a stream (`event: close`, `data: {"reason": ...}`). */
export type CloseReason = 'too_many_streams' | 'token_expired' | 'relay_closing';

const encoder = new TextEncoder();
const MAX_TIMER_MS = 2 ** 31 - 1;
const PING = encoder.encode(': ping\n\n');

function formatEvent(event: StoredEvent): string {
  return `id: ${event.seq}\nevent: upload\ndata: ${JSON.stringify(event.data)}\n\n`;
}

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
  finish(reason?: CloseReason): void;
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

  /** A text/event-stream body for `owner`: replay after `lastId` (when given), then live events. */
  stream({ owner, lastId, expiresAt, onError }: StreamOptions): ReadableStream<Uint8Array> {
    const open = this.#streams.get(owner) ?? [];
    this.#streams.set(owner, open);
    while (open.length >= this.maxStreamsPerUser) open[0]!.finish('too_many_streams');
    const self: OpenStream = { write: () => {}, finish: () => {} };
    open.push(self);
    this.#heartbeat ??= setInterval(() => {
      for (const streams of this.#streams.values()) for (const stream of streams) stream.write(PING);
    }, this.heartbeatMs);
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let closed = false;
        let sent = lastId ?? 0;
        let replaying = lastId !== undefined;
        const pending: StoredEvent[] = [];
        let expiry: ReturnType<typeof setTimeout> | undefined;
        const write = (bytes: Uint8Array) => {
          if (closed) return;
          try {
            controller.enqueue(bytes);
          } catch {
            self.finish();
          }
        };
        const text = (value: string) => write(encoder.encode(value));
        const deliver = (event: StoredEvent, bytes?: Uint8Array) => {
          if (event.seq <= sent) return;
          sent = event.seq;
          write(bytes ?? encoder.encode(formatEvent(event)));
        };
        const unsubscribe = this.#subscribe(owner, (event, bytes) => (replaying ? pending.push(event) : deliver(event, bytes)));
        self.write = write;
        self.finish = (reason) => {
          if (closed) return;
          if (reason) text(`event: close\ndata: ${JSON.stringify({ reason })}\n\n`);
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
        if (expiresAt !== undefined) {
          const arm = () => {
            const left = expiresAt - Date.now();
            if (left <= 0) return self.finish('token_expired');
            expiry = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
          };
          arm();
        }
        text('retry: 2000\n: connected\n\n');
        if (lastId !== undefined) {
          void this.#replay(owner, lastId, deliver, (newest) => {
            // The client is ahead of the store: tell it so and continue from what the store has.
            sent = newest;
            text(`id: ${newest}\nevent: reset\ndata: ${JSON.stringify({ last_event_id: newest })}\n\n`);
          })
            .catch(onError)
            .finally(() => {
              replaying = false;
              for (const event of pending.splice(0)) deliver(event);
            });
        }
      },
      cancel: () => self.finish(),
    });
  }

  async #replay(owner: string, lastId: number, deliver: (event: StoredEvent) => void, reset: (newest: number) => void) {
    const newest = await this.store.lastEventSeq();
    if (lastId > newest) return reset(newest);
    let after = lastId;
    for (;;) {
      const events = await this.store.eventsAfter(owner, after, 500);
      for (const event of events) deliver(event);
      if (events.length < 500) return;
      after = events[events.length - 1]!.seq;
    }
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

  /** Open streams of one user. */
  openStreamsOf(owner: string): number {
    return this.#streams.get(owner)?.length ?? 0;
  }
}
