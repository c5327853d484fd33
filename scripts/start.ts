// `npm start`: the whole thing on this machine, nothing to configure.
// * the local service (API, upload address and player on three ports, control API on);
// * the relay (dev identity, SQLite under ./.svc-data/), in this process (its Node request listener);
// * Vite's dev server for demo/, with /svc proxied to the relay (streaming, so SSE flows) and
//   /cms-page.html served as-is under a strict CSP (a fresh nonce per request, Trusted Types).
// Everything runs in this one process (`node --import tsx`, no tsx launcher in between), so Ctrl+C,
// or SIGTERM or SIGINT sent to it or to npm, stops it all and leaves nothing behind. The npm script
// `exec`s node so that npm's shell does not stand between npm and this process: npm passes the
// signals it gets to its child only, and the shell (dash) does not pass SIGINT on. (Windows' cmd.exe
// has no `exec`: there, run `node --import tsx scripts/start.ts`.)
// Prints the demo page's URL. Flags (all optional; 0 = any free port): --host, --port (demo, 5173),
// --relay-port (8787), --api-port, --upload-port, --player-port, --iframe-port (8700-8703),
// --data-dir (./.svc-data), --processing-ms (local service encoding delay), and --allowed-origin
// (repeatable; also SVC_ALLOWED_ORIGINS, comma-separated): the origin of a page of your own that may
// use the relay, for which it also prints the two lines to paste into that page's <head>.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServer as createViteServer, type Plugin, type ViteDevServer } from 'vite';
import { onShutdown } from '../src/cli/shutdown.js';
import { createLocalService, type LocalService } from '../src/emulator/app.js';
import { jsonLogger } from '../src/emulator/log.js';
import { createRelay } from '../src/relay/app.js';
import { isLoopbackHost } from '../src/relay/config.js';
import { buildBundleIfStale, bundlePath } from './build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `Usage: npm start [-- flags]   the demo, the relay and the local service on this machine

  --host <host>              interface of every server [127.0.0.1]
  --port <port>              the demo page [5173]
  --relay-port <port>        the relay [8787]
  --api-port, --upload-port, --player-port, --iframe-port <port>
                             the local service's origins [8700-8703]
  --data-dir <dir>           the relay's and the local service's data [.svc-data]
  --processing-ms <ms>       the local service's encoding delay
  --allowed-origin <origin>  a page of your own that may use the relay (repeatable; also
                             SVC_ALLOWED_ORIGINS, comma-separated); prints the lines to paste
  --help                     this text

Port 0 = any free port.`;

/** Stops with one clear line (no stack trace: these are the user's problems, not bugs). */
function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

const { values: flags } = (() => {
  try {
    return parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string' },
        'relay-port': { type: 'string' },
        'api-port': { type: 'string' },
        'upload-port': { type: 'string' },
        'player-port': { type: 'string' },
        'iframe-port': { type: 'string' },
        'data-dir': { type: 'string', default: '.svc-data' },
        'processing-ms': { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message} (npm start -- --help lists the flags)`);
  }
})();
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

