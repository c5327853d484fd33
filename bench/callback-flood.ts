// What a flood of forged upload callbacks costs the relay (issue 17): the relay CLI runs in its own
// process (SQLite file, upstream a closed port); this process sends a bounded number of forged
// callbacks (random tokens, 55 KB multipart bodies) over loopback and reads the relay's CPU time
// and resident memory from /proc. For comparison, the CPU time parsing one such body costs (what
// every forged callback cost before the token was looked up first). Not part of `npm run bench`:
//
//   npx tsx bench/callback-flood.ts [count]      default 3000 callbacks, 20 at a time
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMultipart } from '../src/relay/routes/callbacks.js';
import { rssMiB, spawnReady } from './lib/proc.js';

const count = Number(process.argv[2] ?? 3000);
const concurrency = 20;
const boundary = 'flood';
const body = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file_id"\r\n\r\n123\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${'t'.repeat(7000)}\r\n`.repeat(7) +
    `--${boundary}--\r\n`,
);

/** utime + stime of a process, in ms (clock ticks are 10 ms on Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function forged(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/svc/callbacks/upload/${randomBytes(32).toString('base64url')}`,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    // The relay answers before the body is read and closes the connection: writes may fail.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve(0) : reject(error)));
    req.end(body);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'callback-flood-'));
const relay = await spawnReady('src/relay/cli.ts', [], {
  env: {
    SVC_API_KEY: 'flood-key',
    SVC_BASE_URL: 'http://127.0.0.1:9',
    SVC_UPLOAD_URL: 'http://127.0.0.1:9',
    SVC_PLAYER_URL: 'http://127.0.0.1:9',
    SVC_AUTH: 'dev',
    SVC_RELAY_PORT: '0',
    SVC_DATABASE: join(dir, 'relay.db'),
    // Measure the cost of the lookup itself, not of the 429s the per-address limit gives after 600/min.
    SVC_RATE_LIMIT_PUBLIC: '1000000',
  },
});
try {
  const port = Number(new URL(String(relay.ready.url)).port);
  await forged(port); // warm-up
  const cpuBefore = cpuMs(relay.pid);
  const started = performance.now();
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const status = await forged(port);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMs(relay.pid) - cpuBefore;

  const parseStarted = process.cpuUsage();
  const rounds = 500;
  for (let i = 0; i < rounds; i++) await parseMultipart(`multipart/form-data; boundary=${boundary}`, body);
  const parse = process.cpuUsage(parseStarted);

  console.log(
    JSON.stringify(
      {
        forged_callbacks: count,
        body_bytes: body.length,
        statuses: Object.fromEntries(statuses),
        per_second: Math.round(count / seconds),
        relay_cpu_ms_per_callback: +(cpu / count).toFixed(3),
        relay_cpu_share: +(cpu / 1000 / seconds).toFixed(2),
        relay_rss_mib_after: rssMiB(relay.pid),
        parse_cpu_ms_per_body: +((parse.user + parse.system) / 1000 / rounds).toFixed(3),
      },
      null,
      2,
    ),
  );
} finally {
  await relay.stop();
  rmSync(dir, { recursive: true, force: true });
}
