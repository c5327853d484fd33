// Loads what the uploader needs only once files come (lazy.ts) with `import()`, once per page.
export type Lazy = typeof import('./lazy.js');

/** The module, once loaded on this page: later elements start their queue at once. */
export let lazy: Lazy | undefined;
let loading: Promise<Lazy> | undefined;

/** Loads lazy.ts (a failed load is tried again next time). */
export function load(): Promise<Lazy> {
  loading ??= import('./lazy.js').then(
    (module) => (lazy = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
