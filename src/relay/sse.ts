// Upload state changes pushed to browsers over Server-Sent Events. Events are persisted in the
// store first (that is what gives them their monotonic id), so a reconnecting browser that sends
// Last-Event-ID gets every event it missed, even across a relay restart. The hub hears events
// from the store's feed (with PostgreSQL, those stored by every relay instance on the database).
import type { Store, StoredEvent } from './store/store.js';

type Listener = (event: StoredEvent) => void;

const encoder = new TextEncoder();

export function formatEvent(event: StoredEvent): string {
  return `id: ${event.seq}\nevent: upload\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export class EventHub {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #streams = new Set<() => void>();

  constructor(
    readonly store: Store,
    readonly heartbeatMs: number,
  ) {
    store.subscribe((event) => this.publish(event));
  }

  publish(event: StoredEvent): void {
    for (const listener of this.#listeners.get(event.owner) ?? []) listener(event);
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
  stream(owner: string, lastId: number | undefined, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
    let finish = () => {};
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let closed = false;
        let sent = lastId ?? 0;
        let replaying = lastId !== undefined;
        const pending: StoredEvent[] = [];
        const write = (text: string) => {
          if (closed) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            finish();
          }
        };
        const deliver = (event: StoredEvent) => {
          if (event.seq <= sent) return;
          sent = event.seq;
          write(formatEvent(event));
        };
        const unsubscribe = this.#subscribe(owner, (event) => (replaying ? pending.push(event) : deliver(event)));
        const heartbeat = setInterval(() => write(': ping\n\n'), this.heartbeatMs);
        finish = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          this.#streams.delete(finish);
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        };
        this.#streams.add(finish);
        write('retry: 2000\n: connected\n\n');
        if (lastId !== undefined) {
          void this.#replay(owner, lastId, deliver)
            .catch(onError)
            .finally(() => {
              replaying = false;
              for (const event of pending.splice(0)) deliver(event);
            });
        }
      },
      cancel: () => finish(),
    });
  }

  async #replay(owner: string, lastId: number, deliver: (event: StoredEvent) => void) {
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
    for (const finish of [...this.#streams]) finish();
  }

  get openStreams(): number {
    return this.#streams.size;
  }
}
