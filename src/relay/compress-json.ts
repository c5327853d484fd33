// JSON answers above about 1 KB (the library, a playlist) in brotli or gzip when the client accepts
// it, with `Vary: Accept-Encoding`. Hono's compress middleware would do gzip only, and every JSON
// answer: a Response made from a string has no Content-Length for its threshold to read. JSON
// bodies are whole strings anyway, so this reads the body and compresses it at once; the event
// stream (text/event-stream) is never touched.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { negotiate } from './built-files.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this many bytes a JSON answer goes as it is (compression would save less than it costs). */
export const COMPRESS_JSON_FROM = 1024;

export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // HEAD too (Hono answers it with the GET route's headers, the body dropped): the same headers.
    if (!res.body || res.headers.has('Content-Encoding') || !/^application\/json\b/i.test(res.headers.get('Content-Type') ?? '')) return;
    const length = res.headers.get('Content-Length');
    if (length !== null && Number(length) < COMPRESS_JSON_FROM) return; // the cached public answers say their size
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const plain = Buffer.from(await res.arrayBuffer());
    let body: Buffer = plain;
    const encoding = plain.length >= COMPRESS_JSON_FROM ? negotiate(c.req.header('Accept-Encoding')) : 'identity';
    if (encoding === 'br') {
      body = await brotli(plain, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } });
    } else if (encoding === 'gzip') body = await gzipAsync(plain);
    // Hono merges the answer's headers into a new one: set them on it afterwards.
    c.res = new Response(new Uint8Array(body), res);
    const headers = c.res.headers;
    headers.set('Content-Length', String(body.length));
    if (plain.length < COMPRESS_JSON_FROM) return;
    const vary = headers.get('Vary');
    if (!vary || !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    if (encoding === 'identity') return;
    headers.set('Content-Encoding', encoding);
    // One ETag named two bodies: weak now, as Hono's compress makes it (If-None-Match ignores W/).
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  };
}
