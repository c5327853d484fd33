// svc-relay: serves createRelay (its Node request listener) from environment variables (and a .env
// file). Prints one JSON "ready" line on stdout; logs JSON lines on stderr; SIGTERM drains.
// `svc-relay migrate --from <sqlite file> --to <postgres url>` moves a SQLite relay's data;
// `svc-relay --help` prints every variable with its default (usage.ts).
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { onShutdown } from '../cli/shutdown.js';
import { createRelay, type Relay } from './app.js';
import { configFromEnv, parseDotEnv } from './config.js';
import { createLogger, stderrSink } from './log.js';
import { RELAY_USAGE } from './usage.js';

function environment(): Record<string, string | undefined> {
  const path = process.env.SVC_ENV_FILE ?? '.env';
  const fromFile = existsSync(path) ? parseDotEnv(readFileSync(path, 'utf8')) : {};
  return { ...fromFile, ...process.env }; // the real environment wins over the file
}

async function main() {
  const { config, problems } = configFromEnv(environment());
  if (!config) {
    for (const problem of problems) process.stderr.write(`svc-relay: ${problem}\n`);
    process.stderr.write('Run svc-relay --help for every variable and its default.\n');
    process.exit(1);
  }
  const log = createLogger(stderrSink, [config.options.apiKey, config.options.jwtSecret ?? '']);
  let relay: Relay | undefined;
  const server: Server = await new Promise((resolve, reject) => {
    const s = createServer((incoming, outgoing) => {
      if (relay) relay.requestListener(incoming, outgoing);
      else outgoing.writeHead(503, { 'Content-Type': 'text/plain' }).end('starting');
    });
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  const origin = `http://${host}:${port}`;
  try {
    relay = createRelay({ ...config.options, publicUrl: config.options.publicUrl ?? origin, logger: stderrSink });
    await relay.ready; // PostgreSQL: connected, migrated and listening before "ready"
  } catch (error) {
    process.stderr.write(`svc-relay: ${(error as Error).message}\n`);
    server.close();
    process.exit(1);
  }
  server.requestTimeout = 60_000;
  const url = `${origin}${config.options.basePath ?? '/svc'}`;
  process.stdout.write(
    JSON.stringify({ event: 'ready', url, public_url: config.options.publicUrl ?? origin, auth: config.options.auth }) + '\n',
  );

  const drain = async (signal: string) => {
    log.info('draining', { signal });
    const force = setTimeout(() => {
      log.error('drain_timeout', {});
      process.exit(1);
    }, 15_000);
    force.unref();
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    await relay!.close(); // ends SSE streams, waits for requests in flight, closes the database
    server.closeIdleConnections();
    await serverClosed;
    log.info('stopped', {});
    process.exit(0);
  };
  onShutdown((signal) => void drain(signal));
}

const HELP = ['--help', '-h', 'help'];
const argument = process.argv[2];
if (argument !== undefined && !HELP.includes(argument) && argument !== 'migrate') {
  // The relay is configured by environment variables only: a flag would be silently ignored.
  process.stderr.write(`svc-relay: unknown argument "${argument.slice(0, 100)}"; the relay is configured by environment variables (svc-relay --help lists them)\n`);
  process.exit(2);
}
const command = HELP.includes(argument ?? '')
  ? Promise.resolve(void process.stdout.write(`${RELAY_USAGE}\n`))
  : argument === 'migrate'
    ? import('./store/copy.js').then(async ({ migrateCommand }) => process.exit(await migrateCommand(process.argv.slice(3))))
    : main();
command.catch((error: unknown) => {
  process.stderr.write(`svc-relay: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
