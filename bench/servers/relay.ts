// The relay as its own process for the benchmarks: createRelay(options) served by its Node request
// listener on loopback, like the svc-relay CLI, but with options the CLI does not take
// from the environment (raised rate limits, cache settings). Options come as JSON in argv[2].
// Prints {"event":"ready","url":"http://127.0.0.1:<port>/svc"} when listening.
// The relay is the compiled one in dist/ (`npm run bench` builds it first), as installed users
// run it: run from the TypeScript sources through tsx, every closure it makes per request would
// also be renamed (esbuild's keepNames), a cost no user pays.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

const compiled = new URL('../../dist/relay/app.js', import.meta.url);
if (!existsSync(compiled)) throw new Error('dist/relay/app.js is missing: run "npm run build" first.');
const { createRelay } = (await import(compiled.href)) as typeof import('../../src/relay/app.js');

const { quiet, ...options } = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
// The server listens first (its port goes into publicUrl), the relay is attached after.
const mounted: { relay?: Awaited<ReturnType<typeof createRelay>> } = {};
const server: Server = await new Promise((resolve) => {
  const s = createServer((incoming, outgoing) => mounted.relay!.requestListener(incoming, outgoing));
  s.listen(0, '127.0.0.1', () => resolve(s));
});
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const relay = await createRelay({
  publicUrl: origin,
  auth: 'dev',
  database: ':memory:',
  ...options,
  // `quiet: true` drops the JSON log lines (to see what request logging costs).
  ...(quiet ? { logger: () => {} } : {}),
} as unknown as Parameters<typeof createRelay>[0]);
await relay.ready; // PostgreSQL: migrated and listening
mounted.relay = relay;
process.stdout.write(`${JSON.stringify({ event: 'ready', url: `${origin}/svc` })}\n`);

const stop = async () => {
  setTimeout(() => process.exit(0), 2000).unref();
  await relay.close();
  server.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
