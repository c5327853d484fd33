// Fixed-window request counters per key (user or client address); 429 with Retry-After.
import { HttpError } from './http-error.js';
import type { RateLimit } from './config.js';

export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly rule: RateLimit,
    readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `key`; throws 429 when the window's limit is used up. */
  hit(key: string): void {
    const now = this.now();
    if (this.#windows.size > 10_000) this.#prune(now);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rule.windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    if (window.count > this.rule.limit) {
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      throw new HttpError(429, 'rate_limited', `Too many requests; try again in ${seconds} s.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }

  #prune(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
