// The relay as a Node request listener (node:http, Express, the svc-relay CLI): @hono/node-server's
// listener for `fetch`, behind a first look that writes a cached embed code straight from Node's
// request. That answer is most of a busy relay's traffic (every page view of every player), and
// the web Request and Response the adapter would make for it are work a bare server does not do.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type RequestListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

type Adapter = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown;

/**
 * `answered(incoming, outgoing)` writes the answer and says true, or says false and leaves the
 * request to `fetch`. The adapter is imported and made on the first request it gets: users of
 * `fetch` alone need not install it, and making it replaces the global Request and Response with
 * its lighter ones. `hostname` stands in for a missing Host header (HTTP/1.0).
 */
export function requestListener(
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>,
  answered: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean,
  hostname: string,
): RequestListener {
  let adapter: Adapter | undefined;
  let loading: Promise<Adapter> | undefined;
  return (incoming, outgoing) => {
    try {
      if (answered(incoming, outgoing)) return;
    } catch {
      // A bug there must not end the process: the adapter answers (a 500 from the relay at worst).
      if (outgoing.headersSent) return void outgoing.destroy();
    }
    if (adapter) return void adapter(incoming, outgoing);
    loading ??= import('@hono/node-server').then(({ getRequestListener }) => (adapter = getRequestListener(fetch, { hostname })));
    loading.then(
      (listener) => listener(incoming, outgoing),
      () => {
        outgoing.writeHead(500, { 'Content-Type': 'text/plain' }).end('relay.requestListener needs the @hono/node-server package: npm install @hono/node-server');
      },
    );
  };
}
