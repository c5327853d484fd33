// The relay's fetch handler around its Hono app: what every request goes through before and after
// routing. A cached embed code is answered before routing (fast-path.ts); everything else is
// routed. Every request gets its log line; requests in flight are counted, so that closing refuses
// new ones (503) and waits for those.
import type { Hono } from 'hono';
import type { Logger } from './log.js';
import { pathOf, type AppEnv } from './request.js';

export interface HandlerOptions {
  log: Logger;
  /** The answer before routing, when there is one (fast-path.ts). */
  answered: (request: Request, path: string, bindings: AppEnv['Bindings'], started: number) => Response | undefined;
  /** What the service said beyond its reason, by request (set by the app's onError), for the log line. */
  upstreamDetails: WeakMap<Request, string>;
}

export interface Handler {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  /** True once draining: requests are refused. */
  readonly closing: boolean;
  /** Refuses requests from now on; settles when none is in flight. */
  drain(): Promise<void>;
}

export function createHandler(app: Hono<AppEnv>, { log, answered, upstreamDetails }: HandlerOptions): Handler {
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  const routed = async (request: Request, path: string, bindings: AppEnv['Bindings'], started: number): Promise<Response> => {
    inFlight++;
    let status = 500;
    try {
      const response = await app.fetch(request, bindings);
      status = response.status;
      return response;
    } finally {
      inFlight--;
      if (closing && inFlight === 0) drained?.();
      log.request(request.method, path, status, Math.round(performance.now() - started), upstreamDetails.get(request));
    }
  };

  return {
    fetch: (request, env) => {
      if (closing) {
        return Response.json({ error: { code: 'upstream_unavailable', message: 'The relay is shutting down.' } }, { status: 503, headers: { 'Retry-After': '1', Connection: 'close' } });
      }
      const started = performance.now();
      const path = pathOf(request.url);
      const bindings = env as AppEnv['Bindings'];
      return answered(request, path, bindings, started) ?? routed(request, path, bindings, started);
    },
    get closing() {
      return closing;
    },
    drain: () => {
      closing = true;
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
    },
  };
}
