// The player chunk stays small and keeps `he` out: the script-tag bundle's first paint never waits
// for the entity decoder, which loads in its own chunk.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { firstPaint } from '../../support/first-paint.js';

it('bundles <svc-player> with lit under 9 KB min+gzip, with he, the validator, the relay client and the strings in lazy chunks', async () => {
  const { eagerInputs, lazyInputs, eagerBytes: bytes, eagerChunks } = await firstPaint('src/elements/svc-player/define.ts');
  const gzip = gzipSync(bytes).length;
  console.log(`svc-player first-paint chunks (${eagerChunks}): ${bytes.length} B minified, ${gzip} B gzip`);

  assert.ok(eagerInputs.some((input) => input.includes('node_modules/lit-html/')), 'lit is bundled');
  // Also the relay client, the error codes and the strings controller: the player needs them only
  // once it loads (or shows its play button).
  const lazies = ['node_modules/he/', 'src/core/embed-code.ts', 'src/core/relay-client.ts', 'src/core/errors.ts', 'src/elements/shared/strings.ts'];
  for (const lazy of lazies) {
    assert.ok(!eagerInputs.some((input) => input.includes(lazy)), `${lazy} is not in the first paint`);
    assert.ok(lazyInputs.some((input) => input.includes(lazy)), `${lazy} is in a lazy chunk`);
  }
  assert.ok(gzip < 9 * 1024, `entry chunk is ${gzip} B gzip`);
});
