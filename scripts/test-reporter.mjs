// node:test reporter of `npm test`: the spec reporter's results and failures, without what the test
// files and the servers they start write (relay and local-service JSON log lines). That output goes
// to test-results/node.log, grouped by test file, and the output of each file with a failing test
// is printed after the results. Plain JavaScript: node loads reporters before tsx's hooks.
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec as Spec } from 'node:test/reporters';

/** Where the output goes (SVC_TEST_LOG: another file, e.g. for the test of this reporter). */
export const LOG_PATH = process.env.SVC_TEST_LOG ?? 'test-results/node.log';

/** @param {AsyncIterable<{ type: string, data: { file?: string, message?: string } }>} source */
export default async function* reporter(source) {
  mkdirSync(dirname(LOG_PATH), { recursive: true });
  const log = createWriteStream(LOG_PATH);
  /** @type {Map<string, string[]>} */
  const output = new Map();
  const failed = new Set();
  let logged;

  async function* results() {
    for await (const event of source) {
      const file = relative(process.cwd(), event.data.file ?? '');
      if (event.type === 'test:stdout' || event.type === 'test:stderr') {
        const message = event.data.message ?? '';
        if (file !== logged) log.write(`\n==> ${(logged = file)} <==\n`);
        log.write(message);
        if (!output.has(file)) output.set(file, []);
        output.get(file).push(message);
        continue;
      }
      if (event.type === 'test:fail') failed.add(file);
      yield event;
    }
  }

  // Node 20's spec reporter is a Transform of events into text.
  yield* Readable.from(results()).pipe(new Spec());
  await new Promise((resolve) => log.end(resolve));

  for (const file of failed) {
    const text = output.get(file)?.join('') ?? '';
    if (text) yield `\nOutput of ${file} (it has a failing test):\n${text.endsWith('\n') ? text : `${text}\n`}`;
  }
  yield `\nOutput of the test files and their servers: ${LOG_PATH}\n`;
}
