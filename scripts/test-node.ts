// Runs node's test runner (through tsx) on every *.test.ts under test/, except the browser
// tests (*.browser.test.ts, run by web-test-runner). Node 20's --test takes no globs, hence this.
// Prints the results only (scripts/test-reporter.mjs): what the tests and their servers write goes
// to test-results/node.log, and is shown for the files with a failing test. Every test has a
// deadline, SVC_TEST_TIMEOUT_MS (default 120 s) unless it or its suite sets its own, so a test that
// stalls fails by name and the run goes on (scripts/test-deadlines.mjs); every file one of
// SVC_TEST_FILE_TIMEOUT_MS (default 20 min).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_URL, SKIP_LINE, serverBinaries, startCluster } from '../test/support/postgres.js';

function find(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') && !name.endsWith('.browser.test.ts') ? [path] : [];
  });
}

/** A positive whole number of ms from a variable, or undefined. */
function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap((root) =>
  statSync(root).isDirectory() ? find(root) : [root],
);
if (!files.length) {
  console.error('no node test files found under', roots.join(' ') || 'test');
  process.exit(1);
}
// One throwaway PostgreSQL cluster for the whole run: the relay tests run against it as well as SQLite.
const bin = serverBinaries();
if (!bin) console.log(SKIP_LINE);
const cluster = bin ? await startCluster(bin) : undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (cluster?.stop(), process.exit(1)));
const result = spawnSync(
  process.execPath,
  [
    '--expose-internals',
    '--import',
    'tsx',
    '--import',
    new URL('./test-deadlines.mjs', import.meta.url).href,
    '--test',
    // Node 20's --test-timeout bounds each file as a whole: a file whose stalled test left a timer
    // or socket open is ended after this, its stalled test already failed by name.
    `--test-timeout=${positive(process.env.SVC_TEST_FILE_TIMEOUT_MS) ?? 20 * 60_000}`,
    '--test-concurrency=1',
    `--test-reporter=${new URL('./test-reporter.mjs', import.meta.url).href}`,
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, [ENV_URL]: cluster?.url ?? 'skip' } },
);
cluster?.stop();
process.exit(result.status ?? 1);
