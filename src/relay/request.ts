// What the relay reads of a request, before routing and in it: the Hono environment it runs in
// (on @hono/node-server, the Node request), headers taken from Node's parsed ones, and the path.
import type { Context } from 'hono';

export interface AppEnv {
  /** What @hono/node-server passes: the Node request. */
  Bindings: { incoming?: { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> } };
  /** `expiresAt`: when the caller's credential expires (epoch ms), when it says. */
  Variables: { user: string; expiresAt?: number };
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

/** The path of a URL, absolute or from its path on, without parsing the whole URL for every request. */
export function pathOf(url: string): string {
  const start = url[0] === '/' ? 0 : url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
