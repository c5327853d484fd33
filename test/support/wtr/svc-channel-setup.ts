// Test command for <svc-channel-setup>: headless Chromium refuses the async Clipboard API unless the
// page's origin holds the clipboard permissions and the page has focus. The browser side calls
// `executeServerCommand('svc-channel-setup-grant-clipboard')` and then reads with
// `navigator.clipboard.readText()`. Firefox under automation lets the page read the clipboard as it
// is (its permissions module knows no clipboard permission); WebKit's MiniBrowser is started with
// the setting that allows it (test/support/browsers/webkit.ts).
import type { TestRunnerPlugin } from '@web/test-runner-core';

export const GRANT_CLIPBOARD = 'svc-channel-setup-grant-clipboard';

/** The slice of puppeteer's Page this command uses (Chromium and Firefox are driven by puppeteer). */
interface PuppeteerPage {
  url(): string;
  bringToFront(): Promise<void>;
  browserContext(): { overridePermissions(origin: string, permissions: string[]): Promise<void> };
}

export const plugins: TestRunnerPlugin[] = [
  {
    name: 'svc-channel-setup-clipboard',
    async executeCommand({ command, session }) {
      if (command !== GRANT_CLIPBOARD) return undefined;
      if (session.browser.type !== 'puppeteer') return true;
      const browser = session.browser as unknown as { getPage(id: string): PuppeteerPage };
      const page = browser.getPage(session.id);
      if (session.browser.name === 'Chromium') {
        const origin = new URL(page.url()).origin;
        await page.browserContext().overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
      }
      await page.bringToFront();
      return true;
    },
  },
];
