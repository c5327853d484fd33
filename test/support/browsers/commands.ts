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
