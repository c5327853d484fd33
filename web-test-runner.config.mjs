// Browser tests: every test file in Chromium, Firefox and WebKit (the installed ones, see
// test/support/browsers/), on the bundler path and the script-tag path (below), against the real
// relay and local service. Run through `tsx` (see package.json) so this file can import the
// TypeScript test harness.
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { browserLaunchers } from './test/support/browsers/index.ts';
import { keyChordPlugin, screenshotPlugin } from './test/support/browsers/commands.ts';
import { startStack } from './test/support/servers.ts';
import { buildBundleIfStale } from './scripts/build.ts';
import { stackMiddleware } from './test/support/wtr-stack.ts';

const commonjs = fromRollup(rollupCommonjs);

/** The stack shared by every browser test file; started with the dev server. */
const state = { stack: undefined };

// The relay's JSON log lines go to a file, not between the results. On failure its end is shown,
// then what failed once more, just above the final counts: CI shows the end of the output, where
// the reporter's own account of a failure (printed when its file ended) would be out of sight.
const SERVER_LOG = 'test-results/browser.log';
mkdirSync('test-results', { recursive: true });
const serverLog = createWriteStream(SERVER_LOG);

/** "title > title: message" for every failed test of a session's results. */
function failedTests(suite, path = []) {
  if (!suite) return [];
  const here = suite.name ? [...path, suite.name] : path;
  return [
    ...(suite.tests ?? []).filter((test) => !test.passed && !test.skipped)
      .map((test) => `${[...here, test.name].join(' > ')}: ${test.error ? firstLine(test.error) : 'failed'}`),
    ...(suite.suites ?? []).flatMap((child) => failedTests(child, here)),
  ];
}

/** Every test of a session's results. */
const allTests = (suite) => (suite ? [...(suite.tests ?? []), ...(suite.suites ?? []).flatMap(allTests)] : []);

/** The first line of what an error says, whatever was thrown. */
const firstLine = (error) => String(error?.message ?? error?.name ?? error ?? 'error').split('\n')[0];

const failureSummary = {
  stop({ sessions }) {
    const failed = sessions.filter((session) => !session.passed);
    if (!failed.length) return;
    // A throw here would end the run before the browsers are stopped: this is a report, nothing more.
    try {
      const lines = readFileSync(SERVER_LOG, 'utf8').trimEnd().split('\n');
      const shown = lines.slice(-60);
      console.log(`\nServer log (${SERVER_LOG}), last ${shown.length} of ${lines.length} lines:\n${shown.join('\n')}`);
      console.log('\nFailed:');
      for (const session of failed) {
        const reasons = [...(session.errors ?? []).map(firstLine), ...failedTests(session.testResults)];
        console.log(`  ${session.browser.name}, ${PATHS[session.group.name]}: ${session.testFile}`);
        for (const reason of reasons.length ? reasons : ['no result (see above)']) console.log(`    ${reason}`);
      }
    } catch (error) {
      console.log(`(the failure summary could not be written: ${firstLine(error)})`);
    }
  },
};

// The engines that ran, last in the output (CI shows its end); with the line of each engine left
// out (outside CI only: under CI a missing engine fails the run before it starts, see select.ts).
const engineLines = [];
// Before it, the counts of each engine on each path (a failure's line above names its path too).
const engineSummary = {
  stop({ sessions }) {
    const ran = [...new Set(sessions.map((session) => session.browser.name))];
    for (const engine of ran) {
      for (const [group, path] of Object.entries(PATHS)) {
        const mine = sessions.filter((session) => session.browser.name === engine && session.group.name === group);
        if (!mine.length) continue;
        const tests = mine.flatMap((session) => allTests(session.testResults));
        const count = (which) => tests.filter(which).length;
        const failed = count((test) => !test.passed && !test.skipped);
        const skipped = count((test) => test.skipped);
        console.log(`${engine}, ${path}: ${mine.length} files, ${tests.length - failed - skipped} tests passed, ${failed} failed, ${skipped} skipped`);
      }
    }
    console.log(`\nBrowser engines that ran: ${ran.join(', ') || 'none'}${engineLines.length ? ` (${engineLines.join('; ')})` : ''}`);
  },
};

// Each module in test/support/wtr/ may export `middleware(state)` returning Koa middleware
// (e.g. a page served with a strict CSP) and `plugins` (e.g. test commands); one file per element.
const extra = [];
const extraPlugins = [];
for (const name of readdirSync(new URL('./test/support/wtr/', import.meta.url)).sort()) {
  if (!name.endsWith('.ts')) continue;
  const module = await import(`./test/support/wtr/${name}`);
  if (typeof module.middleware === 'function') extra.push(module.middleware(state));
  if (Array.isArray(module.plugins)) extraPlugins.push(...module.plugins);
}

