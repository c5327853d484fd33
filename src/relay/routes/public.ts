// Public routes (anonymous CMS visitors): config, embed codes (cached, coalesced, ETag/304),
// health, and the script-tag build (the loader elements.js and the files it imports).
import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { builtFiles, negotiate } from '../built-files.js';
import { COMPRESS_JSON_FROM } from '../compress-json.js';
import { EMBED_KINDS, EMBED_VARIANTS, REGIONS, RENDITION_COUNT, paths, schemas } from '../../service/index.js';
import type { EmbedKind, EmbedVariant } from '../../service/index.js';
import type { RelayConfig } from '../../core/wire.js';
import { badRequest, notFound } from '../http-error.js';
import { pathId } from '../validate.js';
import { toResponse, type CachedAnswer, type CachedAnswers } from '../cached-answer.js';
import type { ClientAddress } from '../client-address.js';
import type { Deps } from '../deps.js';
import { requestHeader, type AppEnv } from '../request.js';

const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

/** A request header by its lower-case name. */
type Header = (name: string) => string | undefined;

/** If-None-Match names `etag` (weak comparison) or is `*` (RFC 9110 §13.1.2). */
function notModified(header: Header, etag: string): boolean {
  const tags = header('if-none-match')?.trim();
  return !!tags && (tags === '*' || tags.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag));
}

/** The answers (200 and 304) of a public JSON body that browsers and CDNs may keep for `cacheControl`. */
export function cachedAnswers(json: string, etag: string, cacheControl: string): CachedAnswers {
  // The answers differ by Origin (CORS headers): with an Origin header, hono/cors says so itself.
  // The 304 names the type too: a cache merges a 304's headers into its copy, and without one the
  // Node adapter would send a default text/plain. A body that compress-json.ts compresses varies by
  // Accept-Encoding and has a weak tag (one tag, several bodies): its 304 says the same.
  const bytes = Buffer.byteLength(json);
  const compressed = bytes >= COMPRESS_JSON_FROM;
  const headers = Object.freeze({
    'Cache-Control': cacheControl,
    ETag: compressed ? `W/${etag}` : etag,
    Vary: compressed ? 'Origin, Accept-Encoding' : 'Origin',
    'Content-Type': 'application/json',
  });
  const okHeaders = Object.freeze({ ...headers, 'Content-Length': String(bytes) });
  return Object.freeze({
    etag,
    ok: Object.freeze({ status: 200, headers: okHeaders, body: json }),
    notModified: Object.freeze({ status: 304, headers, body: null }),
    compressed,
  });
}

/** The shared answer to a GET without Origin of a cached body: 304 for a matching If-None-Match. */
const sameOrigin = (header: Header, answers: CachedAnswers): CachedAnswer => (notModified(header, answers.etag) ? answers.notModified : answers.ok);

/** The answer to a GET of a cached body; for a cross-origin request, a copy without `Origin` in Vary (hono/cors adds it). */
function answer(header: Header, answers: CachedAnswers): CachedAnswer {
  const chosen = sameOrigin(header, answers);
  if (header('origin') === undefined) return chosen;
  const { Vary: vary, ...headers } = chosen.headers;
  return { ...chosen, headers: vary!.includes('Accept-Encoding') ? { ...headers, Vary: 'Accept-Encoding' } : headers };
}

/**
 * Registers the public routes; returns the answer to a cached embed GET before routing (see
 * `cachedEmbed` below), for the relay's request handler.
 */
