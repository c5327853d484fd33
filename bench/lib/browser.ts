// Chromium through playwright-core, and a tiny loopback server for the pages under test: it
// serves the page and its esbuild bundle and proxies a path prefix (e.g. /svc) to the relay, so
// the page and the relay share an origin as in production.
import { createServer, request, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { launchChromium as launch } from '../../test/support/chromium.js';
import { onCleanup } from './proc.js';

/** The project's Chromium set-up (test/support/chromium.ts), closed at the end of a benchmark. */
export async function launchChromium(): Promise<Browser> {
  const browser = await launch();
  const forget = onCleanup(() => browser.close());
  browser.on('disconnected', forget);
  return browser;
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `files` (path -> [content type, body]) and proxies `proxy.prefix` to `proxy.origin`. */
export async function servePage(
  files: Record<string, [string, string | Uint8Array]>,
  proxy?: { prefix: string; origin: string },
): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (proxy && path.startsWith(proxy.prefix)) {
      const upstream = request(
        new URL(req.url!, proxy.origin),
        // Host kept: the relay then sees the page's origin as its own, as behind a real proxy.
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    const file = files[path];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file[0], 'Cache-Control': 'no-store' }).end(file[1]);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
