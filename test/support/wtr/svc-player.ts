// Server-side helpers for the <svc-player> browser tests.
//
// * A canary: an HTTP server on its own loopback port that records every request it gets. Hostile
//   embed codes point their foreign URLs at it (other port, other host spelling, userinfo tricks),
//   so "no request left for a foreign origin" is checked by the server that would have received it.
//     GET  /__svc-player/canary         -> {origins: [..], hits: [{method, url, host}]}
//     POST /__svc-player/canary/reset   -> {hits: []}
// * A hostile relay: the relay's wire format, but the embed code is whatever the test stored, as a
//   compromised or broken upstream would send it. The element reaches it through its `relay`
//   attribute (`/__svc-player/relay`); `/config` is the real relay's.
//     PUT  /__svc-player/relay-codes/<id>  {body}   -> stores the JSON body answered for that id
//     GET  /__svc-player/relay/embed/<kind>/<id>/<variant> -> the stored body
// * VODs of any frame size (aspect-ratio tests), made with ffmpeg and uploaded through the relay:
//     POST /__svc-player/vod/<width>x<height>  -> {upload_id, vod_id, title}
import { createServer, type Server } from 'node:http';
import { makeVideo } from '../media.js';
import { uploadVod, type Stack } from '../servers.js';
import { readJson, type Ctx } from '../wtr-stack.js';

interface Hit {
  method: string;
  url: string;
  host: string;
}

const hits: Hit[] = [];
let canary: Promise<{ server: Server; port: number }> | undefined;

function startCanary() {
  return (canary ??= new Promise((resolve) => {
    const server = createServer((req, res) => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '' });
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  }));
}

const codes = new Map<string, unknown>();

export function middleware(state: { stack?: Stack }) {
  return async (ctx: Ctx, next: () => Promise<void>) => {
    if (!ctx.path.startsWith('/__svc-player/')) return next();
    const path = ctx.path.slice('/__svc-player'.length);
    const json = (body: unknown, status = 200) => {
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(body);
    };
    if (path === '/canary' && ctx.method === 'GET') {
      const { port } = await startCanary();
      return json({ origins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`], port, hits });
    }
    if (path === '/canary/reset' && ctx.method === 'POST') {
      hits.length = 0;
      return json({ hits });
    }
    const sized = /^\/vod\/(\d{2,4})x(\d{2,4})$/.exec(path);
    if (sized && ctx.method === 'POST' && state.stack) {
      const file = makeVideo({ seconds: 1, size: `${Number(sized[1])}x${Number(sized[2])}` });
      return json(await uploadVod(state.stack.relayUrl, file));
    }
    const stored = /^\/relay-codes\/([\w-]+)$/.exec(path);
    if (stored && ctx.method === 'PUT') {
      codes.set(stored[1]!, await readJson(ctx.req));
      return json({ stored: stored[1] });
    }
    if (path === '/relay/config' && state.stack) {
      const response = await fetch(`${state.stack.relayUrl}/config`);
      return json(await response.json(), response.status);
    }
    const embed = /^\/relay\/embed\/(vod|channel|playlist)\/([\w-]+)\/(javascript|iframe)$/.exec(path);
    if (embed && ctx.method === 'GET') {
      if (!codes.has(embed[2]!)) return json({ error: { code: 'not_found', message: 'No such code.' } }, 404);
      return json(codes.get(embed[2]!));
    }
    return next();
  };
}
