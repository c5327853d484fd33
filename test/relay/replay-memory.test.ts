// Issue 25, finding 4: event replays that the client does not read must not fill the relay's
// memory nor slow it for everyone. The relay CLI (its own process, a SQLite file holding 50,000
// events of one user) gets ten streams opened with Last-Event-ID: 0 whose clients never read;
// its resident memory stays bounded and an anonymous GET /config is still answered at once.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import { RELAY_BIN, relayEnv, startCli } from '../support/cli.js';

const EVENTS = 50_000;
const STREAMS = 10;

/** Resident memory of a process, MiB (Linux). */
const rssMib = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ten unread replays of 50,000 events', () => {
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];
  after(() => {
    for (const socket of sockets) socket.destroy();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('keep the relay memory bounded and GET /config answered within 50 ms at the median', { timeout: 120_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-replay-memory-'));
    const path = join(dir, 'relay.db');
    await new SqliteStore(path).close(); // the schema
    const db = new Database(path);
    const insert = db.prepare('INSERT INTO events (owner, data, created_at) VALUES (?, ?, ?)');
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < EVENTS; i++) {
        const data = { upload_id: `up_${String(i).padStart(22, '0')}`, source: `holiday-video-${i}.mp4`, state: 'ready', vod: { id: String(100_000 + i), title: `Holiday video ${i}` } };
        insert.run('dev', JSON.stringify(data), at);
      }
    })();
    db.close();

    const cli = await startCli(RELAY_BIN, [], relayEnv({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', uploadUrl: 'http://127.0.0.1:9', playerUrl: 'http://127.0.0.1:9' }, { SVC_DATABASE: path }), dir);
    children.push(cli.child);
    const url = new URL(cli.ready.url as string);
    const config = async () => {
      const started = performance.now();
      const response = await fetch(`${url.origin}${url.pathname}/config`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await config(); // warm-up
    const before = rssMib(cli.child.pid!);

    // Raw connections that ask for the whole history and then never read a byte.
    const heads = await Promise.all(
      Array.from({ length: STREAMS }, () => new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname);
        sockets.push(socket);
        socket.once('error', reject);
        socket.once('data', (chunk) => {
          socket.pause();
          resolve(chunk.toString('latin1'));
        });
        socket.write(`GET ${url.pathname}/events HTTP/1.1\r\nHost: ${url.host}\r\nX-Svc-Request: 1\r\nLast-Event-ID: 0\r\n\r\n`);
      })),
    );
    for (const head of heads) assert.match(head, /^HTTP\/1\.1 200 /);
    await sleep(3000); // time for a relay that replays without regard to its client to do so

    const samples: number[] = [];
    for (let i = 0; i < 20; i++) samples.push(await config());
    samples.sort((a, b) => a - b);
    const median = samples[10]!;
    const grown = rssMib(cli.child.pid!) - before;
    t.diagnostic(`relay RSS ${before.toFixed(1)} MiB before, +${grown.toFixed(1)} MiB with ${STREAMS} unread replays; GET /config median ${median.toFixed(2)} ms`);
    for (const socket of sockets) assert.ok(!socket.destroyed, 'the streams are still open');
    assert.ok(grown < 60, `the relay grew by ${grown.toFixed(1)} MiB (from ${before.toFixed(1)} MiB)`);
    assert.ok(median < 50, `GET /config median ${median.toFixed(1)} ms (${samples.map((s) => s.toFixed(1)).join(', ')})`);
  });
});
