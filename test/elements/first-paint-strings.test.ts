// The uploader's and the channel setup's first paint carries only the strings it may show: the
// rest (later-strings.ts) comes with the lazy part that shows them, as for the player and the
// playlist editor. A static import of strings.ts (every string) by the element would undo that.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { firstPaint } from '../support/first-paint.js';

for (const tag of ['svc-uploader', 'svc-channel-setup']) {
  it(`<${tag}>: first-strings.ts in the first paint, later-strings.ts only in a lazy chunk`, async () => {
    const { eagerInputs, lazyInputs } = await firstPaint(`src/elements/${tag}/define.ts`);
    assert.ok(eagerInputs.includes(`src/elements/${tag}/first-strings.ts`), 'the first strings are in the first paint');
    assert.ok(!eagerInputs.includes(`src/elements/${tag}/later-strings.ts`), 'the later strings are not');
    assert.ok(lazyInputs.includes(`src/elements/${tag}/later-strings.ts`), 'they are in a lazy chunk');
  });
}
