// What every route module receives from createRelay, and the Hono environment they share.
import type { Context, MiddlewareHandler } from 'hono';
import type { Authenticate } from './auth.js';
import type { TtlCache } from './cache.js';
import type { ResolvedConfig } from './config.js';
import type { Logger } from './log.js';
import type { RateLimiter } from './rate-limit.js';
import type { EventHub } from './sse.js';
import type { Store } from './store/store.js';
import type { Upstream } from './upstream.js';

export interface Deps {
  config: ResolvedConfig;
  store: Store;
  upstream: Upstream;
  hub: EventHub;
  log: Logger;
  authenticate: Authenticate;
  authMode: 'dev' | 'jwt' | 'custom';
  createLimiter: RateLimiter;
  /** Per user, on every route that calls the service on the user's behalf or reads what the user owns (SVC_RATE_LIMIT_READ). */
  readLimiter: RateLimiter;
  publicLimiter: RateLimiter;
  /** Embed answers by kind/id/variant (routes/public.ts). */
  embedCache: TtlCache<CachedAnswers>;
}

/**
 * A public JSON answer that browsers and CDNs may keep, with its headers as a plain object: it
 * becomes a web Response or is written straight to Node's response, in neither case through a
 * Headers object.
 */
export interface CachedAnswer {
  status: 200 | 304;
  headers: Readonly<Record<string, string>>;
  body: string | null;
}

/**
 * The answers to a GET without Origin of one cached JSON body, made once when it is cached: the
 * relay's hottest answers are then written with no object made for them (a header object per
 * request cost about 10 µs of a 50-90 µs cached embed GET on the benchmark machine). Shared by
 * every request: never changed.
 */
export interface CachedAnswers {
  etag: string;
  ok: CachedAnswer;
  notModified: CachedAnswer;
}

export interface AppEnv {
  /** What @hono/node-server passes: the Node request. */
  Bindings: { incoming?: { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> } };
  /** `expiresAt`: when the caller's credential expires (epoch ms), when it says. */
  Variables: { user: string; expiresAt?: number };
}

/** Route middleware for the routes that call the service on the user's behalf: each call spends the user's SVC_RATE_LIMIT_READ. */
export function callsService(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    deps.readLimiter.hit(`user:${c.get('user')}`);
    await next();
  };
}

/**
 * A request header. On @hono/node-server it is read from the Node request, which has them parsed
 * already: the first read of the web Request's headers makes the adapter build all of them.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  return headerOf(c.env, c.req.raw, name);
}

/**
 * `requestHeader` before routing, when there is no Context yet (without a web Request on the
 * relay's Node request listener); `name` in lower case.
 */
export function headerOf(env: AppEnv['Bindings'] | undefined, request: Request | undefined, name: string): string | undefined {
  const headers = env?.incoming?.headers;
  if (!headers) return request?.headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Where a request comes from, for the per-address limits (see `trustProxy`). */
export type ClientAddress = (env: AppEnv['Bindings'] | undefined, request: Request | undefined) => string | undefined;
