// The engines every browser test file runs in: Chromium, Firefox and WebKit, each from the
// distribution's packages. Which of them run is decided in select.ts: outside CI a missing one is
// left out with one line; under CI every engine must run.
import type { BrowserLauncher } from '@web/test-runner-core';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { firefoxLauncher } from './firefox.js';
import { enginesToRun, type EngineName } from './select.js';
import { webkitLauncher } from './webkit.js';

const LAUNCHERS: { name: EngineName; launcher(): BrowserLauncher }[] = [
  {
    name: 'Chromium',
    launcher: () => {
      const launcher = chromeLauncher({
        launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
      });
      launcher.name = 'Chromium';
      return launcher;
    },
  },
  { name: 'Firefox', launcher: firefoxLauncher },
  { name: 'WebKit', launcher: webkitLauncher },
];

/**
 * Launchers for the engines this run tests in (select.ts: the installed ones, limited by
 * `SVC_BROWSERS`; every one under CI). `log` gets one line per engine left out.
 */
export function browserLaunchers(log: (line: string) => void = console.log): BrowserLauncher[] {
  const run = enginesToRun(log);
  if (!run.length) throw new Error('No browser engine to test in: install chromium, firefox-esr or webkit2gtk-driver and xvfb.');
  return LAUNCHERS.filter((engine) => run.includes(engine.name)).map((engine) => engine.launcher());
}
