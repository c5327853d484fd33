// A small LRU cache with a time limit whose concurrent misses share one load.
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #loading = new Map<string, Promise<V>>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= this.now()) return undefined;
    this.#entries.set(key, entry); // most recently used goes last
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** The cached value, or the result of one `load` shared by every concurrent caller. Errors are not cached. */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = load().then(
        (value) => {
          this.#loading.delete(key);
          this.set(key, value);
          return value;
        },
        (error: unknown) => {
          this.#loading.delete(key);
          throw error;
        },
      );
      this.#loading.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }
}
