// The CLIs as child processes for tests: start one and wait for its JSON "ready" line.
/* eslint-disable @typescript-eslint/no-explicit-any -- the ready line is checked field by field */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The relay CLI's source, run through tsx (bin/ runs the compiled dist/, tested by test/e2e/packaging.test.ts). */
export const RELAY_BIN = join(ROOT, 'src/relay/cli.ts');

/** Node's arguments for a CLI: TypeScript sources through tsx. */
const nodeArgs = (bin: string, args: string[]) => [...(bin.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), bin, ...args];

export interface Cli {
  child: ChildProcess;
  ready: any;
  stderr: string[];
  exited: Promise<number | null>;
}

/** Starts a CLI and resolves with its JSON ready line (rejects if it exits first). */
export function startCli(bin: string, args: string[], env: Record<string, string>, cwd: string): Promise<Cli> {
  const child = spawn(process.execPath, nodeArgs(bin, args), { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter(Boolean)));
  return new Promise((resolveReady, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const line of out.split('\n').slice(0, -1)) {
        try {
          const data = JSON.parse(line);
          if (data.event === 'ready') resolveReady({ child, ready: data, stderr, exited });
        } catch {
          // not JSON
        }
      }
    });
    void exited.then((code) => reject(new Error(`${basename(bin)} exited with ${code}:\n${stderr.join('\n')}`)));
  });
}

/** Runs a CLI to its end: exit code, stdout and stderr. */
export function runCli(bin: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, nodeArgs(bin, args), { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** The environment of a relay CLI pointed at a local service, dev identity, any free port. */
export function relayEnv(service: { baseUrl: string; uploadUrl: string; playerUrl: string; apiKey: string }, extra: Record<string, string> = {}) {
  return {
    SVC_API_KEY: service.apiKey,
    SVC_BASE_URL: service.baseUrl,
    SVC_UPLOAD_URL: service.uploadUrl,
    SVC_PLAYER_URL: service.playerUrl,
    SVC_AUTH: 'dev',
    SVC_RELAY_PORT: '0',
    SVC_ENV_FILE: '/nonexistent/.env',
    ...extra,
  };
}

/**
 * A checkout as `git clone` + `npm install` leaves it: bin/, scripts/, src/, package.json and
 * node_modules (linked), and no dist/. Removed with `rmSync(dir, {recursive: true})`; the links go, not their targets.
 */
export function checkoutWithoutDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checkout-'));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  for (const name of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(join(ROOT, name), join(dir, name));
  return dir;
}