function portFlag(name: keyof typeof flags, fallback: number): { port: number; explicit: boolean } {
  const raw = flags[name];
  if (raw === undefined) return { port: fallback, explicit: false };
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--${name} must be a port number (0 = any free port)`);
  return { port, explicit: true };
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createNetServer();
    probe.once('error', () => done(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => done(true)));
  });
}

async function anyFreePort(host: string): Promise<number> {
  return new Promise((done, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0 }, () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const taken = new Set<number>();

/** The preferred port, or (for a default) the next free one; an explicit busy port stops the start. */
async function pickPort(host: string, name: keyof typeof flags, fallback: number): Promise<number> {
  const { port, explicit } = portFlag(name, fallback);
  if (port === 0) {
    let free = await anyFreePort(host);
    while (taken.has(free)) free = await anyFreePort(host);
    taken.add(free);
    return free;
  }
  for (let candidate = port; candidate < port + 50 && candidate <= 65_535; candidate++) {
    if (!taken.has(candidate) && (await isFree(host, candidate))) {
      if (candidate !== port) console.error(`npm start: port ${port} is in use, using ${candidate} for --${name}`);
      taken.add(candidate);
      return candidate;
    }
    if (explicit) fail(`port ${port} (--${name}) is in use; choose another with --${name} <port>, or 0 for any free port`);
  }
  fail(`no free port near ${port} for --${name}; pass --${name} <port>, or 0 for any free port`);
}

/** The pages of the user's own that may use the relay: --allowed-origin (repeatable) and SVC_ALLOWED_ORIGINS. */
function ownOrigins(flagged: string[] = [], env = process.env.SVC_ALLOWED_ORIGINS ?? ''): string[] {
  // An address copied from the address bar ends in "/": the origin is what is meant.
  const all = [...flagged, ...env.split(',')].map((origin) => origin.trim().replace(/^(https?:\/\/[^/?#]+)\/$/, '$1')).filter(Boolean);
  for (const origin of all) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
      fail(`--allowed-origin (or SVC_ALLOWED_ORIGINS) takes an origin such as http://localhost:8080 (scheme://host[:port], no path), not "${origin}"`);
    }
  }
  return [...new Set(all)];
}

/** Builds the script-tag build the relay serves when it is missing or older than the sources. */
async function ensureBundle(): Promise<void> {
  try {
    if (await buildBundleIfStale()) console.error('npm start: built the script-tag build (dist/cdn/) for the CMS page');
  } catch (error) {
    // The demo page does not need the build; only /cms-page.html does.
    console.error(`npm start: the script-tag build failed, /cms-page.html will not work: ${(error as Error).message}`);
  }
}

