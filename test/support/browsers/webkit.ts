// WebKit for web-test-runner: Debian's WebKitGTK MiniBrowser, driven by WebKitWebDriver (WebDriver
// classic, through @web/test-runner-webdriver) on a private Xvfb display. MiniBrowser has no headless
// mode, so the launcher starts the display and the driver itself and stops both with the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { TestRunnerCoreConfig } from '@web/test-runner-core';
import { WebdriverLauncher } from '@web/test-runner-webdriver';

/** Debian's multiarch directory of this machine (MiniBrowser lives under it). */
const MULTIARCH = ({ x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' } as Record<string, string>)[process.arch] ?? `${process.arch}-linux-gnu`;

export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || `/usr/lib/${MULTIARCH}/webkit2gtk-4.1/MiniBrowser`;
export const WEBKIT_DRIVER = 'WebKitWebDriver';
export const XVFB = 'Xvfb';

/** Starts Xvfb on the first free display and resolves with it (`:N`), read back through -displayfd. */
function startXvfb(): Promise<{ process: ChildProcess; display: string }> {
  return new Promise((resolve, reject) => {
    const xvfb = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let out = '';
    xvfb.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\n')) resolve({ process: xvfb, display: `:${out.trim()}` });
    });
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it gave a display: ${stderr.trim()}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls the driver's /status until it answers ready (it takes a moment to bind its port). */
async function waitForDriver(url: string, driver: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`${WEBKIT_DRIVER} exited (${driver.exitCode})`);
    try {
      const answer = (await (await fetch(`${url}/status`)).json()) as { value?: { ready?: boolean } };
      if (answer.value?.ready) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${WEBKIT_DRIVER} did not answer on ${url} within ${timeoutMs} ms`);
}

function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The session WebKitWebDriver is asked for: MiniBrowser on the private display. */
export const WEBKIT_CAPABILITIES = {
  browserName: 'MiniBrowser',
  // WebKitWebDriver speaks WebDriver classic only; webdriverio would ask for BiDi otherwise.
  'wdio:enforceWebDriverClassic': true,
  'webkitgtk:browserOptions': {
    binary: MINIBROWSER_PATH,
    // MiniBrowser takes WebKitSettings as flags. The clipboard one lets the tests read back what an
    // element copied (as the clipboard permissions do in Chromium); media may play without a
    // gesture, as Chromium's --autoplay-policy flag allows there.
    args: ['--automation', '--javascript-can-access-clipboard=true', '--media-playback-requires-user-gesture=false'],
  },
} as WebdriverIO.Capabilities;

export interface WebKitDriver {
  port: number;
  stop(): Promise<void>;
}

/** Starts a private Xvfb display and WebKitWebDriver on it, on a free loopback port. */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  const { process: xvfb, display } = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: display },
  });
  const stop = async () => {
    await stopProcess(driver);
    await stopProcess(xvfb);
  };
  try {
    await waitForDriver(`http://127.0.0.1:${port}`, driver);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

class WebKitLauncher extends WebdriverLauncher {
  private driver_?: WebKitDriver;

  constructor() {
    super({
      logLevel: 'error',
      hostname: '127.0.0.1',
      port: 0, // set in initialize(), once the driver runs
      capabilities: WEBKIT_CAPABILITIES,
    });
  }

  override async initialize(config: TestRunnerCoreConfig): Promise<void> {
    this.driver_ = await startWebKitDriver();
    (this as unknown as { options: { port: number } }).options.port = this.driver_.port;
    await super.initialize(config);
    this.name = 'WebKit';
  }

  // webdriverio's keys() presses every key of a call before it releases any, so a key repeated in
  // one call is lost (typing 'no such thing' gives 'no suchthing'): one call per key, as typing does.
  override async sendKeys(sessionId: string, keys: string[]): Promise<void> {
    for (const key of keys) await super.sendKeys(sessionId, [key]);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.driver_?.stop();
  }
}

/** What WebKit needs on this machine that is missing (empty when it can run). */
export function webkitMissing(): string[] {
  const onPath = (name: string) =>
    (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/${name}`));
  return [
    ...(existsSync(MINIBROWSER_PATH) ? [] : [MINIBROWSER_PATH]),
    ...(onPath(WEBKIT_DRIVER) ? [] : [WEBKIT_DRIVER]),
    ...(onPath(XVFB) ? [] : [XVFB]),
  ];
}

export function webkitLauncher(): WebdriverLauncher {
  return new WebKitLauncher();
}
