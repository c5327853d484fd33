// The engines every browser test file runs in: Chromium, Firefox and WebKit, each from the
// distribution's packages. An engine whose browser is not installed is left out with one line that
// says what is missing (.ci/run installs all three, so CI always runs every engine).
import { existsSync } from 'node:fs';
import type { BrowserLauncher } from '@web/test-runner-core';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { firefoxLauncher, firefoxMissing } from './firefox.js';
import { engineWanted, skippedLine } from './select.js';
import { webkitLauncher, webkitMissing } from './webkit.js';

interface Engine {
  name: string;
  missing(): string[];
  launcher(): BrowserLauncher;
}

const ENGINES: Engine[] = [
  {
    name: 'Chromium',
    missing: () => (existsSync(CHROMIUM_PATH) ? [] : [CHROMIUM_PATH]),
    launcher: () => {
      const launcher = chromeLauncher({
        launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
      });
      launcher.name = 'Chromium';
      return launcher;
    },
  },
  { name: 'Firefox', missing: firefoxMissing, launcher: firefoxLauncher },
  { name: 'WebKit', missing: webkitMissing, launcher: webkitLauncher },
];

/**
 * Launchers for the installed engines, limited to `SVC_BROWSERS` (comma-separated names, any case)
 * when it is set. `log` gets one line per engine that is skipped.
 */
export function browserLaunchers(log: (line: string) => void = console.log): BrowserLauncher[] {
  const launchers: BrowserLauncher[] = [];
  for (const engine of ENGINES) {
    if (!engineWanted(engine.name)) continue;
    const missing = engine.missing();
    if (missing.length) {
      log(skippedLine(engine.name, missing));
      continue;
    }
    launchers.push(engine.launcher());
  }
  if (!launchers.length) throw new Error('No browser engine to test in: install chromium, firefox-esr or webkit2gtk-driver and xvfb.');
  return launchers;
}
