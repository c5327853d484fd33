// The script-tag path of the element browser tests (the `script-tag` group of
// web-test-runner.config.mjs): the page's import map points each element define module a test
// imports (src/elements/<tag>/define.ts, src/elements/define.ts) at this module, with the tags it
// registers in `?tags=`. It imports the built loader as a page's script tag does (/svc/elements.js,
// served by the relay from dist/cdn/) and has it register those tags, so a test gets the built
// elements where it imported the source ones.
import type * as Loader from '../../src/elements/loader.js';

/** The loader through the relay, as the README's page has it (a variable: not a module tsc resolves). */
const LOADER = '/svc/elements.js';

const tags = new URL(import.meta.url).searchParams.get('tags')!.split(',');
// The page's guard (web-test-runner.config.mjs `sourceGuard`) lets svc-* tags be registered from now on.
(window as unknown as { svcBuiltLoader: boolean }).svcBuiltLoader = true;
const { discover } = (await import(LOADER)) as typeof Loader;

// A detached tree holding one of each tag (as a shadow root would): `discover` imports their code,
// which the test expects defined once its imports have run (`fixture()` renders them at once).
const holder = document.createElement('div');
for (const tag of tags) holder.append(document.createElement(tag));
discover(holder);

// The loader only warns when a file could not be downloaded: fail the page with the tags instead.
let timer: ReturnType<typeof setTimeout> | undefined;
const timeout = new Promise<never>((_, reject) => {
  timer = setTimeout(() => reject(new Error(`${LOADER} did not define <${tags.join('>, <')}> within 15 s`)), 15_000);
});
await Promise.race([Promise.all(tags.map((tag) => customElements.whenDefined(tag))), timeout]);
clearTimeout(timer);
