// Relays with settings of their own for the browser tests that need one (test/elements/error-codes
// .browser.test.ts): a short upstream timeout, a wrong API key, a small create limit. Each is a real
// relay on its own loopback port (another origin than the test page, trusted by the page as a site
// owner does), in front of the same local service as the shared stack, with a SQLite file store.
//   POST /__relays/<name> {timeout_ms?, retries?, wrong_key?, create_limit?} -> {relay_url}
// The same name answers the same relay, so a test file can ask again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createRelay } from '../../../src/relay/app.js';
import type { RelayOptions } from '../../../src/relay/config.js';
import { serviceOptions, type Stack } from '../servers.js';
import { readJson, type Ctx } from '../wtr-stack.js';

const PREFIX = '/__relays/';
const relays = new Map<string, Promise<string>>();

interface Settings {
  timeout_ms?: number;
  retries?: number;
  wrong_key?: boolean;
  create_limit?: number;
}

function start(stack: Stack, pageOrigin: string, settings: Settings): Promise<string> {
  const target: { fetch?: (request: Request) => Response | Promise<Response> } = {};
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch: (request) => target.fetch!(request), hostname: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const service = serviceOptions(stack.service);
      const options: RelayOptions = {
        ...service,
        apiKey: settings.wrong_key ? `${service.apiKey}-not-this-one` : service.apiKey,
        publicUrl: origin,
        auth: 'dev',
        allowedOrigins: [pageOrigin],
        database: join(mkdtempSync(join(tmpdir(), 'svc-test-relay-')), 'relay.db'),
        ...(settings.timeout_ms ? { timeoutMs: settings.timeout_ms } : {}),
        ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
        rateLimits: {
          create: { limit: settings.create_limit ?? 10_000, windowMs: 60_000 },
          read: { limit: 100_000, windowMs: 60_000 },
          public: { limit: 100_000, windowMs: 60_000 },
        },
        logger: () => {},
      };
      target.fetch = createRelay(options).fetch;
      server.unref();
      resolve(`${origin}/svc`);
    });
  });
}

export function middleware(state: { stack?: Stack }) {
  return async (ctx: Ctx, next: () => Promise<void>) => {
    if (!ctx.path.startsWith(PREFIX) || ctx.method !== 'POST' || !state.stack) return next();
    const name = ctx.path.slice(PREFIX.length);
    if (!/^[a-z0-9-]{1,40}$/.test(name)) return next();
    const settings = ((await readJson(ctx.req)) ?? {}) as Settings;
    if (!relays.has(name)) relays.set(name, start(state.stack, `http://${ctx.req.headers.host}`, settings));
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ relay_url: await relays.get(name)! });
  };
}
