// The last step of the script-tag build (vite.config.ts), also used by tests to make builds: each
// file of dist/cdn/ precompressed beside itself (brotli at its best, gzip at 9), so no request pays
// for compression, then manifest.json, written last: a relay that sees the new manifest finds every
// file it lists (src/relay/built-files.ts serves those names and nothing else).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { MANIFEST, type Manifest } from '../src/relay/built-files.js';

export const ENTRY = 'elements.js';

export function writeManifest(dir: string, names: string[], entry = ENTRY): Manifest {
  const files: Manifest['files'] = {};
  for (const name of [...names].sort()) {
    const body = readFileSync(join(dir, name));
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(join(dir, `${name}.br`), br);
    writeFileSync(join(dir, `${name}.gz`), gz);
    files[name] = { bytes: body.length, sha256: createHash('sha256').update(body).digest('base64url'), br: br.length, gzip: gz.length };
  }
  const manifest: Manifest = { entry, files };
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
