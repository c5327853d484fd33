// createRelay(options): the relay as a web-standard fetch handler (Hono). It holds the API key,
// validates every input before anything goes upstream, receives the upload callback, remembers
// who owns what, and streams readiness to browsers. Mount it anywhere; on Node, its request
// listener (node.ts) is what the CLI serves. This file builds the app: what the routes share
// (deps.ts), CORS, the public routes, identity, the private routes and the one error mapping;
// handler.ts wraps it for every request (fast-path.ts answers cached embed codes before routing),
// sweep.ts runs beside it, and close() ends all three.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { matchedRoutes } from 'hono/route';
import { SvcError } from '../core/errors.js';
import { maskCallbackTokens } from '../core/wire.js';
import { checkCsrf, devAuth, jwtAuth, type Authenticate } from './auth.js';
import { TtlCache } from './cache.js';
import { requestAddress } from './client-address.js';
import { isLoopbackHost, resolveConfig, type RelayOptions } from './config.js';
import type { Deps } from './deps.js';
import { cachedEmbedFromNode, cachedEmbedFromRequest } from './fast-path.js';
import { createHandler } from './handler.js';
import { compressJson } from './compress-json.js';
import { HttpError } from './http-error.js';
import { createLogger, redact, stderrSink } from './log.js';
import { requestListener, type RequestListener } from './node.js';
import { RateLimiter } from './rate-limit.js';
import { requestHeader, type AppEnv } from './request.js';
import { EventHub } from './sse.js';
import { databasePassword, openStore } from './store/open.js';
import { startSweeping } from './sweep.js';
import { Upstream } from './upstream.js';
import { registerCallbacks } from './routes/callbacks.js';
import { registerContent } from './routes/content.js';
import { registerEvents } from './routes/events.js';
import { registerPublic } from './routes/public.js';
import { registerUploads } from './routes/uploads.js';

export type { RelayOptions } from './config.js';
export type { Authenticate } from './auth.js';

export interface Relay {
  (request: Request, env?: unknown): Response | Promise<Response>;
  /** A web-standard fetch handler; like Hono's, it may answer without a promise (a cached embed code). */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /**
   * A Node request listener (node:http, Express; what the CLI serves): `fetch` through
   * @hono/node-server, except that a cached embed code is written straight from Node's request.
   */
  requestListener: RequestListener;
  /** Refuses new requests (503), ends SSE streams, waits for requests in flight, closes the store. */
  close(): Promise<void>;
  /** Settles when the store is usable (PostgreSQL: connected, migrated, listening); rejects with why not. */
  ready: Promise<void>;
}

