// Code loaded with import() when first needed: once per page, a failed download forgotten (the
// next need tries again) and reported as a network failure, never as a programming error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyChunk } from '../../../src/elements/shared/part.js';

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

  it('reports a failed download as network_error and tries again next time', async () => {
    let attempts = 0;
    const chunk = lazyChunk(async () => {
      if (++attempts === 1) throw new TypeError('Failed to fetch dynamically imported module: /lazy.js');
      return { ok: true };
    });
    await assert.rejects(chunk(), { code: 'network_error' });
    assert.equal(chunk.value, undefined);
    assert.deepEqual(await chunk(), { ok: true });
    assert.equal(attempts, 2);
  });
});
