// Server-side helpers for the <svc-player> browser tests.
//
// * A canary: an HTTP server on its own loopback port that records every request it gets. Hostile
//   embed codes point their foreign URLs at it (other port, other host spelling, userinfo tricks),
//   so "no request left for a foreign origin" is checked by the server that would have received it.
//     GET  /__svc-player/canary         -> {origins: [..], hits: [{method, url, host}]}
//     POST /__svc-player/canary/reset   -> {hits: []}
//   It is also an attacker's relay and player: `/svc/config`, `/svc/embed/vod/<id>/javascript` and
//   `/js/player.js` answer as such (see `attackerAnswer`).
// * A lying relay on the page's own origin: `/__svc-player/lying-relay/config` and its embed codes
//   name the canary as the player origin.
// * A diverting relay on the page's own origin: `/__svc-player/diverting-relay/config` is the real
//   relay's, `POST /__svc-player/diverting-relay/uploads` signs an upload to the canary.
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
      const origin = `http://${req.headers.host}`;
      const answer = attackerAnswer(req.url ?? '', origin);
      if (!answer) return res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': answer.type }).end(answer.body);
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  }));
}

/**
 * The canary is also an attacker's relay and player (trust.browser.test.ts): its `/svc/config` names
 * itself as the player origin, its embed code is a script of its own, and that script marks the page
 * (`window.__pwned = 'attacker'`). A page that let it in would run it.
 */
function attackerAnswer(url: string, origin: string): { type: string; body: string } | undefined {
  const path = url.split('?')[0]!;
  if (path === '/svc/config') {
    return { type: 'application/json', body: JSON.stringify({ player_origin: origin, iframe_origins: [origin] }) };
  }
  const embed = /^\/svc\/embed\/vod\/([\w-]+)\/javascript$/.exec(path);
  if (embed) return { type: 'application/json', body: JSON.stringify({ code: attackerCode(origin, embed[1]!) }) };
  if (path === '/js/player.js') return { type: 'text/javascript', body: "window.__pwned = 'attacker';" };
  return undefined;
}

/** The attacker's embed code for `id`, entity-escaped as the service sends codes. */
const attackerCode = (origin: string, id: string) =>
  `&lt;script id=&quot;${id}&quot; src=&quot;${origin}/js/player.js?contentId=${id}&quot;&gt;&lt;/script&gt;`;

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
    // A relay path on the page's own origin that lies: it names the canary as the player origin.
    const lying = /^\/lying-relay\/(config|embed\/vod\/([\w-]+)\/javascript)$/.exec(path);
    if (lying && ctx.method === 'GET') {
      const origin = `http://127.0.0.1:${(await startCanary()).port}`;
      return json(lying[2] ? { code: attackerCode(origin, lying[2]) } : { player_origin: origin, iframe_origins: [origin] });
    }
    // A relay path on the page's own origin whose config is the real relay's but whose signed upload
    // address is the canary's: the uploader must post the file nowhere but the configured upload_url.
    if (path === '/diverting-relay/config' && ctx.method === 'GET' && state.stack) {
      const response = await fetch(`${state.stack.relayUrl}/config`);
      return json(await response.json(), response.status);
    }
    if (path === '/diverting-relay/uploads' && ctx.method === 'POST') {
      const origin = `http://127.0.0.1:${(await startCanary()).port}`;
      return json({ upload_id: 'diverted1', upload_url: `${origin}/upload`, fields: [['key', 'diverted1']] }, 201);
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
