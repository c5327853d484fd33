// Fixed-window request counters per key (user or client address); 429 with Retry-After.
// Counters live in two generations of one window length each: new counters go into the current
// one, and when a window has passed the older generation is dropped whole (every counter in it
// has ended by then). So a request costs two map lookups however many clients there are, with no
// scan, and memory holds at most two generations of at most `maxKeys` counters each.
import { HttpError } from './http-error.js';
import type { RateLimit } from './config.js';

interface Counter {
  count: number;
  resetAt: number;
}

/** Counters per generation by default: about 10 MB per generation with short keys. */
export const DEFAULT_MAX_KEYS = 100_000;

export class RateLimiter {
  #current = new Map<string, Counter>();
  #previous = new Map<string, Counter>();
  /** When the current generation ends (counters made in it end by `+ windowMs`). */
  #turnAt: number;

  constructor(
    readonly rule: RateLimit,
    readonly now: () => number = Date.now,
    readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    this.#turnAt = now() + rule.windowMs;
  }

  /** Counts one request for `key`; throws 429 when the window's limit is used up. */
  hit(key: string): void {
    const now = this.now();
    if (now >= this.#turnAt) this.#turn(now);
    let counter = this.#current.get(key) ?? this.#previous.get(key);
    if (!counter || counter.resetAt <= now) {
      counter = { count: 0, resetAt: now + this.rule.windowMs };
      // Full: the counter made longest ago in this generation goes (its key starts afresh), as
      // nginx drops its least recently used states; memory stays bounded whatever the traffic.
      if (this.#current.size >= this.maxKeys) this.#current.delete(this.#current.keys().next().value!);
      this.#current.set(key, counter);
    }
    counter.count++;
    if (counter.count > this.rule.limit) {
      const seconds = Math.max(1, Math.ceil((counter.resetAt - now) / 1000));
      throw new HttpError(429, 'rate_limited', `Too many requests; try again in ${seconds} s.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }

  /** Counters held now (both generations; a key counted in both is counted twice). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }

  #turn(now: number) {
    // A counter made in the previous generation ended before now; one made in the current
    // generation ends within the next window, before the generation after this one turns.
    const idle = now >= this.#turnAt + this.rule.windowMs;
    this.#previous = idle ? new Map() : this.#current;
    this.#current = new Map();
    this.#turnAt = now + this.rule.windowMs;
  }
}
