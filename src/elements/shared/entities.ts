// The HTML entity decoder of the channel setup's embed code: `he` (complete, as a browser decodes,
// with no DOM sink, so it works under Trusted Types and in Node). It is large: loaded with `import()`
// when first needed, never in an element's first download (a static import of it would also add
// esbuild's CommonJS interop helpers to a file every page downloads). The player's load chunk loads
// it the same way itself (load.ts): a module both imported would be a file of its own with esbuild
// on a page of several elements. (The script-tag build puts `he` in the player's load file.)
import type { EntityDecoder } from '../../core/embed-code.js';
import { networkError } from '../../core/errors.js';

let decoder: Promise<EntityDecoder> | undefined;

/** The decoder (text with its character references decoded once, as the HTML parser would): loaded once per page; a failed download is `network_error`, forgotten (the next call tries again). */
export const loadDecoder = (): Promise<EntityDecoder> =>
  (decoder ??= import('he').then(
    (module) => (text: string) => module.default.decode(text),
    (error: unknown) => {
      decoder = undefined;
      throw networkError(error);
    },
  ));
