// Under CI every browser engine must run: a missing one, or one left out by SVC_BROWSERS, fails the
// run with its name and what to install, in the harness (web-test-runner and the Node page tests)
// and in .ci/run's check (scripts/engines.ts), which reads the same paths and variables.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `node --import tsx <args>` in the repository with `env` added; the inner test runner's context removed. */
function run(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['NODE_TEST_CONTEXT', 'CI', 'SVC_BROWSERS'].includes(name)));
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...base, NO_COLOR: '1', ...env }, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, out: stdout + stderr }),
    );
  });
}

/** Prints the engines the harness would run (one JSON line), or the error it throws. */
const PROBE = [
  '--eval',
  `import('./test/support/browsers/select.ts').then((m) => console.log(JSON.stringify(m.enginesToRun((line) => console.log('LINE ' + line)))))`,
];

describe('browser engines', { timeout: 120_000 }, () => {
  it('outside CI, a missing engine is skipped with one line naming what is missing', async () => {
    const { code, out } = await run(PROBE, { FIREFOX_PATH: '/nonexistent/firefox' });
    assert.equal(code, 0, out);
    assert.match(out, /LINE Firefox: skipped, not installed \(missing \/nonexistent\/firefox\)/);
    assert.doesNotMatch(out.split('\n').find((line) => line.startsWith('[')) ?? '', /Firefox/);
  });

  it('under CI, a missing engine fails with its name and how to install it', async () => {
    const { code, out } = await run(PROBE, { CI: 'true', FIREFOX_PATH: '/nonexistent/firefox' });
    assert.notEqual(code, 0);
    assert.match(out, /Firefox is required under CI but cannot run here \(missing \/nonexistent\/firefox\): install it with `apt-get install firefox-esr` \(or point FIREFOX_PATH at it\)/);
  });

  it('under CI, SVC_BROWSERS cannot leave an engine out; outside CI it says which it left out', async () => {
    const ci = await run(PROBE, { CI: 'true', SVC_BROWSERS: 'chromium' });
    assert.notEqual(ci.code, 0);
    assert.match(ci.out, /Firefox is left out by SVC_BROWSERS=chromium, but CI tests every engine/);
    const local = await run(PROBE, { SVC_BROWSERS: 'chromium' });
    assert.equal(local.code, 0, local.out);
    assert.match(local.out, /LINE Firefox: left out \(SVC_BROWSERS=chromium\)/);
    assert.match(local.out, /LINE WebKit: left out \(SVC_BROWSERS=chromium\)/);
  });

  it('web-test-runner under CI stops before testing when an engine is missing, naming it', async () => {
    const { code, out } = await run(['node_modules/@web/test-runner/dist/bin.js', '--static-logging'], {
      CI: 'true',
      MINIBROWSER_PATH: '/nonexistent/MiniBrowser',
    });
    assert.notEqual(code, 0);
    assert.match(out, /WebKit is required under CI but cannot run here \(missing \/nonexistent\/MiniBrowser\): install it with `apt-get install webkit2gtk-driver xvfb`/);
  });

  it(".ci/run's check reads the same variables: it names the missing engine and its packages", async () => {
    const check = await run(['scripts/engines.ts'], { CHROME_PATH: '/nonexistent/chromium' });
    assert.equal(check.code, 1);
    assert.match(check.out, /Chromium: missing \/nonexistent\/chromium; install it with `apt-get install chromium`/);
    const apt = await run(['scripts/engines.ts', '--apt'], { CHROME_PATH: '/nonexistent/chromium', FIREFOX_PATH: '/nonexistent/firefox' });
    assert.equal(apt.code, 0);
    assert.equal(apt.out.trim(), 'chromium firefox-esr');
  });
});
