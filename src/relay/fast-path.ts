// The relay's hottest request, a cached embed code (every page view of every player), answered
// before routing: it skips the router and the middleware chain, and on the relay's Node request
// listener the web Request and Response too. Which requests qualify, and the answer, are
// routes/public.ts's (`cachedEmbed`); this is where the answer is written, with its log line.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toResponse } from './cached-answer.js';
import type { ClientAddress } from './client-address.js';
import type { Logger } from './log.js';
import { headerOf, pathOf, type AppEnv } from './request.js';
import type { registerPublic } from './routes/public.js';

export type CachedEmbed = ReturnType<typeof registerPublic>['cachedEmbed'];

export interface FastPathOptions {
  cachedEmbed: CachedEmbed;
  clientAddress: ClientAddress;
  log: Logger;
}

/** A Host header the relay's Node request listener takes as it is: a name or IPv4 address, and a port. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The answer to a web Request when it is a cached embed GET, at once and without a promise
 * (@hono/node-server then writes it in the same turn; an async answer takes its slower path).
 */
export function cachedEmbedFromRequest({ cachedEmbed, clientAddress, log }: FastPathOptions) {
  return (request: Request, path: string, bindings: AppEnv['Bindings'], started: number): Response | undefined => {
    const hit = cachedEmbed(request.method, path, (name) => headerOf(bindings, request, name), () => clientAddress(bindings, request));
    if (!hit) return undefined;
    log.request(request.method, path, hit.status, Math.round(performance.now() - started));
    return toResponse(hit);
  };
}

/**
 * The first look of the Node request listener (node.ts): the same answer written straight from
 * Node's request (true), or false. A request in absolute form, or whose Host is missing or not a
 * plain name or address, goes to the adapter (which checks them), as does everything while the
 * relay closes.
 */
export function cachedEmbedFromNode({ cachedEmbed, clientAddress, log }: FastPathOptions, closing: () => boolean) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    const url = incoming.url ?? '';
    if (closing() || incoming.method !== 'GET' || url[0] !== '/' || !PLAIN_HOST.test(incoming.headers.host ?? '')) return false;
    const bindings: AppEnv['Bindings'] = { incoming };
    const started = performance.now();
    const path = pathOf(url);
    const hit = cachedEmbed('GET', path, (name) => headerOf(bindings, undefined, name), () => clientAddress(bindings, undefined));
    if (!hit) return false;
    outgoing.writeHead(hit.status, hit.headers);
    if (hit.body === null) outgoing.end();
    else outgoing.end(hit.body);
    log.request('GET', path, hit.status, Math.round(performance.now() - started));
    return true;
  };
}
