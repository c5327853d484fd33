// Test helpers for <svc-uploader>.
//
// * A slow way to the upload address, `/__svc-uploader/slow-upload/<bytes per second>`: it reads
//   each body at that pace and passes it on to the real upload address, so the bytes really leave
//   the page over seconds. TCP back-pressure reaches Firefox (started with a small socket send
//   buffer, test/support/browsers/firefox.ts); Chromium moves a few hundred kB into its network
//   service at once, so it is slowed where it sends, too:
// * a command that slows Chromium's upload of request bodies (DevTools network emulation, through
//   puppeteer): the browser side calls `executeServerCommand('svc-uploader-network',
//   {upload_bytes_per_second})`, or `{}` to restore. It answers false in the other engines, whose
//   driver protocols cannot throttle uploads.
// * A flaky way to the upload address, `/__svc-uploader/flaky-upload/<key>`: while `<key>` is not
//   released (`POST /__svc-uploader/flaky-upload/<key>/release`) it reads part of each body and
//   then destroys the connection, so the browser sees a real network failure (status 0); once
//   released it passes requests to the real upload address unchanged.
// * Relays on their own origin (not proxied), for the cross-origin tests, each recording the
//   requests it answered: `POST /__svc-uploader/relays/<name>` with `{allowed_origins: [..],
//   rate_limits?: {create?: {limit, windowMs}, read?: ..}}` starts
//   one against the stack's local service (once per name) and answers `{relay_url}`;
//   `GET /__svc-uploader/relays/<name>/log` -> `[{method, path, origin, status, type}]`.
// * A command collecting the page's console errors (puppeteer or playwright pages):
//   `executeServerCommand('svc-uploader-console', {action: 'start' | 'read'})` -> the errors so far.
import { Transform } from 'node:stream';
import type { TestRunnerPlugin } from '@web/test-runner-core';
import { serve, type ServerType } from '@hono/node-server';
import { createRelay } from '../../../src/relay/app.js';
import type { RelayOptions } from '../../../src/relay/config.js';
import { serviceOptions, type Stack } from '../servers.js';
import { proxy, readJson, type Ctx } from '../wtr-stack.js';

export const NETWORK = 'svc-uploader-network';
export const CONSOLE = 'svc-uploader-console';
export const RELAYS = '/__svc-uploader/relays/';
export const FLAKY_UPLOAD = '/__svc-uploader/flaky-upload/';
export const SLOW_UPLOAD = '/__svc-uploader/slow-upload/';

/** The slice of puppeteer's Page this command uses (@web/test-runner-chrome drives puppeteer). */
interface PuppeteerPage {
  emulateNetworkConditions(conditions: { download: number; upload: number; latency: number } | null): Promise<void>;
}

/** The slice of a puppeteer or playwright Page the console command uses (the same in both). */
interface ConsolePage {
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
}

/** Console errors per test session, once collection started. */
const consoleErrors = new Map<string, string[]>();

export const plugins: TestRunnerPlugin[] = [
  {
    name: 'svc-uploader-console',
    async executeCommand({ command, payload, session }) {
      if (command !== CONSOLE) return undefined;
      // Classic WebDriver (WebKitWebDriver) gives no access to the browser console: false says so
      // (null or undefined would mean "not this plugin's command").
      if (typeof (session.browser as unknown as { getPage?: unknown }).getPage !== 'function') return false;
      const action = (payload as { action?: string } | undefined)?.action;
      if (action === 'start' && !consoleErrors.has(session.id)) {
        const errors: string[] = [];
        consoleErrors.set(session.id, errors);
        const page = (session.browser as unknown as { getPage(id: string): ConsolePage }).getPage(session.id);
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
      }
      return [...(consoleErrors.get(session.id) ?? [])];
    },
  },
  {
    name: 'svc-uploader-network',
    async executeCommand({ command, payload, session }) {
      if (command !== NETWORK) return undefined;
      if (session.browser.name !== 'Chromium') return false;
      const page = (session.browser as unknown as { getPage(id: string): PuppeteerPage }).getPage(session.id);
      const upload = (payload as { upload_bytes_per_second?: number } | undefined)?.upload_bytes_per_second;
      await page.emulateNetworkConditions(upload === undefined ? null : { download: -1, upload, latency: 0 });
      return true;
    },
  },
];