export function createRelay(options: RelayOptions): Relay {
  const config = resolveConfig(options);
  const log = createLogger(options.logger ?? stderrSink, [config.apiKey, config.jwtSecret ?? '', databasePassword(config.database)]);
  const authMode = options.auth === 'dev' ? 'dev' : typeof options.auth === 'function' ? 'custom' : 'jwt';
  const authenticate: Authenticate =
    authMode === 'dev' ? devAuth : authMode === 'custom' ? (options.auth as Authenticate) : jwtAuth(config.jwtSecret!, config.authMaxTtlS);
  const store = options.store ?? openStore(config.database, { poolSize: config.databasePool, log });
  const deps: Deps = {
    config,
    store,
    upstream: new Upstream({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      secrets: config.jwtSecret ? [config.jwtSecret] : [],
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      log,
    }),
    hub: new EventHub(store, config.heartbeatMs, config.maxStreamsPerUser),
    log,
    createLimiter: new RateLimiter(config.rateLimits.create),
    readLimiter: new RateLimiter(config.rateLimits.read),
    publicLimiter: new RateLimiter(config.rateLimits.public),
    embedCache: new TtlCache(1000, config.embedCacheTtlMs),
  };
  const allowed = new Set(config.allowedOrigins);
  const publicOrigin = new URL(config.publicUrl).origin;

  // With the dev identity whoever reaches the relay is the user. A DNS-rebinding page (its own
  // name resolved to 127.0.0.1) reaches a developer's loopback relay from the browser: it sends
  // its own Host, and its Origin. Both must be loopback (or the relay's public URL, or an allowed origin).
  const publicHost = new URL(config.publicUrl).hostname;
  const refuseRebinding = (host: string, origin: string | undefined) => {
    if (!isLoopbackHost(host) && host !== publicHost) {
      throw new HttpError(403, 'forbidden', 'With SVC_AUTH=dev the relay answers only requests to a loopback host (or SVC_PUBLIC_URL).');
    }
    if (origin !== undefined && !allowed.has(origin) && origin !== publicOrigin && !isLoopbackOrigin(origin)) {
      throw new HttpError(403, 'forbidden', `With SVC_AUTH=dev only loopback origins and SVC_ALLOWED_ORIGINS may call the relay (not ${origin.slice(0, 200)}).`);
    }
  };

  // The rate-limit key of the client: its address (IPv6: its /64), see client-address.ts.
  const clientAddress = requestAddress(config.trustProxy);

  const app = new Hono<AppEnv>().basePath(config.basePath);

  // CORS: only configured origins, never a wildcard with credentials. A preflight from any other
  // origin is refused with a body that names the setting; the browser reports it as a CORS error.
  // A request without an Origin header is no CORS request and skips hono/cors: the middleware
  // puts its headers on a response made before the route's, which @hono/node-server can then only
  // send as a stream, at half the cached embed's throughput. Public answers that caches keep say
  // `Vary: Origin` themselves (routes/public.ts).
  const corsHeaders = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'POST', 'PUT', 'OPTIONS'],
    // Every header the elements send: the event stream adds Cache-Control and Last-Event-ID.
    allowHeaders: ['Content-Type', 'Authorization', 'X-Svc-Request', 'Last-Event-ID', 'Cache-Control', 'If-None-Match'],
    exposeHeaders: ['Retry-After', 'ETag'],
    maxAge: 600,
  });
  app.use('*', async (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (c.req.method === 'OPTIONS' && !(origin !== undefined && allowed.has(origin))) {
      throw new HttpError(403, 'forbidden', `Origin ${(origin ?? '(none)').slice(0, 200)} is not allowed (SVC_ALLOWED_ORIGINS).`);
    }
    return origin === undefined ? next() : corsHeaders(c, next);
  });

  // JSON answers above 1 KB in brotli or gzip, for every route after this, public and private
  // (a cached embed code answered before routing is below that: a larger one comes this way).
  app.use('*', compressJson());

  // Routes anyone may call: registered before the identity check below, which is what makes them
  // public. The callback's only proof is the token in its path.
  const { cachedEmbed } = registerPublic(app, deps, clientAddress);
  registerCallbacks(app, deps, clientAddress);

  // Identity and CSRF for every route registered after this. A request no route answers is a 404
  // for everyone, signed in or not (a file the elements' build does not list among them): only
  // the handlers (this file's three middlewares match every path) say that a route exists.
  app.use('*', async (c, next) => {
    if (!matchedRoutes(c).some((route) => route.method !== 'ALL')) return next();
    if (authMode === 'dev') refuseRebinding(new URL(c.req.url).hostname, requestHeader(c, 'origin'));
    const user = await authenticate(c.req.raw);
    if (!user || typeof user.id !== 'string' || !user.id) {
      throw new HttpError(401, 'unauthorized', 'Sign in first: send a valid token (Authorization: Bearer or the svc_token cookie).');
    }
    const self = new URL(c.req.url).origin;
    checkCsrf(c.req.raw, { mode: authMode, allowed: (origin) => allowed.has(origin) || origin === self || origin === publicOrigin });
    c.set('user', user.id);
    if (typeof user.expiresAt === 'number') c.set('expiresAt', user.expiresAt);
    return next();
  });
  registerUploads(app, deps);
  registerEvents(app, deps);
  registerContent(app, deps);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `No route ${c.req.method} ${maskPath(c.req.path)}.` } }, 404));

  // What the service said beyond its reason, by request, for the request's log line (handler.ts).
  const upstreamDetails = new WeakMap<Request, string>();

  // The one place errors become responses.
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      if (error.detail) upstreamDetails.set(c.req.raw, error.detail);
      const body = { error: error.toJSON(), ...error.extra };
      return c.json(body, error.status as 400, error.headers);
    }
    if (error instanceof SvcError) return c.json({ error: error.toJSON() }, (error.status || 500) as 500);
    log.error('internal_error', { method: c.req.method, path: maskPath(c.req.path), error: redact(String((error as Error)?.stack ?? error), [config.apiKey, config.jwtSecret ?? '']) });
    return c.json({ error: { code: 'internal', message: 'The relay failed unexpectedly; the error was logged.' } }, 500);
  });

  const fastPath = { cachedEmbed, clientAddress, log };
  const handler = createHandler(app, { log, answered: cachedEmbedFromRequest(fastPath), upstreamDetails });
  const stopSweeping = startSweeping(deps);
  let closed: Promise<void> | undefined;

  const relay = handler.fetch as Relay;
  relay.fetch = handler.fetch;
  // Through relay.fetch, as a server that mounts the handler would call it.
  const answeredFromNode = cachedEmbedFromNode(fastPath, () => handler.closing);
  relay.requestListener = requestListener((request, env) => relay.fetch(request, env), answeredFromNode, new URL(config.publicUrl).host);
  relay.ready = store.ready;
  // Shutting down: no new request (503), no more sweeps, every event stream ended, the requests in
  // flight answered, then the store closed.
  relay.close = () =>
    (closed ??= (async () => {
      const drained = handler.drain();
      stopSweeping();
      deps.hub.closeAll();
      await drained;
      await store.close();
      log.info('relay_closed', {});
    })());
  return relay;
}

/** Whether `origin` is a page on this machine (http or https, any port). */
function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** Paths in answers and error logs: callback tokens are secrets (request lines mask them in Logger.request). */
function maskPath(path: string): string {
  return maskCallbackTokens(path).slice(0, 300);
}
