// Public routes (anonymous CMS visitors): config, embed codes (cached, coalesced, ETag/304),
// health, and the elements bundle.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Context, Hono } from 'hono';
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

function notModified(header: Header, etag: string): boolean {
  const tags = header('if-none-match');
  return !!tags && tags.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The answers (200 and 304) of a public JSON body that browsers and CDNs may keep for `cacheControl`. */
export function cachedAnswers(json: string, etag: string, cacheControl: string): CachedAnswers {
  // The answers differ by Origin (CORS headers): with an Origin header, hono/cors says so itself.
  const headers = Object.freeze({ 'Cache-Control': cacheControl, ETag: etag, Vary: 'Origin' });
  const okHeaders = Object.freeze({ ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(json)) });
  return Object.freeze({
    etag,
    ok: Object.freeze({ status: 200, headers: okHeaders, body: json }),
    notModified: Object.freeze({ status: 304, headers, body: null }),
  });
}

/** The shared answer to a GET without Origin of a cached body: 304 for a matching If-None-Match. */
const sameOrigin = (header: Header, answers: CachedAnswers): CachedAnswer => (notModified(header, answers.etag) ? answers.notModified : answers.ok);

/** The answer to a GET of a cached body; for a cross-origin request, a copy without Vary. */
function answer(header: Header, answers: CachedAnswers): CachedAnswer {
  const chosen = sameOrigin(header, answers);
  if (header('origin') === undefined) return chosen;
  const { Vary: _vary, ...headers } = chosen.headers;
  return { ...chosen, headers };
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
   * which only the validated route above fills; anything else, and a request over the rate limit,
   * goes the normal way. `address` is asked only for a hit.
   */
  const embedPrefix = `${config.basePath}/embed/`;
  const cachedEmbed = (method: string, path: string, header: Header, address: () => string | undefined): CachedAnswer | undefined => {
    if (method !== 'GET' || !path.startsWith(embedPrefix) || header('origin') !== undefined) return undefined;
    const entry = embedCache.get(path.slice(embedPrefix.length));
    if (!entry) return undefined;
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

  /** The script-tag bundle and its language files, read once per change of the file. */
  const files = new Map<string, { mtimeMs: number; body: Buffer; etag: string }>();
  const serveBuilt = async (c: Context<AppEnv>, path: string, missing: string) => {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw notFound(missing);
    let file = files.get(path);
    if (!file || file.mtimeMs !== info.mtimeMs) {
      const body = await readFile(path);
      file = { mtimeMs: info.mtimeMs, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      files.set(path, file);
    }
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('ETag', file.etag);
    // Any page may load the bundle, without credentials: `*` with Allow-Credentials (which the CORS
    // middleware gives an allowed origin) would be a contradiction browsers refuse for credentialed loads.
    c.header('Access-Control-Allow-Origin', '*');
    c.res.headers.delete('Access-Control-Allow-Credentials');
    if (notModified(headerIn(c), file.etag)) return c.body(null, 304);
    c.header('Content-Type', 'application/javascript; charset=utf-8');
    return c.body(new Uint8Array(file.body));
  };
  app.get('/elements.js', (c) => serveBuilt(c, config.elementsBundlePath, 'The elements bundle has not been built: run "npm run build".'));
  // A language of the bundle, imported by it relative to elements.js: only those names, from its folder.
  app.get('/:file{svc-elements-(?:fr|de|es|pt-BR|ja|ar)-[A-Za-z0-9_-]{8}\\.js}', (c) =>
    serveBuilt(c, join(dirname(config.elementsBundlePath), c.req.param('file')), 'No such language file in the elements bundle.'),
  );
  return { cachedEmbed };
}
