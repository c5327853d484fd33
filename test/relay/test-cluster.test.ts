// `npm test`'s PostgreSQL: scripts/test-node.ts starts a throwaway cluster for the run, passes it to
// the test files and removes it afterwards; without the server binaries it says so in one line
// and the relay tests run against SQLite alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT, runCli } from '../support/cli.js';
import { SKIP_LINE, serverBinaries } from '../support/postgres.js';

/** A nested `scripts/test-node.ts` run of the fixture; its test output (in its own log file, not this run's) joins stdout. */
async function run(env: Record<string, string> = {}) {
  const log = join(mkdtempSync(join(tmpdir(), 'svc-test-log-')), 'node.log');
  const result = await runCli(join(ROOT, 'node_modules/tsx/dist/cli.mjs'), ['scripts/test-node.ts', 'test/fixtures/store-kinds.ts'], { HOME: tmpdir(), SVC_TEST_LOG: log, ...env }, ROOT);
  return { ...result, stdout: `${result.stdout}\n${readFileSync(log, 'utf8')}` };
}
const clusterDirs = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('svc-pg-'));

describe('the test run\'s PostgreSQL cluster', () => {
  it('prints one clear line and runs SQLite alone when the server binaries are missing', async () => {
    const { code, stdout } = await run({ PG_BIN: '/nonexistent/bin' });
    assert.equal(code, 0, stdout);
    assert.equal(stdout.split('\n').filter((line) => line === SKIP_LINE).length, 1, stdout);
    assert.match(stdout, /stores: sqlite; cluster: skip/);
  });

  it('starts a cluster for the run, runs both stores on it, then stops and removes it', { skip: !serverBinaries() && SKIP_LINE }, async () => {
    // A temporary directory of its own: other runs on the machine make and remove clusters of theirs.
    const tmp = mkdtempSync(join(tmpdir(), 'svc-test-tmp-'));
    chmodSync(tmp, 0o755); // the cluster runs as the postgres user, as the run's own does
    const { code, stdout } = await run({ TMPDIR: tmp });
    assert.equal(code, 0, stdout);
    const url = /stores: sqlite,postgres; cluster: (postgres:\/\/\S+)/.exec(stdout)?.[1];
    assert.ok(url, stdout);
    assert.ok(!stdout.includes(SKIP_LINE));
    assert.deepEqual(clusterDirs(tmp), [], 'its directory is removed');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    await assert.rejects(client.connect(), 'the server is stopped');
  });
});
