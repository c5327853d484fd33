// A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl from the installed server
// binaries, in a temporary directory, on a free loopback port, stopped and removed afterwards.
// As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root), and the
// directory is handed to that user. scripts/test-node.ts starts one cluster for the whole run and
// passes its URL on (SVC_TEST_POSTGRES_URL); a test file run on its own starts its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Set by scripts/test-node.ts: the cluster's admin URL, or 'skip' when there are no binaries. */
export const ENV_URL = 'SVC_TEST_POSTGRES_URL';

export const SKIP_LINE =
  'PostgreSQL server binaries (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin or $PG_BIN: the PostgreSQL runs are skipped (install the postgresql package to run them).';

/** The directory holding initdb and pg_ctl: $PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export function serverBinaries(): string | undefined {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((version) => /^\d+$/.test(version))
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : [];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Cluster {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** Stops the server and removes its directory (synchronous, so it also runs at process exit). */
  stop(): void;
}

export async function startCluster(bin: string): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const user = asRoot
    ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
    : {};
  if (asRoot) chownSync(dir, user.uid!, user.gid!);
  const run = (tool: string, args: string[]) => {
    const result = spawnSync(join(bin, tool), args, { cwd: dir, ...user, env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' }, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout || result.error}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c max_connections=300'];
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings.join(' '), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { cwd: dir, ...user, stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let own: Promise<string | undefined> | undefined;

/** The admin URL of the run's cluster (starting one for this process if needed), or undefined to skip. */
export function clusterUrl(): Promise<string | undefined> {
  const fromEnv = process.env[ENV_URL];
  if (fromEnv === 'skip') return Promise.resolve(undefined);
  if (fromEnv) return Promise.resolve(fromEnv);
  return (own ??= (async () => {
    const bin = serverBinaries();
    if (!bin) {
      console.log(SKIP_LINE);
      return undefined;
    }
    const cluster = await startCluster(bin);
    process.once('exit', () => cluster.stop());
    return cluster.url;
  })());
}

/** Whether PostgreSQL runs happen in this process (binaries installed or a cluster given). */
export function postgresAvailable(): boolean {
  const fromEnv = process.env[ENV_URL];
  return fromEnv ? fromEnv !== 'skip' : serverBinaries() !== undefined;
}

/** A new, empty database on the run's cluster; its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = await clusterUrl();
  if (!admin) throw new Error(SKIP_LINE);
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}
