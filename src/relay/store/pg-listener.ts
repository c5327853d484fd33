// The fan-out between relay instances on one PostgreSQL database: one connection per instance
// LISTENs on one channel; every stored event is NOTIFYd on commit (store/postgres.ts). A
// notification only wakes the listener: any role that can connect to the database can send one,
// so its payload is never read. Woken, the listener reads the `events` table after its own cursor
// (the newest seq it delivered), in `seq` order, which the store makes equal to commit order. When
// the listening connection is lost, it is re-established and the events stored meanwhile are read
// the same way. So the feed has no gap, no event twice, none out of order and none forged.
import pg from 'pg';
import type { Logger } from '../log.js';
import type { StoredEvent } from './store.js';
import { SQL, numbered, toEvent, type EventRow } from './shared.js';

export const CHANNEL = 'svc_relay_events';
/** application_name of the listening connection (visible in pg_stat_activity). */
export const LISTENER_NAME = 'svc-relay-listener';

const ALL_EVENTS_AFTER = numbered(SQL.allEventsAfter);
const PAGE = 500;
const RETRY_MS = { first: 100, max: 5000 };

export class PgEventListener {
  #client: pg.Client | undefined;
  #last = 0;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  #retryMs = RETRY_MS.first;
  #retryTimer: NodeJS.Timeout | undefined;
  /** A read of the table is queued and has not started: later wake-ups are covered by it. */
  #woken = false;
  #readTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly connectionString: string,
    readonly pool: pg.Pool,
    readonly emit: (event: StoredEvent) => void,
    readonly log?: Logger,
  ) {}

  /** Listens from now on: events committed before start are the stores' to replay, not the feed's. */
  async start(): Promise<void> {
    await this.#connect(async () => {
      const { rows } = await this.pool.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM events');
      this.#last = Number(rows[0]?.seq ?? 0);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#readTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  /** Runs tasks one after another, so deliveries keep their order. */
  #enqueue(task: () => Promise<void> | void): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Connects, LISTENs, and runs `sync` before any notification that arrives after LISTEN. */
  async #connect(sync: () => Promise<void>): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: LISTENER_NAME });
    client.on('error', (error) => this.log?.warn('event_listener_error', { error: error.message }));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && client === this.#client) this.#wake();
    });
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      this.#client = client;
      // Notifications arrive on later I/O turns, so this sync is queued ahead of all of them.
      const listened = client.query(`LISTEN ${CHANNEL}`);
      await this.#enqueue(async () => {
        await listened;
        await sync();
      });
    } catch (error) {
      if (this.#client === client) this.#client = undefined;
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) await this.close();
  }

  #lost(client: pg.Client) {
    if (this.#closed || client !== this.#client) return;
    this.#client = undefined;
    this.log?.warn('event_listener_lost', { retry_ms: this.#retryMs });
    this.#retryLater();
  }

  #retryLater() {
    this.#retryTimer = setTimeout(() => void this.#reconnect(), this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.max);
  }

  async #reconnect() {
    if (this.#closed) return;
    try {
      await this.#connect(() => this.#catchUp());
      this.#retryMs = RETRY_MS.first;
      this.log?.info('event_listener_restored', { after_seq: this.#last });
    } catch (error) {
      this.log?.warn('event_listener_retry', { error: (error as Error).message, retry_ms: this.#retryMs });
      if (!this.#closed) this.#retryLater();
    }
  }

  /** A notification arrived (whatever it says): reads the table after the cursor, once per burst. */
  #wake() {
    if (this.#woken) return;
    this.#woken = true;
    void this.#enqueue(() => {
      this.#woken = false;
      return this.#catchUp();
    }).catch((error: Error) => {
      // The table could not be read (the database is away): read it again shortly, notified or not.
      this.log?.error('event_listener_read_failed', { error: error.message, retry_ms: RETRY_MS.max });
      clearTimeout(this.#readTimer);
      this.#readTimer = setTimeout(() => !this.#closed && this.#wake(), RETRY_MS.max);
    });
  }

  /** Delivers every event after the cursor from the table, oldest first. */
  async #catchUp() {
    for (;;) {
      const { rows } = await this.pool.query<EventRow>(ALL_EVENTS_AFTER, [this.#last, PAGE]);
      for (const row of rows) {
        const event = readable(row);
        if (event) this.#deliver(event);
        else {
          // A row the relay cannot read (written by hand, or copied in damaged) is passed over: the
          // feed goes on with the next one instead of stopping at it.
          this.#last = Math.max(this.#last, Number(row.seq));
          this.log?.error('event_row_invalid', { seq: Number(row.seq) });
        }
      }
      if (rows.length < PAGE) return;
    }
  }

  #deliver(event: StoredEvent) {
    if (event.seq <= this.#last) return;
    this.#last = event.seq;
    try {
      this.emit(event);
    } catch (error) {
      this.log?.error('event_delivery_failed', { seq: event.seq, error: (error as Error).message });
    }
  }
}

/** The event of a row, or undefined when its data is not a JSON object. */
function readable(row: EventRow): StoredEvent | undefined {
  try {
    const event = toEvent(row);
    return typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data) ? event : undefined;
  } catch {
    return undefined;
  }
}
