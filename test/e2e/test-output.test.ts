// `npm test` prints the results only: what test files and their servers write (the relay's JSON
// request lines) goes to a log file, and is printed only for a file with a failing test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the node test runner shows results, and server logs only for the failing file', { timeout: 120_000 }, async () => {
  const logPath = join(mkdtempSync(join(tmpdir(), 'svc-test-output-')), 'node.log');
  const files = ['test/e2e/fixtures/quiet-pass.fixture.ts', 'test/e2e/fixtures/loud-fail.fixture.ts'];
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', 'scripts/test-node.ts', ...files], {
      cwd: root,
      // Without NODE_TEST_CONTEXT: the inner runner must report as `npm test` does, not to this one.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_TEST_CONTEXT')), SVC_TEST_LOG: logPath, NO_COLOR: '1' },
    }, (_error, out, err) => resolve({ code: child.exitCode, stdout: out, stderr: err }));
  });
  assert.equal(code, 1, 'a failing test fails the run');
  assert.match(stdout, /✔ fixture: a relay request that passes/);
  assert.match(stdout, /✖ fixture: a relay request that fails[\s\S]*fixture failure/);
  assert.match(stdout, /ℹ pass 1\nℹ fail 1/);
  // The failing file's relay lines are shown after the results; the passing file's are not.
  assert.match(stdout, /Output of test\/e2e\/fixtures\/loud-fail\.fixture\.ts[^\n]*\n\{"time":[^\n]*"path":"\/svc\/healthz"/);
  assert.doesNotMatch(stdout, /"path":"\/svc\/config"/);
  assert.doesNotMatch(stderr, /"event":"request"/);
  const log = readFileSync(logPath, 'utf8');
  assert.match(log, /==> test\/e2e\/fixtures\/quiet-pass\.fixture\.ts <==\n[^\n]*"path":"\/svc\/config"/);
  assert.match(log, /==> test\/e2e\/fixtures\/loud-fail\.fixture\.ts <==\n[^\n]*"path":"\/svc\/healthz"/);
});

test('a test that hangs fails by name within the per-test timeout, and the run goes on', { timeout: 120_000 }, async () => {
  const logPath = join(mkdtempSync(join(tmpdir(), 'svc-test-output-')), 'node.log');
  const started = Date.now();
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', 'scripts/test-node.ts', 'test/e2e/fixtures/hangs.fixture.ts'], {
      cwd: root,
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_TEST_CONTEXT')),
        SVC_TEST_LOG: logPath,
        SVC_TEST_TIMEOUT_MS: '1500',
        // The stalled test keeps a timer: its file is ended by the file deadline, after the test failed by name.
        SVC_TEST_FILE_TIMEOUT_MS: '15000',
        NO_COLOR: '1',
      },
      timeout: 100_000,
    }, (_error, out) => resolve({ code: child.exitCode, stdout: out }));
  });
  assert.equal(code, 1, 'the hanging test fails the run');
  assert.match(stdout, /✖ fixture: a wait that never ends \([\d.]+ms\)\n\s*'test timed out after 1500ms'/);
  assert.match(stdout, /✔ fixture: a test after it still runs/);
  assert.ok(Date.now() - started < 90_000, 'the run ended by itself');
});
