// The player's two parts loaded with `import()`, each once per page. The channel setup takes the
// embed code's decoder from the load chunk too: its panel's preview player downloads that chunk
// anyway, and a bundler (esbuild) would otherwise make the decoder an entry of its own, and the one
// chunk loader it imports a file of its own in every first paint.
import { lazyChunk } from '../shared/chunk.js';

/** The play button of `loading="click"`, loaded only by pages that use it. */
export const facadeChunk = lazyChunk(() => import('./facade.js'));

/**
 * The load chunk (load.ts): the load, the relay client, the viewer's language, error codes, the
 * validator and entity decoder, the builder and the media bridge, loaded when a player is to load
 * (`.value` once it is).
 */
export const loadChunk = lazyChunk(() => import('./load.js'));
