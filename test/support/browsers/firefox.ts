// Firefox for web-test-runner: Debian's firefox-esr, driven over WebDriver BiDi by puppeteer
// (@web/test-runner-puppeteer). Nothing is downloaded: the installed binary is used as it is.
import { existsSync } from 'node:fs';
import type { BrowserLauncher } from '@web/test-runner-core';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/** Preferences for the test profile. */
export const FIREFOX_PREFS: Record<string, unknown> = {
  // Media may play without a user gesture, as Chromium's --autoplay-policy flag allows there.
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
  // The async Clipboard API without a user gesture (Mozilla's own testing switch), as the
  // clipboard permissions granted to Chromium in test/support/wtr/svc-channel-setup.ts.
  'dom.events.testing.asyncClipboard': true,
  // A small socket send buffer, so a slowly read upload is slowed in the page too (Firefox
  // would otherwise hand a few hundred kB to the kernel at once and report them as sent).
  'network.tcp.sendbuffer': 16384,
};

/** What Firefox needs on this machine that is missing (empty when it can run). */
export function firefoxMissing(): string[] {
  return existsSync(FIREFOX_PATH) ? [] : [FIREFOX_PATH];
}

export function firefoxLauncher(): BrowserLauncher {
  return puppeteerLauncher({
    launchOptions: {
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      extraPrefsFirefox: FIREFOX_PREFS,
    },
  });
}