/** The policy of the CMS page: only nonce'd scripts, the relay's and the player's; Trusted Types. */
export function cmsPagePolicy(nonce: string, relayOrigin: string, playerOrigin: string): string {
  return [
    `script-src 'nonce-${nonce}' ${relayOrigin} ${playerOrigin}`,
    "require-trusted-types-for 'script'",
    // svc-player passes the player's src through its policy; lit-html is Lit's own policy.
    'trusted-types svc-player lit-html',
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Serves demo/cms-page.html untouched by Vite (no injected client script), with its CSP. */
function cmsPage(playerOrigin: string): Plugin {
  return {
    name: 'svc-cms-page',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== '/cms-page.html') return next();
        const nonce = randomBytes(18).toString('base64');
        // The relay is reached through this origin (as behind the CMS's own reverse proxy).
        const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
        readFile(join(root, 'demo', 'cms-page.html'), 'utf8').then(
          (html) => {
            res.setHeader('Content-Type', 'text/html; charset=utf-8');
            res.setHeader('Cache-Control', 'no-store');
            res.setHeader('Content-Security-Policy', cmsPagePolicy(nonce, origin, playerOrigin));
            res.end(html.replaceAll('{{nonce}}', nonce));
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}

async function main(): Promise<void> {
  const host = flags.host!;
  // The demo trusts every caller as one user (dev identity): never offer that beyond this machine.
  if (!isLoopbackHost(host)) fail(`--host must be a loopback address (127.0.0.1, ::1, localhost), not "${host}"`);
  const dataDir = resolve(root, flags['data-dir']!);
  const processingMs = flags['processing-ms'] === undefined ? undefined : Number(flags['processing-ms']);
  if (processingMs !== undefined && !(processingMs >= 0)) fail('--processing-ms must be a number of milliseconds');
  const own = ownOrigins(flags['allowed-origin']);

  const ports = {
    demo: await pickPort(host, 'port', 5173),
    relay: await pickPort(host, 'relay-port', 8787),
    api: await pickPort(host, 'api-port', 8700),
    upload: await pickPort(host, 'upload-port', 8701),
    player: await pickPort(host, 'player-port', 8702),
    iframe: await pickPort(host, 'iframe-port', 8703),
  };

  // The local service keeps its content in memory, so a relay database from an earlier run would
  // list videos the service no longer has: each run starts both fresh.
  rmSync(join(dataDir, 'media'), { recursive: true, force: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `relay.db${suffix}`), { force: true });
  mkdirSync(join(dataDir, 'media'), { recursive: true });
  const log = createWriteStream(join(dataDir, 'start.log'), { flags: 'a' });
  const sink = (line: string) => void log.write(line + '\n');

  await ensureBundle();

  const closers: (() => Promise<unknown>)[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error('npm start: did not stop within 8 s, exiting anyway');
      process.exit(1);
    }, 8_000).unref();
    for (const close of closers.reverse()) {
      await close().catch((error: unknown) => console.error(`npm start: while stopping: ${(error as Error).message}`));
    }
    log.end();
    process.exit(code);
  };
  onShutdown(() => void stop(0));

  let service: LocalService;
  try {
    service = await createLocalService({
      host,
      apiPort: ports.api,
      uploadPort: ports.upload,
      playerPort: ports.player,
      iframePort: ports.iframe,
      // The service as its public clients show it, without a consistency delay (docs/real-service.md).
      profile: 'observed',
      consistencyMs: 0,
      control: true,
      dataDir: join(dataDir, 'media'),
      ...(processingMs === undefined ? {} : { processingMs }),
      logger: jsonLogger((line) => void log.write(line)),
    });
  } catch (error) {
    fail(`the local service did not start: ${(error as Error).message}`);
  }
  closers.push(() => service.close());

  const urlHost = host.includes(':') ? `[${host}]` : host;
  const relayOrigin = `http://${urlHost}:${ports.relay}`;
  const demoOrigin = `http://${urlHost}:${ports.demo}`;
  const relay = createRelay({
    apiKey: service.apiKey,
    baseUrl: service.baseUrl,
    uploadUrl: service.uploadUrl,
    playerUrl: service.playerUrl,
    iframeOrigins: [service.iframeUrl],
    publicUrl: relayOrigin,
    auth: 'dev',
    database: join(dataDir, 'relay.db'),
    allowedOrigins: [demoOrigin, ...own],
    elementsBundlePath: bundlePath,
    logger: sink,
  });
  const server = await new Promise<Server>((done, reject) => {
    const s = createServer(relay.requestListener);
    s.once('error', reject);
    s.listen(ports.relay, host, () => done(s));
  }).catch((error: Error) => fail(`the relay did not start on ${relayOrigin}: ${error.message}`));
  closers.push(async () => {
    await relay.close();
    await new Promise((done) => {
      server.close(done);
      server.closeIdleConnections();
    });
  });

  let vite: ViteDevServer;
  try {
    vite = await createViteServer({
      configFile: join(root, 'vite.config.ts'),
      clearScreen: false,
      logLevel: 'warn',
      plugins: [cmsPage(new URL(service.playerUrl).origin)],
      server: {
        host,
        port: ports.demo,
        strictPort: true,
        // http-proxy pipes responses through as they come, so the relay's SSE stream is not buffered.
        proxy: { '/svc': { target: relayOrigin, xfwd: true } },
      },
    });
    await vite.listen();
  } catch (error) {
    console.error(`npm start: the demo server did not start on ${demoOrigin}: ${(error as Error).message}`);
    await stop(1);
    return;
  }
  closers.push(() => vite.close());

  console.log(`svc-elements demo: ${demoOrigin}/`);
  const relayUrl = `${relayOrigin}/svc`;
  if (own.length) {
    console.log(`Your page on ${own.join(', ')} may use this relay. Paste into its <head>:`);
    console.log(`  <meta name="svc-relay" content="${relayUrl}">`);
    console.log(`  <script type="module" src="${relayUrl}/elements.js"></script>`);
    console.log('then put <svc-uploader></svc-uploader> or <svc-player content-id="…"></svc-player> in its body.');
  } else {
    console.log('Your own page on another origin: npm start -- --allowed-origin http://localhost:8080');
  }
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error)));
