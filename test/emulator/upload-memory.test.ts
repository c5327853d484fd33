// Acceptance 4: a 1 GiB upload to the CLI raises its resident memory by less than 64 MB.
// (A bound on memory, not on time; the upload itself takes a few seconds on loopback.)
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { measureUploadMemory } from '../../bench/emulator-upload-memory.js';

it('streams a 1 GiB upload to disk with less than 64 MB of resident memory growth', async () => {
  const result = await measureUploadMemory(1024 ** 3);
  console.log(
    `1 GiB upload: status ${result.status}, VmRSS ${result.baselineRssKb} kB before, peak ${result.peakRssKb} kB, ` +
      `VmHWM ${result.hwmKb} kB, growth ${result.growthMb} MB, ${result.seconds} s`,
  );
  assert.equal(result.status, 201);
  assert.ok(result.etagMatches, 'the stored file has the MD5 of what was sent');
  assert.ok(Number.isFinite(result.growthMb));
  assert.ok(result.growthMb < 64, `resident memory grew by ${result.growthMb} MB`);
});
