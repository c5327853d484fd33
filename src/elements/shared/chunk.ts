// The one chunk loader of the elements (re-exported by the lazy-part seam, part.ts). It imports
// nothing, so a first paint that must stay small (the player's) can take it alone.

/** A module loaded with `import()` when first needed: once per page, a failed download forgotten (the next need tries again). */
export interface Chunk<T> {
  /** Loads the module (or returns the load under way); rejects with what the download threw. */
  (): Promise<T>;
  /** The module, once loaded on this page. */
  readonly value: T | undefined;
}

/**
 * The one chunk loader: `lazyChunk(() => import('./part.js'))`, made once per module (so once per
 * page). It imports nothing, so a first paint that must stay small (the player's) can take it; the
 * seam (part.ts) reports a failed download as `network_error`.
 */
export function lazyChunk<T>(load: () => Promise<T>): Chunk<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  const chunk = () =>
    (loading ??= load().then(
      (module) => (value = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.defineProperty(chunk, 'value', { get: () => value }) as Chunk<T>;
}
