// The three engines for Node tests that drive whole pages (e.g. a page served with its own CSP
// header, which web-test-runner's pages cannot have): Chromium through playwright-core, Firefox
// through puppeteer-core (WebDriver BiDi), WebKit through webdriverio (WebDriver classic). One small
// interface: open a URL, evaluate a function in it, close it.
import puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
import { launchChromium } from '../chromium.js';
import { FIREFOX_PATH, FIREFOX_PREFS } from './firefox.js';
import { enginesToRun } from './select.js';
import { startWebKitDriver, WEBKIT_CAPABILITIES } from './webkit.js';

export interface EnginePage {
  /** Runs `fn` in the page (serialised, so it sees only its argument) and resolves with its JSON result. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  close(): Promise<void>;
}

export interface Engine {
  name: 'Chromium' | 'Firefox' | 'WebKit';
  open(url: string): Promise<EnginePage>;
  close(): Promise<void>;
}

interface EngineSpec {
  name: Engine['name'];
  launch(): Promise<Engine>;
}

const SPECS: EngineSpec[] = [
  {
    name: 'Chromium',
    async launch() {
      const browser = await launchChromium();
      return {
        name: 'Chromium',
        async open(url) {
          const page = await browser.newPage();
          await page.goto(url);
          return { evaluate: (fn, arg) => page.evaluate(fn as never, arg), close: () => page.close() };
        },
        close: () => browser.close(),
      };
    },
  },
  {
    name: 'Firefox',
    async launch() {
      const browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: FIREFOX_PATH,
        headless: true,
        extraPrefsFirefox: FIREFOX_PREFS,
      });
      return {
        name: 'Firefox',
        async open(url) {
          const page = await browser.newPage();
          await page.goto(url);
          return { evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never, close: () => page.close() };
        },
        close: () => browser.close(),
      };
    },
  },
  {
    name: 'WebKit',
    async launch() {
      const driver = await startWebKitDriver();
      try {
        const session = await remote({
          logLevel: 'error',
          hostname: '127.0.0.1',
          port: driver.port,
          capabilities: WEBKIT_CAPABILITIES,
        });
        // MiniBrowser has one window: a page is a navigation in it.
        return {
          name: 'WebKit',
          async open(url) {
            await session.navigateTo(url);
            return {
              evaluate: (fn, arg) => session.execute(fn as never, arg) as never,
              close: async () => void (await session.navigateTo('about:blank')),
            };
          },
          async close() {
            await session.deleteSession();
            await driver.stop();
          },
        };
      } catch (error) {
        await driver.stop();
        throw error;
      }
    },
  },
];

/** The engines this run tests in (select.ts), each with a launcher; one line for each left out. */
export function installedEngines(): { name: Engine['name']; launch(): Promise<Engine> }[] {
  const run = enginesToRun();
  return SPECS.filter((spec) => run.includes(spec.name));
}

/**
 * Polls `fn` in the page until it returns true (a thrown error ends the wait). `fn` returns a
 * boolean, not a node: drivers serialise a node differently (puppeteer's BiDi gives undefined).
 */
export async function waitInPage<A>(
  page: EnginePage,
  fn: (arg: A) => boolean,
  arg?: A,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${fn.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
