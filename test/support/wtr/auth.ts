// Real sign-in for the browser tests (test/elements/auth.browser.test.ts): a relay with SVC_AUTH=jwt,
// as every production site runs it, beside the shared dev-identity one. It has its own port, reached
// from the page as `http://localhost:<port>/svc` (another origin, the same site: the way a relay on a
// subdomain of the CMS is), and through the test server as `/auth-svc` (the page's own origin). Its
// store is a SQLite file. The page gets tokens the way a CMS would give them:
//   POST /__auth/token   {sub, ttl_s}  -> {token}        a bearer token for the `token` property
//   POST /__auth/session {sub, ttl_s}  -> Set-Cookie     the HttpOnly `svc_token` cookie (host-only,
//                                                        so sent to every port of this host)
//   POST /__auth/logout                -> the cookie removed
//   POST /__auth/relay                 -> {cross_origin, same_origin}  the relay's two addresses
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { SignJWT } from 'jose';
import { createRelay } from '../../../src/relay/app.js';
import { serviceOptions, type Stack } from '../servers.js';
import { proxy, readJson, type Ctx } from '../wtr-stack.js';

const SECRET = 'browser-jwt-secret-0123456789-abcdefghijklmnop';
const SAME_ORIGIN = '/auth-svc';

let started: Promise<{ port: number }> | undefined;

/** The JWT relay, started on first use; `pageOrigin` (the test server's) is its allowed origin. */
function jwtRelay(stack: Stack, pageOrigin: string): Promise<{ port: number }> {
  return (started ??= new Promise((resolve) => {
    const target: { fetch?: (request: Request) => Response | Promise<Response> } = {};
    const server: ServerType = serve({ fetch: (request) => target.fetch!(request), hostname: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const page = new URL(pageOrigin);
      const relay = createRelay({
        ...serviceOptions(stack.service),
        publicUrl: `http://127.0.0.1:${port}`,
        auth: 'jwt',
        jwtSecret: SECRET,
        // The page's own origin, and the same host on another port: localhost and 127.0.0.1.
        allowedOrigins: [pageOrigin, `http://127.0.0.1:${page.port}`],
        database: join(mkdtempSync(join(tmpdir(), 'svc-auth-relay-')), 'relay.db'),
        rateLimits: {
          create: { limit: 10_000, windowMs: 60_000 },
          read: { limit: 100_000, windowMs: 60_000 },
          public: { limit: 100_000, windowMs: 60_000 },
        },
        logger: () => {},
      });
      target.fetch = relay.fetch;
      server.unref();
      resolve({ port });
    });
  }));
}

const sign = (sub: string, ttlS: number) =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().setExpirationTime(Math.floor(Date.now() / 1000) + ttlS).sign(new TextEncoder().encode(SECRET));

export function middleware(state: { stack?: Stack }) {
  return async (ctx: Ctx, next: () => Promise<void>) => {
    if (!state.stack) return next();
    const pageOrigin = `http://${ctx.req.headers.host}`;
    if (ctx.path === SAME_ORIGIN || ctx.path.startsWith(`${SAME_ORIGIN}/`)) {
      const { port } = await jwtRelay(state.stack, pageOrigin);
      return proxy(ctx, `http://127.0.0.1:${port}/svc${ctx.url.slice(SAME_ORIGIN.length)}`);
    }
    if (!ctx.path.startsWith('/__auth/') || ctx.method !== 'POST') return next();
    const body = ((await readJson(ctx.req)) ?? {}) as { sub?: string; ttl_s?: number };
    const sub = typeof body.sub === 'string' && body.sub ? body.sub : 'alice';
    const ttl = Number.isInteger(body.ttl_s) ? body.ttl_s! : 600;
    ctx.type = 'application/json';
    switch (ctx.path) {
      case '/__auth/relay': {
        const { port } = await jwtRelay(state.stack, pageOrigin);
        ctx.body = JSON.stringify({ cross_origin: `http://localhost:${port}/svc`, same_origin: SAME_ORIGIN });
        return;
      }
      case '/__auth/token':
        ctx.body = JSON.stringify({ token: await sign(sub, ttl) });
        return;
      case '/__auth/session':
        ctx.res.setHeader('Set-Cookie', `svc_token=${await sign(sub, ttl)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${ttl}`);
        ctx.body = JSON.stringify({ sub });
        return;
      case '/__auth/logout':
        ctx.res.setHeader('Set-Cookie', 'svc_token=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
        ctx.body = '{}';
        return;
      default:
        return next();
    }
  };
}
