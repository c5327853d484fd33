// Code an element loads with `import()` when it first needs it: once per page, a failed download
// forgotten (the next need tries again) and reported as what it is, a network failure.
import { networkError } from '../../core/errors.js';

export interface Chunk<T> {
  /** Loads the module (or returns the load under way). */
  (): Promise<T>;
  /** The module, once loaded on this page. */
  readonly value: T | undefined;
}

export function lazyChunk<T>(load: () => Promise<T>): Chunk<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  const chunk = () =>
    (loading ??= load().then(
      (module) => (value = module),
      (error: unknown) => {
        loading = undefined;
        throw networkError(error);
      },
    ));
  return Object.defineProperty(chunk, 'value', { get: () => value }) as Chunk<T>;
}
