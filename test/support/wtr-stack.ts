// Koa middleware for the web-test-runner server: `/svc/*` is proxied to the relay (so elements use
// their same-origin default), `/__control/*` to the local service's control API, and a few test
// helpers: `/__env`, `/__fixtures/<name>.(mp4|webm)` (ffmpeg-made) and `POST /__seed/vod`.
import { createReadStream, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Stack } from './servers.js';
import { uploadVod } from './servers.js';
import { makeVideo } from './media.js';
import { parseRange } from '../../src/emulator/player/media.js';

/** The part of Koa's context these middlewares use. */
export interface Ctx {
  path: string;
  url: string;
  method: string;
  req: IncomingMessage;
  res: ServerResponse;
  respond: boolean;
  status: number;
  type: string;
  length: number;
  body: unknown;
  get(name: string): string;
  set(name: string, value: string): void;
}
export type Middleware = (ctx: Ctx, next: () => Promise<void>) => Promise<void>;

/** A JSON request body (`null` when empty). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
}

/**
 * Streams the request to `target` and its answer back (no buffering, so SSE flows). `body` replaces
 * the request's body stream (e.g. a paced copy of it).
 */
export function proxy(ctx: Ctx, target: string, body: NodeJS.ReadableStream = ctx.req): Promise<void> {
  ctx.respond = false;
  return new Promise((resolve) => {
    const url = new URL(target);
    const upstream = httpRequest(
      url,
      { method: ctx.method, headers: { ...ctx.req.headers, host: url.host } },
      (response) => {
        ctx.res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(ctx.res);
        response.on('end', resolve);
        response.on('error', resolve);
      },
    );
    upstream.on('error', (error) => {
      ctx.res.writeHead(502, { 'content-type': 'text/plain' });
      ctx.res.end(String(error));
      resolve();
    });
    body.pipe(upstream);
  });
}

function fixture(name: string): string | undefined {
  const match = /^([a-z0-9-]+?)(?:-(\d+)s)?\.(mp4|webm)$/.exec(name);
  if (!match) return undefined;
  return makeVideo({ name, seconds: Number(match[2] ?? 2), format: match[3] as 'mp4' | 'webm' });
}

export function stackMiddleware(state: { stack?: Stack }): Middleware[] {
  const stack = () => {
    if (!state.stack) throw new Error('test stack not started');
    return state.stack;
  };
  return [
    async (ctx, next) => {
      if (ctx.path === '/svc' || ctx.path.startsWith('/svc/')) {
        return proxy(ctx, stack().relayUrl.replace(/\/svc$/, '') + ctx.url);
      }
      if (ctx.path.startsWith('/__control/')) {
        // The test server calls the control API itself, as a loopback client: the page's Origin
        // (foreign to the API origin, whose control API refuses changes from other origins) stays here.
        delete ctx.req.headers.origin;
        return proxy(ctx, stack().controlUrl + ctx.url.slice('/__control'.length));
      }
      if (ctx.path === '/__env') {
        const { service, relayUrl, controlUrl } = stack();
        ctx.type = 'application/json';
        ctx.body = JSON.stringify({
          relay_url: relayUrl,
          control_url: controlUrl,
          base_url: service.baseUrl,
          upload_url: service.uploadUrl,
          player_url: service.playerUrl,
          account_id: service.accountId,
        });
        return;
      }
      if (ctx.path.startsWith('/__fixtures/')) {
        const path = fixture(ctx.path.slice('/__fixtures/'.length));
        if (!path) return next();
        // With Range requests, as any static host and the local service's media answer: without
        // them Chromium can seek a video only once its whole file is in the HTTP cache.
        const size = statSync(path).size;
        const range = parseRange(ctx.get('range') || undefined, size);
        ctx.set('Accept-Ranges', 'bytes');
        if (range === 'invalid') {
          ctx.status = 416;
          ctx.set('Content-Range', `bytes */${size}`);
          return;
        }
        const { start, end } = range ?? { start: 0, end: size - 1 };
        if (range) {
          ctx.status = 206;
          ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
        }
        ctx.type = path.endsWith('.webm') ? 'video/webm' : 'video/mp4';
        ctx.body = createReadStream(path, { start, end });
        ctx.length = end - start + 1;
        return;
      }
      if (ctx.path === '/__seed/vod' && ctx.method === 'POST') {
        const result = await uploadVod(stack().relayUrl, makeVideo({ seconds: 2 }));
        ctx.type = 'application/json';
        ctx.body = JSON.stringify(result);
        return;
      }
      return next();
    },
  ];
}
