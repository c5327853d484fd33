// What the control API shows and changes: recorded uploads and callback deliveries, injected
// faults and runtime settings. The records are kept even when the control API is off (they are
// small and bounded); the routes (control-routes.ts) are mounted only with `control: true`.
import { z } from 'zod';

export type Origin = 'api' | 'upload' | 'player';

export interface UploadRecord {
  key: string | null;
  vod_id: string | null;
  field_names: string[];
  size: number;
  status: number;
}

export interface CallbackAttempt {
  at: string;
  status: number | null;
  error: string | null;
}

export interface CallbackRecord {
  vod_id: string;
  title: string;
  callback_url: string;
  delivered: boolean;
  attempts: CallbackAttempt[];
}

export const faultRequest = z.object({
  origin: z.enum(['api', 'upload', 'player']),
  method: z.string().regex(/^[A-Za-z]+$/).max(16).optional(),
  path: z.string().startsWith('/').max(2048).optional(),
  status: z.number().int().min(100).max(599).optional(),
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  /** Closes the connection without an answer (after latency_ms), as a network failure does. */
  drop: z.boolean().optional(),
  count: z.number().int().min(0).max(1_000_000).optional(),
});

export interface Fault {
  id: string;
  origin: Origin;
  method: string | null;
  path: string | null;
  status: number | null;
  latency_ms: number;
  /** The connection is closed without an answer. */
  drop: boolean;
  /** 0 = until reset. */
  count: number;
  /** How many requests it has hit so far. */
  hits: number;
}

export const callbackFaultRequest = z.object({
  fail_next: z.number().int().min(0).max(1000).optional(),
  duplicate_next: z.number().int().min(0).max(1000).optional(),
});

/** Content of a second account: ids the observed profile answers 403 for. */
export const otherAccountRequest = z.object({ kind: z.enum(['vod', 'channel', 'playlist']) });

export const settingsRequest = z.object({
  signature_ttl_ms: z.number().int().min(-86_400_000).max(7 * 86_400_000).nullable().optional(),
  processing_ms: z.number().int().min(0).max(3_600_000).optional(),
  list_item_types: z.boolean().optional(),
  policy_max_bytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
});

export interface Settings {
  /** Policy lifetime for signatures issued from now on; null = the default. */
  signature_ttl_ms: number | null;
  processing_ms: number;
  /** Observed profile: content.list items carry `type`; false answers them as the seed shows (no type). */
  list_item_types: boolean;
  /** The largest file the policy of signatures issued from now on allows; null = the service's limit. */
  policy_max_bytes: number | null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Records kept for the state view; older entries are dropped beyond this. */
const MAX_RECORDS = 1000;

export class Control {
  readonly uploads: UploadRecord[] = [];
  readonly callbacks: CallbackRecord[] = [];
  faults: Fault[] = [];
  failNext = 0;
  duplicateNext = 0;
  settings: Settings;
  #nextFault = 1;

  constructor(readonly defaults: Settings) {
    this.settings = { ...defaults };
  }

  recordUpload(record: UploadRecord): void {
    this.uploads.push(record);
    if (this.uploads.length > MAX_RECORDS) this.uploads.shift();
  }

  newCallback(record: CallbackRecord): CallbackRecord {
    this.callbacks.push(record);
    if (this.callbacks.length > MAX_RECORDS) this.callbacks.shift();
    return record;
  }

  addFault(request: z.infer<typeof faultRequest>): Fault {
    const fault: Fault = {
      id: `fault-${this.#nextFault++}`,
      origin: request.origin,
      method: request.method?.toUpperCase() ?? null,
      path: request.path ?? null,
      status: request.status ?? null,
      latency_ms: request.latency_ms ?? 0,
      drop: request.drop ?? false,
      count: request.count ?? 1,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  /**
   * The fault that applies to this request, if any, counted as used. Preflights are never
   * matched unless the fault names OPTIONS, and the control API itself is never faulted.
   */
  takeFault(origin: Origin, method: string, path: string): Fault | undefined {
    if (path === '/_control' || path.startsWith('/_control/')) return undefined;
    const fault = this.faults.find(
      (f) =>
        f.origin === origin &&
        (f.method ? f.method === method : method !== 'OPTIONS') &&
        (f.path === null || path.startsWith(f.path)) &&
        (f.count === 0 || f.hits < f.count),
    );
    if (fault) fault.hits++;
    return fault;
  }

  /** Whether the next callback attempt is to fail (and counts it). */
  takeCallbackFailure(): boolean {
    if (this.failNext <= 0) return false;
    this.failNext--;
    return true;
  }

  takeDuplicate(): boolean {
    if (this.duplicateNext <= 0) return false;
    this.duplicateNext--;
    return true;
  }

  reset(): void {
    this.faults = [];
    this.failNext = 0;
    this.duplicateNext = 0;
    this.settings = { ...this.defaults };
  }

  state() {
    return {
      uploads: this.uploads,
      // The callback URL's path carries the receiver's secret (the relay's token): only its origin.
      callbacks: this.callbacks.map(({ callback_url, ...rest }) => ({ ...rest, callback_origin: originOf(callback_url) })),
      faults: this.faults.map((f) => ({ ...f, remaining: f.count === 0 ? null : f.count - f.hits })),
      callback_faults: { fail_next: this.failNext, duplicate_next: this.duplicateNext },
      settings: this.settings,
    };
  }
}
