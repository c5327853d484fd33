// Preloaded into every Node test process by scripts/test-node.ts (with --expose-internals): each test
// and hook gets a deadline, SVC_TEST_TIMEOUT_MS (default 120 s), unless it or a suite around it sets
// a timeout of its own (which node:test then lets it inherit). A test that stalls fails by its own
// name, and the run goes on. Node 20's --test-timeout bounds whole test files instead, so a stalled
// test failed as its file, without its name, and a file's total time was capped. Only the processes
// that run test files are patched, not the runner that spawns them.
import { createRequire } from 'node:module';

const DEFAULT_MS = Number.isInteger(Number(process.env.SVC_TEST_TIMEOUT_MS)) && Number(process.env.SVC_TEST_TIMEOUT_MS) > 0
  ? Number(process.env.SVC_TEST_TIMEOUT_MS)
  : 120_000;

if (process.env.NODE_TEST_CONTEXT?.startsWith('child')) {
  const { Suite, Test } = createRequire(import.meta.url)('internal/test_runner/test');
  // node:test keeps "no timeout" as null or Infinity.
  const unbounded = (timeout) => timeout == null || timeout === Infinity;
  const explicit = (options) => options !== null && typeof options === 'object' && !unbounded(options.timeout);

  const createSubtest = Test.prototype.createSubtest;
  Test.prototype.createSubtest = function (Factory, name, options, fn, overrides) {
    // The argument forms node:test takes: (fn), (options, fn), (name, fn), (name, options, fn).
    if (typeof name === 'function') [fn, options] = [name, undefined];
    else if (name !== null && typeof name === 'object') [fn, options, name] = [options, name, undefined];
    else if (typeof options === 'function') [fn, options] = [options, undefined];
    // A suite's timeout would bound all its tests together: only tests get the default. A parent's
    // `timeout` is unbounded unless it or one of its own parents set one.
    if (Factory !== Suite && unbounded(this.timeout) && !explicit(options)) options = { ...options, timeout: DEFAULT_MS };
    return createSubtest.call(this, Factory, name ?? fn?.name, options, fn, overrides);
  };

  const createHook = Test.prototype.createHook;
  Test.prototype.createHook = function (hookName, fn, options) {
    if (unbounded(this.timeout) && !explicit(options)) options = { ...options, timeout: DEFAULT_MS };
    return createHook.call(this, hookName, fn, options);
  };
}
