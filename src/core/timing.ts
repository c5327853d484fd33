// Waiting: one abortable delay and one backoff rule for everything that retries (the upload queue,
// the event watcher, the relay's upstream calls and its own store retries). DOM-free.

/** Resolves after `ms`, or at once when `signal` aborts (callers check `signal.aborted`). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Exponential backoff with jitter: attempt 1 waits about `base`, doubling up to `cap`. */
export function backoffDelay(attempt: number, base: number, cap: number, random = Math.random): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