export function registerPublic(app: Hono<AppEnv>, deps: Deps, clientAddress: ClientAddress) {
  // Without a known address (mounted where the socket is out of reach and trustProxy is off) the
  // per-address limit is skipped rather than throttling every visitor together.
  const limit = (address: string | undefined) => {
    if (address) deps.publicLimiter.hit(`public:${address}`);
  };
  const headerIn = (c: Context<AppEnv>): Header => (name) => requestHeader(c, name);
  const { config, upstream, embedCache } = deps;
  const playerOrigin = new URL(config.playerUrl).origin;
  const publicConfig: RelayConfig = {
    upload_url: config.uploadUrl,
    player_origin: playerOrigin,
    iframe_origins: config.iframeOrigins,
    max_upload_bytes: config.maxUploadBytes,
    regions: [...REGIONS],
    rendition_count: { min: RENDITION_COUNT.min, max: RENDITION_COUNT.max },
  };
  const configJson = JSON.stringify(publicConfig);
  const configAnswers = cachedAnswers(configJson, etagOf(configJson), 'public, max-age=60');
  const embedMaxAge = `public, max-age=${Math.floor(config.embedCacheTtlMs / 1000)}`;

  app.get('/config', (c) => {
    limit(clientAddress(c.env, c.req.raw));
    return toResponse(answer(headerIn(c), configAnswers));
  });

  app.get('/embed/:kind/:id/:variant', async (c) => {
    limit(clientAddress(c.env, c.req.raw));
    const kind = c.req.param('kind') as EmbedKind;
    const variant = c.req.param('variant') as EmbedVariant;
    const fields: Record<string, string> = {};
    if (!EMBED_KINDS.includes(kind)) fields.kind = 'must be vod, channel or playlist';
    if (!EMBED_VARIANTS.includes(variant)) fields.variant = 'must be javascript or iframe';
    if (Object.keys(fields).length) throw badRequest(`Invalid embed request: ${Object.entries(fields).map(([k, v]) => `${k} ${v}`).join('; ')}.`, fields);
    const id = pathId(c, 'id');
    const key = `${kind}/${id}/${variant}`;
    const entry =
      embedCache.get(key) ??
      (await embedCache.getOrLoad(key, async () => {
        // Anonymous visitors wait at most the public budget, retries included.
        const { code } = await upstream.json<{ code: string }>('GET', paths.embed(kind, id, variant), undefined, schemas.embedCodeResponse, {
          given: `${kind} ${id}`,
          budgetMs: config.publicUpstreamBudgetMs,
        });
        return cachedAnswers(JSON.stringify({ code }), etagOf(code), embedMaxAge);
      }));
    return toResponse(answer(headerIn(c), entry));
  });

  /**
   * A cached embed code is answered before routing: the hottest request of the relay (every page
   * view of every player) then skips the router and the middleware chain, and on the relay's Node
   * request listener the web Request and Response too. Only for a GET without Origin (same-origin
   * pages, servers and CDNs; a cross-origin one needs hono/cors) whose path is a key of the cache,
   * which only the validated route above fills; anything else, a request over the rate limit and
   * a code of 1 KB or more (compressed by compress-json.ts, after routing) go the normal way.
   * `address` is asked only for a hit.
   */
  const embedPrefix = `${config.basePath}/embed/`;
  const cachedEmbed = (method: string, path: string, header: Header, address: () => string | undefined): CachedAnswer | undefined => {
    if (method !== 'GET' || !path.startsWith(embedPrefix) || header('origin') !== undefined) return undefined;
    const entry = embedCache.get(path.slice(embedPrefix.length));
    if (!entry || entry.compressed) return undefined;
    try {
      limit(address());
    } catch {
      return undefined; // the route answers 429
    }
    return sameOrigin(header, entry);
  };

  let health: { at: number; reachable: boolean; status?: number } | undefined;
  app.get('/healthz', async (c) => {
    if (!health || Date.now() - health.at > 5000) {
      // Reachability only: an unauthenticated request to the base URL, no key involved.
      try {
        const response = await fetch(config.baseUrl, { method: 'GET', signal: AbortSignal.timeout(2000), redirect: 'manual' });
        await response.body?.cancel();
        health = { at: Date.now(), reachable: true, status: response.status };
      } catch {
        health = { at: Date.now(), reachable: false };
      }
    }
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok', upstream: { reachable: health.reachable } });
  });

  /**
   * The script-tag build (built-files.ts): `elements.js`, the loader, revalidated on every page load
   * (`no-cache` and an ETag answered 304), so a release reaches returning visitors at once; the
   * content-hashed files beside it, which it imports, immutable for a year. Only the names of the
   * build's manifest are served, in the precompressed encoding the client accepts.
   */
  // A build that cannot be adopted (a file missing or not matching its manifest) is logged once per
  // manifest; the one before is still served.
  const built = builtFiles(config.elementsBundlePath, (problem) =>
    deps.log.warn('elements_build_not_adopted', { folder, problem, hint: 'the build before is still served; run npm run build again (the manifest is read again every second)' }),
  );
  // The folder named by its last two parts only: a visitor need not learn the server's paths (the log has it whole).
  const folder = built.folder();
  const shortFolder = `…/${folder.split(/[\\/]/).filter(Boolean).slice(-2).join('/')}`;
  let told = false;
  // Never kept by a cache in front: the name may be served by the next build, or by another instance
  // of a rolling deploy (docs/deploying.md).
  const missing = (message: string) => notFound(message, { 'Cache-Control': 'no-store' });
  app.get('/:file{[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.js}', async (c) => {
    const name = c.req.param('file');
    const file = await built.lookup(name, negotiate(requestHeader(c, 'accept-encoding')));
    if (!file && name === 'elements.js') {
      // Also a deployment whose SVC_ELEMENTS_BUNDLE still names the single bundle dist/svc-elements.js.
      if (!told) deps.log.warn('elements_not_built', { folder, problem: built.problem() ?? 'no manifest.json', hint: 'run npm run build; SVC_ELEMENTS_BUNDLE names dist/cdn/elements.js or dist/cdn' });
      told = true;
      throw missing(
        `The elements have not been built: no manifest.json in ${shortFolder} (or not yet all the files it lists). Run "npm run build"; SVC_ELEMENTS_BUNDLE names the build's entry dist/cdn/elements.js or its folder (no longer dist/svc-elements.js).`,
      );
    }
    if (!file) throw missing(`No file ${name.slice(0, 100)} in the elements build.`);
    c.header('Cache-Control', file.entry ? 'no-cache' : 'public, max-age=31536000, immutable');
    c.header('ETag', file.etag);
    c.header('Vary', 'Accept-Encoding');
    // Any page may load the elements, without credentials: `*` with Allow-Credentials (which the CORS
    // middleware gives an allowed origin) would be a contradiction browsers refuse for credentialed loads.
    c.header('Access-Control-Allow-Origin', '*');
    c.res.headers.delete('Access-Control-Allow-Credentials');
    // On the 304 too: a cache merges a 304's headers into its copy (without it, text/plain by default).
    c.header('Content-Type', 'application/javascript; charset=utf-8');
    if (notModified(headerIn(c), file.etag)) return c.body(null, 304);
    if (file.encoding !== 'identity') c.header('Content-Encoding', file.encoding);
    c.header('Content-Length', String(file.body.length));
    return c.body(new Uint8Array(file.body));
  });
  return { cachedEmbed };
}
