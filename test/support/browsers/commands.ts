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
 * (`executeServerCommand('svc-screenshot', {selector})`, base64), for checks on pixels rather than
 * on the DOM (e.g. that right-to-left text is really drawn on the right).
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
      return element.screenshot({ encoding: 'base64' });
    }
    if (session.browser instanceof WebdriverLauncher) {
      const locator = `return document.querySelector(${JSON.stringify(selector)});`;
      const png = await session.browser.takeScreenshot(session.id, locator);
      if (!png.length) throw new Error(`${SCREENSHOT}: the driver took no screenshot of ${selector}`);
      return png.toString('base64');
    }
    throw new Error(`${SCREENSHOT} is not supported for ${session.browser.type} browsers.`);
  },
};
