// What every route module receives from createRelay, and the middleware that spends it.
import type { MiddlewareHandler } from 'hono';
import type { TtlCache } from './cache.js';
import type { CachedAnswers } from './cached-answer.js';
import type { ResolvedConfig } from './config.js';
import type { Logger } from './log.js';
import type { RateLimiter } from './rate-limit.js';
import type { AppEnv } from './request.js';
import type { EventHub } from './sse.js';
import type { Store } from './store/store.js';
import type { Upstream } from './upstream.js';

export interface Deps {
  config: ResolvedConfig;
  store: Store;
  upstream: Upstream;
  hub: EventHub;
  log: Logger;
  createLimiter: RateLimiter;
  /** Per user, on every route that calls the service on the user's behalf or reads what the user owns (SVC_RATE_LIMIT_READ). */
  readLimiter: RateLimiter;
  publicLimiter: RateLimiter;
  /** Embed answers by kind/id/variant (routes/public.ts). */
  embedCache: TtlCache<CachedAnswers>;
}

/** Route middleware for the routes that call the service on the user's behalf: each call spends the user's SVC_RATE_LIMIT_READ. */
export function callsService(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    deps.readLimiter.hit(`user:${c.get('user')}`);
    await next();
  };
}
