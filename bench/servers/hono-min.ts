// The framework's own ceiling: a minimal Hono app on @hono/node-server answering the same JSON
// (argv[2]) as the bare node:http server, with none of the relay's middleware. Shows how much of
// the gap between the relay and node:http is the framework and how much the relay's own work.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
const app = new Hono();
app.get('*', (c) => c.json(body));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`${JSON.stringify({ event: 'ready', url: `http://127.0.0.1:${info.port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
