// The browser engines the tests will launch, checked exactly as the harness checks them
// (test/support/browsers/select.ts: the same paths and variables). For .ci/run:
//   tsx scripts/engines.ts --apt   prints the Debian packages that supply whatever is missing
//   tsx scripts/engines.ts         prints each engine's state; exits 1 naming what is missing
import { ENGINE_NEEDS, installHint } from '../test/support/browsers/select.js';

const missing = ENGINE_NEEDS.map((needs) => ({ needs, missing: needs.missing() })).filter((engine) => engine.missing.length);
if (process.argv.includes('--apt')) {
  console.log([...new Set(missing.flatMap((engine) => engine.needs.apt))].join(' '));
} else {
  for (const { needs, missing: what } of missing) console.log(`${needs.name}: missing ${what.join(', ')}; ${installHint(needs)}`);
  if (!missing.length) console.log(`Browser engines ready: ${ENGINE_NEEDS.map((needs) => needs.name).join(', ')}`);
  process.exitCode = missing.length ? 1 : 0;
}