/** Passes bytes on at `bytesPerSecond`, in tenth-of-a-second slices. */
function paced(bytesPerSecond: number): Transform {
  const slice = Math.max(1, Math.round(bytesPerSecond / 10));
  return new Transform({
    highWaterMark: slice,
    transform(chunk: Buffer, _encoding, done) {
      const send = (offset: number) => {
        this.push(chunk.subarray(offset, offset + slice));
        if (offset + slice >= chunk.length) done();
        else setTimeout(() => send(offset + slice), 100);
      };
      setTimeout(() => send(0), 100);
    },
  });
}

/** Bytes of a body read before a flaky connection is dropped. */
const DROP_AFTER = 32 * 1024;

interface RelayRecord {
  method: string;
  path: string;
  origin: string | null;
  status: number;
  type: string | null;
}

const relays = new Map<string, Promise<{ url: string; log: RelayRecord[] }>>();

/** A relay on its own loopback port (so on another origin than the test page) that records what it answers. */
function startRelay(stack: Stack, allowedOrigins: string[], rateLimits?: RelayOptions['rateLimits']): Promise<{ url: string; log: RelayRecord[] }> {
  const log: RelayRecord[] = [];
  const target: { fetch?: (request: Request) => Response | Promise<Response> } = {};
  return new Promise((resolve) => {
    const server: ServerType = serve(
      {
        fetch: async (request) => {
          const response = await target.fetch!(request);
          const { pathname } = new URL(request.url);
          log.push({ method: request.method, path: pathname, origin: request.headers.get('origin'), status: response.status, type: response.headers.get('content-type') });
          return response;
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => {
        const address = server.address();
        const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        const relay = createRelay({ ...serviceOptions(stack.service), publicUrl: origin, auth: 'dev', database: ':memory:', allowedOrigins, rateLimits, logger: () => {} });
        target.fetch = relay.fetch;
        server.unref();
        resolve({ url: `${origin}/svc`, log });
      },
    );
  });
}

export function middleware(state: { stack?: Stack }) {
  const released = new Set<string>();
  return async (ctx: Ctx, next: () => Promise<void>) => {
    if (ctx.path.startsWith(SLOW_UPLOAD) && ctx.method === 'POST') {
      const rate = Number(ctx.path.slice(SLOW_UPLOAD.length));
      if (!Number.isInteger(rate) || rate <= 0) return next();
      return proxy(ctx, state.stack!.service.uploadUrl, ctx.req.pipe(paced(rate)));
    }
    if (ctx.path.startsWith(RELAYS) && state.stack) {
      const [name, action] = ctx.path.slice(RELAYS.length).split('/');
      if (!name) return next();
      ctx.type = 'application/json';
      if (ctx.method === 'POST' && !action) {
        const body = (await readJson(ctx.req)) as { allowed_origins?: string[]; rate_limits?: RelayOptions['rateLimits'] } | null;
        if (!relays.has(name)) relays.set(name, startRelay(state.stack, body?.allowed_origins ?? [], body?.rate_limits));
        ctx.body = JSON.stringify({ relay_url: (await relays.get(name)!).url });
        return;
      }
      if (ctx.method === 'GET' && action === 'log') {
        ctx.body = JSON.stringify((await relays.get(name))?.log ?? []);
        return;
      }
      return next();
    }
    if (!ctx.path.startsWith(FLAKY_UPLOAD) || ctx.method !== 'POST') return next();
    const [key, action] = ctx.path.slice(FLAKY_UPLOAD.length).split('/');
    if (!key) return next();
    if (action === 'release') {
      released.add(key);
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ released: key });
      return;
    }
    ctx.respond = false;
    ctx.status = 200; // for the dev server's log: the answer (or the dropped connection) is ours
    if (!released.has(key)) {
      await new Promise<void>((resolve) => {
        let seen = 0;
        ctx.req.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen >= DROP_AFTER) ctx.req.socket.destroy();
        });
        ctx.req.on('end', () => ctx.req.socket.destroy());
        ctx.req.on('close', resolve);
      });
      return;
    }
    await proxy(ctx, state.stack!.service.uploadUrl);
  };
}
