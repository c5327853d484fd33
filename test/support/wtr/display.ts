// A test command for how the page is displayed, in Chromium: forced colors (Windows High
// Contrast) and the colour scheme, through the DevTools protocol's Emulation.setEmulatedMedia
// (web-test-runner's emulateMedia does not pass forced-colors to puppeteer):
// `executeServerCommand('svc-display', {forcedColors: 'active' | 'none', colorScheme: 'light' | 'dark'})`
// → true; false in the other engines, whose drivers cannot emulate it. `{}` restores both.
import type { TestRunnerPlugin } from '@web/test-runner-core';

export const DISPLAY = 'svc-display';

/** The slice of puppeteer's Page and CDP session this command uses. */
interface PuppeteerPage {
  createCDPSession(): Promise<{ send(method: 'Emulation.setEmulatedMedia', params: { features: { name: string; value: string }[] }): Promise<unknown> }>;
}

type CdpSession = Awaited<ReturnType<PuppeteerPage['createCDPSession']>>;
const sessions = new WeakMap<PuppeteerPage, Promise<CdpSession>>();

export const plugins: TestRunnerPlugin[] = [
  {
    name: DISPLAY,
    async executeCommand({ command, payload, session }) {
      if (command !== DISPLAY) return undefined;
      if (session.browser.name !== 'Chromium') return false;
      const { forcedColors = '', colorScheme = '' } = (payload ?? {}) as { forcedColors?: string; colorScheme?: string };
      const page = (session.browser as unknown as { getPage(id: string): PuppeteerPage }).getPage(session.id);
      // One DevTools session per page: an emulation belongs to the session that set it, so `{}`
      // must go through the same one to restore the page (else it leaks into the next test file).
      let cdp = sessions.get(page);
      if (!cdp) sessions.set(page, (cdp = page.createCDPSession()));
      await (await cdp).send('Emulation.setEmulatedMedia', {
        features: [
          { name: 'forced-colors', value: forcedColors },
          { name: 'prefers-color-scheme', value: colorScheme },
        ],
      });
      return true;
    },
  },
];
