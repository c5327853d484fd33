// Helpers of the end-to-end test: `npm start`'s process (scripts/start.ts) on free ports in its own
// process group, and the installed Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Demo {
  process: ChildProcess;
  /** The one URL `npm start` printed, e.g. http://127.0.0.1:40123/ */
  url: string;
  /** Everything the process wrote, for failure messages. */
  output(): string;
}

/** Starts scripts/start.ts as `npm start` does, every port free, data in a temporary folder; `args` and `env` add flags and variables. */
export function startDemo(args: string[] = [], env: Record<string, string> = {}): Promise<Demo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const ports = ['--port', '--relay-port', '--api-port', '--upload-port', '--player-port'].flatMap((flag) => [flag, '0']);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.ts', ...ports, '--data-dir', dataDir, '--processing-ms', '400', ...args],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let log = '';
  const output = () => log;
  return new Promise((resolve, reject) => {
    // It may build the script-tag bundle first; on a busy machine that takes a while, not forever.
    const timer = setTimeout(() => {
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`npm start printed no URL within 3 minutes:\n${log}`));
    }, 180_000).unref();
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /^svc-elements demo: (http:\/\/\S+)$/m.exec(log);
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (more: Buffer) => (log += more.toString()));
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', (code, signal) => reject(new Error(`npm start exited (${code ?? signal}) before printing its URL:\n${log}`)));
  });
}

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check()` holds, polling; false when it still does not after `ms`. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** The installed Chromium with the project's flags (test/support/chromium.ts). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

export interface Recorder {
  consoleErrors: string[];
  /** Every console message, of any type. */
  consoleMessages: string[];
  /** Events of the elements, in order, with their detail (as far as it can be cloned). */
  events(): Promise<{ type: string; detail: unknown }[]>;
  violations(): Promise<{ directive: string; blocked: string; sample: string }[]>;
}

const RECORDED = [
  'svc-upload-ready',
  'svc-channel-create',
  'svc-playlist-create',
  'svc-playlist-load',
  'svc-playlist-save',
  'svc-player-ready',
  'svc-error',
];

/** Records console errors, uncaught exceptions, CSP violations and the elements' events of `page`. */
export async function record(page: Page): Promise<Recorder> {
  const consoleErrors: string[] = [];
  const consoleMessages: string[] = [];
  // Generous waits: the machine running the tests may be busy.
  page.setDefaultTimeout(60_000);
  page.on('console', (message) => {
    consoleMessages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  await page.addInitScript((types: string[]) => {
    const w = window as unknown as { __svcEvents: unknown[]; __violations: unknown[] };
    w.__svcEvents = [];
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__violations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
    });
    for (const type of types) {
      document.addEventListener(type, (event) => {
        const detail = (event as CustomEvent).detail as Record<string, unknown> | null;
        // Keep what can be cloned (svc-player-ready carries the injected element).
        const plain = detail && typeof detail === 'object'
          ? Object.fromEntries(Object.entries(detail).filter(([, value]) => !(value instanceof Node)))
          : detail;
        w.__svcEvents.push({ type, detail: JSON.parse(JSON.stringify(plain ?? null)) });
      });
    }
  }, RECORDED);
  return {
    consoleErrors,
    consoleMessages,
    events: () => page.evaluate(() => (window as unknown as { __svcEvents: { type: string; detail: unknown }[] }).__svcEvents),
    violations: () =>
      page.evaluate(
        () => (window as unknown as { __violations: { directive: string; blocked: string; sample: string }[] }).__violations,
      ),
  };
}

/** Waits for the `index`-th (0-based, counted since the page loaded) recorded event of `type`; returns its detail. */
export async function waitForEvent<T = Record<string, unknown>>(page: Page, type: string, index = 0): Promise<T> {
  const handle = await page.waitForFunction(
    ([name, nth]) => {
      const events = (window as unknown as { __svcEvents: { type: string; detail: unknown }[] }).__svcEvents;
      const errors = events.filter((event) => event.type === 'svc-error');
      if (errors.length && name !== 'svc-error') return { error: errors[0]!.detail };
      return events.filter((event) => event.type === name)[nth as number] ?? false;
    },
    [type, index] as const,
    { timeout: 60_000 },
  );
  const found = (await handle.jsonValue()) as { detail?: T; error?: unknown };
  if ('error' in found) throw new Error(`an element fired svc-error while waiting for ${type}: ${JSON.stringify(found.error)}`);
  return found.detail as T;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2 A/AA and best-practice violations on `page`, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}
