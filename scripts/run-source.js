// Runs a CLI's TypeScript source through tsx (a dev dependency), for bin/run.js in a checkout where
// dist/ was never built, so that `npm install` alone is enough there. Not part of the package: an
// installed package always has dist/, and its bins never reach this file.
import { register } from 'tsx/esm/api';

/** @param {URL} compiled the CLI in dist/ that is missing; its source is the same path under src/. */
export async function runSource(compiled) {
  const source = new URL(compiled.href.replace('/dist/', '/src/').replace(/\.js$/, '.ts'));
  register();
  await import(source.href);
}
