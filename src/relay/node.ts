// The relay as a Node request listener (node:http, Express, the svc-relay CLI): @hono/node-server's
// listener for `fetch`, behind a first look that writes a cached embed code straight from Node's
// request. That answer is most of a busy relay's traffic (every page view of every player), and
// the web Request and Response the adapter makes for it cost the relay a third of its throughput.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';

export type RequestListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/**
 * `answered(incoming, outgoing)` writes the answer and says true, or says false and leaves the
 * request to `fetch`. The adapter's listener is made on the first request it gets, since making
 * it replaces the global Request and Response with its lighter ones.
 */
export function requestListener(
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>,
  answered: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean,
): RequestListener {
  let adapter: ReturnType<typeof getRequestListener> | undefined;
  return (incoming, outgoing) => {
    if (answered(incoming, outgoing)) return;
    void (adapter ??= getRequestListener(fetch))(incoming, outgoing);
  };
}
