// A test command every engine's driver can carry out: a key pressed with a modifier held
// (`executeServerCommand('svc-key-chord', {modifier: 'Alt', key: 'ArrowDown'})`). web-test-runner's
// sendKeys cannot hold a key down through WebDriver classic (WebKit), which this needs.
import type { TestRunnerPlugin } from '@web/test-runner-core';
import { WebdriverLauncher } from '@web/test-runner-webdriver';

export const KEY_CHORD = 'svc-key-chord';

interface Chord {
  modifier: 'Alt' | 'Control' | 'Shift' | 'Meta';
  key: string;
}

/** The slice of puppeteer's Page this command uses (Chromium and Firefox are driven by puppeteer). */
interface PuppeteerPage {
  keyboard: { down(key: string): Promise<void>; press(key: string): Promise<void>; up(key: string): Promise<void> };
}

export const keyChordPlugin: TestRunnerPlugin = {
  name: 'svc-key-chord',
  async executeCommand({ command, payload, session }) {
    if (command !== KEY_CHORD) return undefined;
    const { modifier, key } = payload as Chord;
    if (session.browser.type === 'puppeteer') {
      const page = (session.browser as unknown as { getPage(id: string): PuppeteerPage }).getPage(session.id);
      await page.keyboard.down(modifier);
      try {
        await page.keyboard.press(key);
      } finally {
        await page.keyboard.up(modifier);
      }
      return true;
    }
    if (session.browser instanceof WebdriverLauncher) {
      // One keys() call: every key goes down in order, then all come up.
      await WebdriverLauncher.prototype.sendKeys.call(session.browser, session.id, [modifier, key]);
      return true;
    }
    throw new Error(`${KEY_CHORD} is not supported for ${session.browser.type} browsers.`);
  },
};

export const SCREENSHOT = 'svc-screenshot';

/** The slice of puppeteer's Page the screenshot uses. */
interface PuppeteerScreenshotPage {
  $(selector: string): Promise<{ screenshot(options: { encoding: 'base64' }): Promise<string> } | null>;
}

/**
 * A PNG of one light-DOM element as the engine painted it
 * (`executeServerCommand('svc-screenshot', {selector})` → `{png: base64, viewport}`; with
 * `viewport: true` the PNG is the whole viewport and the page crops the element), for checks on
 * pixels rather than on the DOM (e.g. that right-to-left text is really drawn on the right).
 */
export const screenshotPlugin: TestRunnerPlugin = {
  name: SCREENSHOT,
  async executeCommand({ command, payload, session }) {
    if (command !== SCREENSHOT) return undefined;
    const { selector } = payload as { selector: string };
    if (session.browser.type === 'puppeteer') {
      const page = (session.browser as unknown as { getPage(id: string): PuppeteerScreenshotPage }).getPage(session.id);
      const element = await page.$(selector);
      if (!element) throw new Error(`${SCREENSHOT}: nothing matches ${selector}`);
      return { png: await element.screenshot({ encoding: 'base64' }), viewport: false };
    }
    if (session.browser instanceof WebdriverLauncher) {
      // WebKitWebDriver's element screenshots come out black under Xvfb; its viewport ones are
      // right, so the page crops the element out of the viewport (`viewport: true`).
      const driver = (session.browser as unknown as { driver?: { takeScreenshot(): Promise<string> } }).driver;
      if (!driver) throw new Error(`${SCREENSHOT}: the WebDriver session is not started`);
      return { png: await driver.takeScreenshot(), viewport: true };
    }
    throw new Error(`${SCREENSHOT} is not supported for ${session.browser.type} browsers.`);
  },
};
