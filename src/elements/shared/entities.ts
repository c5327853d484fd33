// The HTML entity decoder of an embed code (the player's, the channel setup's): `he` (complete, as
// a browser decodes, with no DOM sink, so it works under Trusted Types and in Node). It is large:
// loaded as a chunk when first needed, never in an element's first download (a static import of it
// would also add esbuild's CommonJS interop helpers to a file every page downloads). The
// script-tag build puts `he` in the player's load file.
import type { EntityDecoder } from '../../core/embed-code.js';
import { networkError } from '../../core/errors.js';
import { lazyChunk } from './chunk.js';

const heChunk = lazyChunk(() => import('he'));

/** The decoder (text with its character references decoded once, as the HTML parser would): loaded once per page; a failed download is `network_error`, forgotten (the next call tries again). */
export const loadDecoder = (): Promise<EntityDecoder> =>
  heChunk().then(
    (module) => (text: string) => module.default.decode(text),
    (error: unknown) => {
      throw networkError(error);
    },
  );