// The element tests run on two paths: the bundler path (the `default` group: the tests import the
// elements' source define modules) and the script-tag path (the `script-tag` group: the page's import
// map points those imports at test/support/script-tag.ts, which has the built loader
// /svc/elements.js register the tags). These files stay on the bundler path only:
const BUNDLER_ONLY = {
  'test/elements/shared/kernel.browser.test.ts': 'the kernel, parts seam and element classes themselves, imported from src/',
  'test/elements/shared/strings.browser.test.ts': 'string modules imported from src/, no element',
  // (The bench measures what each kind of page downloads on the script-tag path.)
  'test/elements/svc-uploader/lazy.browser.test.ts': 'which source modules load when, by resource timing',
  'test/support/transportable-results.browser.test.ts': 'the test harness, no element',
};
const TEST_FILES = 'test/**/*.browser.test.ts';
const PATHS = { default: 'bundler path', 'script-tag': 'script-tag path' };

// Files named on the command line (`--files`, or bare) narrow only the default group: the script-tag
// group takes them too, read by web-test-runner's own parser and matched by its own globby.
const require = createRequire(import.meta.url);
const { readCliArgs } = require('./node_modules/@web/test-runner/dist/config/readCliArgs.js');
const globby = createRequire(require.resolve('@web/test-runner-core'))('globby');
const scriptTagFiles = globby.sync([...(readCliArgs().files ?? [TEST_FILES]), ...Object.keys(BUNDLER_ONLY).map((file) => `!${file}`)]);

/** The import map of a script-tag page: each element define module → the built loader's tags. */
const TAGS = ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'];
const scriptTagImports = Object.fromEntries([
  ...TAGS.map((tag) => [`/src/elements/${tag}/define.ts`, `/test/support/script-tag.ts?tags=${tag}`]),
  ['/src/elements/define.ts', `/test/support/script-tag.ts?tags=${TAGS.join()}`],
]);

/**
 * On a script-tag page, an svc-* tag registered before test/support/script-tag.ts ran (which sets
 * `svcBuiltLoader`) came from the source: a define module the import map did not catch. The page
 * fails then, rather than test the source under the script-tag path's name.
 */
const sourceGuard = `<script>{
  const define = customElements.define.bind(customElements);
  customElements.define = (tag, ...rest) => {
    if (tag.startsWith('svc-') && !window.svcBuiltLoader) throw new Error(\`<\${tag}> was registered from the source on the script-tag path: its define module was not sent to test/support/script-tag.ts\`);
    return define(tag, ...rest);
  };
}</script>`;

/**
 * The page of each test file; `head` goes before any module. It has no `<head>` tag on purpose:
 * web-test-runner inserts its own inline module scripts (browser logs, config) just after that tag,
 * or after `<body>` when there is none, and Firefox ignores an import map that comes after a module
 * script (Chromium and WebKit still apply it), which sent the script-tag pages there to the source.
 * Without the tag, `head` is parsed into the implied head, ahead of web-test-runner's scripts.
 */
const testPage = (framework, head = '') =>
  `<!DOCTYPE html><html>${head}<body>
      <script type="module" src="/test/support/transportable-results.ts"></script>
      <script type="module" src="${framework}"></script>
    </body></html>`;

const launchers = browserLaunchers((line) => {
  console.log(line);
  engineLines.push(line);
});

export default {
  files: [TEST_FILES],
  // Lit's production build: its "development" export (web-test-runner's default condition) printed
  // "Lit is in dev mode" in every test page.
  nodeResolve: { exportConditions: ['production'] },
  // One test file at a time, one engine after the other: the files share one stack and set its
  // faults and settings, so two running at once would see each other's.
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 600_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 30_000 } },
  // A failed assertion on a DOM element reaches Node as a failure, not as a hang (see the module).
  testRunnerHtml: (framework) => testPage(framework),
  // (None when every file named is bundler-only: a group without files stops the run.)
  groups: scriptTagFiles.length
    ? [
        {
          name: 'script-tag',
          files: scriptTagFiles,
          browsers: launchers,
          testRunnerHtml: (framework) =>
            testPage(framework, `<script type="importmap">${JSON.stringify({ imports: scriptTagImports })}</script>${sourceGuard}`),
        },
      ]
    : [],
  browsers: launchers,
  plugins: [
    {
      name: 'svc-stack',
      async serverStart() {
        // The script-tag path's files (dist/cdn/), which the stack's relay serves at /svc/.
        await buildBundleIfStale();
        state.stack = await startStack({ relay: { logger: (line) => void serverLog.write(`${line}\n`) } });
      },
      async serverStop() {
        await state.stack?.close();
      },
    },
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: new URL('./tsconfig.json', import.meta.url).pathname }),
    commonjs({ include: ['**/node_modules/he/**'], strictRequires: false }),
    keyChordPlugin,
    screenshotPlugin,
    ...extraPlugins,
  ],
  middleware: [...stackMiddleware(state), ...extra],
  reporters: [defaultReporter(), failureSummary, engineSummary],
};
