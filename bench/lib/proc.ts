// Child processes for the servers under test (so their memory is measured alone and the load
// generator does not share their event loop), and resident memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Everything started by the benchmarks, stopped at the end even when a benchmark timed out. */
const running = new Set<() => Promise<void>>();
export function onCleanup(stop: () => Promise<void>): () => void {
  running.add(stop);
  return () => running.delete(stop);
}
export async function cleanupAll(): Promise<void> {
  const stops = [...running];
  running.clear();
  await Promise.allSettled(stops.map((stop) => stop()));
}

export interface Child {
  process: ChildProcess;
  pid: number;
  /** The JSON line with "event":"ready" the child printed. */
  ready: Record<string, unknown>;
  /** Last lines of stderr, for error messages. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `node [--import tsx] script args` and waits for its `"event":"ready"` line on stdout. */
export async function spawnReady(
  script: string,
  args: string[] = [],
  options: { env?: Record<string, string>; tsx?: boolean; timeoutMs?: number } = {},
): Promise<Child> {
  const nodeArgs = options.tsx === false ? [script, ...args] : ['--import', 'tsx', script, ...args];
  // The child's logs go to a file, not through this process: reading them here would take CPU
  // from the load generator while the servers are measured.
  mkdirSync(`${root}bench/tmp/logs`, { recursive: true });
  const logPath = `${root}bench/tmp/logs/${basename(script).replace(/\.[jt]s$/, '')}-${Date.now()}.log`;
  const logFd = openSync(logPath, 'w');
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', logFd],
  });
  closeSync(logFd);
  const stderr = () => {
    try {
      return readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '';
    }
  };
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} not ready in time\n${stderr()}`)), options.timeoutMs ?? 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`${script} exited (${code}) before ready\n${stderr()}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('"ready"')) return;
      try {
        const json = JSON.parse(line) as Record<string, unknown>;
        if (json.event !== 'ready') return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(json);
      } catch {
        // not our line
      }
    });
  });
  const stop = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
  const forget = onCleanup(stop);
  return {
    process: child,
    pid: child.pid!,
    ready,
    stderr,
    stop: () => {
      forget();
      return stop();
    },
  };
}

/** Resident set size of a process in MiB (VmRSS from /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}

/** Samples the RSS of `pid` every `everyMs` until stopped; returns the peak and the samples. */
export function sampleRss(pid: number, everyMs = 25) {
  const samples: number[] = [];
  const take = () => {
    try {
      samples.push(rssMiB(pid));
    } catch {
      // process gone
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return { peak: Math.max(...samples), last: samples[samples.length - 1]!, samples };
    },
  };
}

/** The local service as a CLI child (bin/svc-emulator.js), or through its library when the CLI is missing. */
export async function startService(options: { processingMs?: number; extra?: string[] } = {}): Promise<Child & {
  baseUrl: string;
  uploadUrl: string;
  playerUrl: string;
  accountId: string;
  apiKey: string;
}> {
  const apiKey = 'bench-key';
  const args = [
    '--host', '127.0.0.1',
    '--api-port', '0',
    '--upload-port', '0',
    '--player-port', '0',
    '--api-key', apiKey,
    '--processing-ms', String(options.processingMs ?? 0),
    ...(options.extra ?? []),
  ];
  const cli = `${root}bin/svc-emulator.js`;
  const child = existsSync(cli)
    ? await spawnReady(cli, args, { tsx: false })
    : await spawnReady(`${root}bench/servers/service.ts`, args);
  return {
    ...child,
    baseUrl: String(child.ready.base_url).replace(/\/+$/, ''),
    uploadUrl: String(child.ready.upload_url),
    playerUrl: String(child.ready.player_url).replace(/\/+$/, ''),
    accountId: String(child.ready.account_id),
    apiKey,
  };
}

/** The relay as a child process (bench/servers/relay.ts: createRelay served by @hono/node-server). */
export async function startRelay(
  service: { baseUrl: string; uploadUrl: string; playerUrl: string; apiKey: string },
  options: Record<string, unknown> = {},
): Promise<Child & { url: string; origin: string }> {
  const config = {
    apiKey: service.apiKey,
    baseUrl: service.baseUrl,
    uploadUrl: service.uploadUrl,
    playerUrl: service.playerUrl,
    ...options,
  };
  const child = await spawnReady(`${root}bench/servers/relay.ts`, [JSON.stringify(config)]);
  const url = String(child.ready.url).replace(/\/+$/, '');
  return { ...child, url, origin: new URL(url).origin };
}
