// The HTML entity decoder of an embed code (the player's, the channel setup's). The service escapes
// a code with a handful of references (`&lt;`, `&gt;`, `&quot;`, `&amp;`, `&#39;`): those are decoded
// here. A code with any other reference (a named one such as `&eacute;`, a number outside printable
// ASCII, a reference without its semicolon), or an `&` that is not one (in the code or in the markup
// it decodes to, such as a title's `Q&A`), is decoded by `he` (complete, as a browser decodes,
// with no DOM sink, so it works under Trusted Types and in Node). `he` is large (about 25 KB
// compressed): loaded as a chunk of its own only then, never with an element's code (a static
// import of it would also add esbuild's CommonJS interop helpers to a file every page downloads).
import { MAX_CODE_LENGTH, type EntityDecoder } from '../../core/embed-code.js';
import { SvcError, networkError } from '../../core/errors.js';
import { lazyChunk } from './chunk.js';

const heChunk = lazyChunk(() => import('he'));

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The references decoded without `he`: five names, and numbers (decimal or hex) of printable ASCII, each with its semicolon. */
const BASIC = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,3}|[xX][\da-fA-F]{1,2}));/g;

/**
 * `text` decoded once as `he.decode` (the HTML parser) decodes it, when every `&` in it starts one
 * of the BASIC references; else undefined (only `he` decodes the others as a browser does).
 */
function decodeBasic(text: string): string | undefined {
  let basic = !text.replace(BASIC, '').includes('&');
  const decoded = text.replace(BASIC, (_, name?: string, number?: string) => {
    if (name) return NAMED[name]!;
    // `039`, `x27`: Number() reads `0039` and `0x27` alike.
    const code = Number('0' + number);
    if (code < 0x20 || code > 0x7e) basic = false;
    return String.fromCharCode(code);
  });
  return basic ? decoded : undefined;
}

/**
 * The decoder of the embed code `code` (text with its character references decoded once, as the
 * HTML parser would), good for the code and for any attribute value of the markup it decodes to
 * (embed-code.ts decodes an iframe's title once more). Without `he` when the code and that markup
 * hold only BASIC references (a value of the markup then holds no other: a reference never spans
 * a quote); else with `he`, loaded once per page, a failed download `network_error` (forgotten:
 * the next call tries again). A code longer than any accepted is neither read nor decoded: the
 * validator refuses it before decoding, and the decoder refuses it (`embed_rejected`).
 */
export async function decoderFor(code: string): Promise<EntityDecoder> {
  if (code.length > MAX_CODE_LENGTH) {
    return () => {
      throw new SvcError('embed_rejected', `The embed code is longer than ${MAX_CODE_LENGTH} characters.`);
    };
  }
  const markup = decodeBasic(code);
  if (markup !== undefined && decodeBasic(markup) !== undefined) {
    return (text) => {
      const decoded = decodeBasic(text);
      if (decoded === undefined) throw new Error('svc-elements: a text with references outside the embed code given to decoderFor');
      return decoded;
    };
  }
  const module = await heChunk().catch((error: unknown) => {
    throw networkError(error);
  });
  return (text) => module.default.decode(text);
}
