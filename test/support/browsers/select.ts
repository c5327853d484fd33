// Which engines a run tests in: every engine, or those named in SVC_BROWSERS (comma-separated, any
// case: `SVC_BROWSERS=firefox,webkit`). Outside CI an engine that is not installed is skipped with
// one line; under CI (CI=true, as .ci/run runs) every engine must run, so a missing one, or one left
// out by SVC_BROWSERS, fails the run with what to install. The one check the web-test-runner
// harness (index.ts), the Node page tests (pages.ts) and .ci/run (scripts/engines.ts) share.
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../chromium.js';
import { firefoxMissing } from './firefox.js';
import { webkitMissing } from './webkit.js';

export type EngineName = 'Chromium' | 'Firefox' | 'WebKit';

export interface EngineNeeds {
  name: EngineName;
  /** What the engine needs on this machine that is missing (paths, commands); empty when it can run. */
  missing(): string[];
  /** Debian packages that supply it. */
  apt: string[];
  /** The variable that points the harness at another binary. */
  variable: string;
}

export const ENGINE_NEEDS: EngineNeeds[] = [
  { name: 'Chromium', missing: () => (existsSync(CHROMIUM_PATH) ? [] : [CHROMIUM_PATH]), apt: ['chromium'], variable: 'CHROME_PATH' },
  { name: 'Firefox', missing: firefoxMissing, apt: ['firefox-esr'], variable: 'FIREFOX_PATH' },
  { name: 'WebKit', missing: webkitMissing, apt: ['webkit2gtk-driver', 'xvfb'], variable: 'MINIBROWSER_PATH' },
];

/** True under CI (CI=true or 1), where every engine must run. */
export const underCi = (): boolean => /^(1|true)$/i.test(process.env.CI ?? '');

/** True when `name` is wanted in this run. */
export function engineWanted(name: string): boolean {
  const wanted = process.env.SVC_BROWSERS?.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
  return !wanted?.length || wanted.includes(name.toLowerCase());
}

/** The one line printed for an engine that cannot run here. */
export function skippedLine(name: string, missing: string[]): string {
  return `${name}: skipped, not installed (missing ${missing.join(', ')})`;
}

/** What to do about a missing engine, in one sentence. */
export function installHint(needs: EngineNeeds): string {
  return `install it with \`apt-get install ${needs.apt.join(' ')}\` (or point ${needs.variable} at it)`;
}

/**
 * The engines to test in, in order. `log` gets one line per engine left out (by SVC_BROWSERS, or
 * not installed). Under CI, leaving an engine out throws instead, naming it and how to install it.
 */
export function enginesToRun(log: (line: string) => void = console.log): EngineName[] {
  const run: EngineName[] = [];
  for (const needs of ENGINE_NEEDS) {
    if (!engineWanted(needs.name)) {
      if (underCi()) throw new Error(`${needs.name} is left out by SVC_BROWSERS=${process.env.SVC_BROWSERS}, but CI tests every engine: unset SVC_BROWSERS.`);
      log(`${needs.name}: left out (SVC_BROWSERS=${process.env.SVC_BROWSERS})`);
      continue;
    }
    const missing = needs.missing();
    if (missing.length) {
      if (underCi()) throw new Error(`${needs.name} is required under CI but cannot run here (missing ${missing.join(', ')}): ${installHint(needs)}.`);
      log(skippedLine(needs.name, missing));
      continue;
    }
    run.push(needs.name);
  }
  return run;
}
