// `npm start` as a process manager or container runtime stops it: SIGTERM (or SIGINT, as pm2 does)
// to the npm process the user started, not to its process group. npm passes a signal on to its
// child only; every server the demo started must still stop and free its port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually, groupAlive } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A port free right now on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The processes of group `pgid` that still run (zombies waiting for init to reap them do not). */
function runningInGroup(pgid: number): string[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its closing parenthesis.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' ? [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`] : [];
    } catch {
      return []; // it ended while we looked
    }
  });
}

const groups: number[] = [];
after(() => {
  for (const group of groups) if (groupAlive(group)) process.kill(-group, 'SIGKILL');
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the \`npm start\` process stops every process it started and frees every port`, { timeout: 240_000 }, async () => {
    const ports: Record<string, number> = {};
    for (const flag of ['--port', '--relay-port', '--api-port', '--upload-port', '--player-port']) {
      // Each free port is released before the next is asked for, so the system may hand one out twice.
      let port = await freePort();
      while (Object.values(ports).includes(port)) port = await freePort();
      ports[flag] = port;
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-signals-'));
    const args = ['start', '--', ...Object.entries(ports).flatMap(([flag, port]) => [flag, String(port)]), '--data-dir', dataDir];
    // Its own process group, so that the test can clean up whatever is left; the signal goes to npm alone.
    const npm = spawn('npm', args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const group = npm.pid!;
    groups.push(group);
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(npm, 'exit');

    assert.ok(await eventually(() => /svc-elements demo: http/.test(output), 180_000), `npm start printed no URL:\n${output}`);
    for (const [flag, port] of Object.entries(ports)) assert.equal(await listening(port), true, `${flag} ${port} listens`);
    assert.ok(runningInGroup(group).length >= 2, 'npm and the demo process run');

    npm.kill(signal);
    await exited;
    const left = async () => {
      const open = [];
      for (const [flag, port] of Object.entries(ports)) if (await listening(port)) open.push(`${flag} ${port}`);
      return open;
    };
    const deadline = Date.now() + 15_000;
    while ((await left()).length || runningInGroup(group).length) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await left(), [], `no listener is left on its ports:\n${output}`);
    assert.deepEqual(runningInGroup(group), [], 'no process it started still runs');
  });
}
