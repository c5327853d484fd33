// Code loaded with import() when first needed: once per page, a failed download forgotten (the
// next need tries again). The seam (LazyPart) reports that failure as network_error:
// test/elements/shared/kernel.browser.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyChunk } from '../../../src/elements/shared/chunk.js';

describe('lazyChunk', () => {
  it('loads once, keeps the module, and shares the load under way', async () => {
    let loads = 0;
    const chunk = lazyChunk(async () => ({ n: ++loads }));
    assert.equal(chunk.value, undefined);
    const [a, b] = await Promise.all([chunk(), chunk()]);
    assert.equal(a, b);
    assert.deepEqual(await chunk(), { n: 1 });
    assert.deepEqual(chunk.value, { n: 1 });
    assert.equal(loads, 1);
  });

  it('rethrows a failed download as it came (the seam reports it as network_error) and tries again next time', async () => {
    let attempts = 0;
    const chunk = lazyChunk(async () => {
      if (++attempts === 1) throw new TypeError('Failed to fetch dynamically imported module: /lazy.js');
      return { ok: true };
    });
    await assert.rejects(chunk(), { name: 'TypeError', message: 'Failed to fetch dynamically imported module: /lazy.js' });
    assert.equal(chunk.value, undefined);
    assert.deepEqual(await chunk(), { ok: true });
    assert.equal(attempts, 2);
  });
});
