// The last steps of the script-tag build (vite.config.ts), also used by tests to make builds:
// * `writeManifest`: each file of a build precompressed beside itself (brotli at its best, gzip at
//   9), so no request pays for compression, then manifest.json, written last;
// * `publish`: a build made in a folder of its own moved into dist/cdn/ beside the build that is
//   there, which a running relay and the pages that loaded it may still be using: the hashed files
//   first, then the entry, then the list of the previous build's hashed files it keeps
//   (manifest.previous.json, for a relay started later), then the manifest, each by rename (nothing
//   is ever half written under its name), and only then the files of older builds are deleted.
// A relay adopts a build only once every file its manifest lists is there and matches its digest
// (src/relay/built-files.ts).
// And `playerAhead`, the Rollup plugin that writes into the click-to-load preview the names of every
// file the player needs once the viewer wants it (src/elements/loader-preview.ts `AHEAD`).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';
import { MANIFEST, PREVIOUS, type Manifest } from '../src/relay/built-files.js';

export const ENTRY = 'elements.js';
/** The copies of each file: the plain one and the precompressed ones. */
const SUFFIXES = ['', '.br', '.gz'];

/** Writes `body` to `path` under a temporary name, then renames it there. */
function replace(path: string, body: Buffer | string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, body);
  renameSync(temporary, path);
}

export function writeManifest(dir: string, names: string[], entry = ENTRY): Manifest {
  const files: Manifest['files'] = {};
  for (const name of [...names].sort()) {
    const body = readFileSync(join(dir, name));
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    replace(join(dir, `${name}.br`), br);
    replace(join(dir, `${name}.gz`), gz);
    files[name] = { bytes: body.length, sha256: createHash('sha256').update(body).digest('base64url'), br: br.length, gzip: gz.length };
  }
  const manifest: Manifest = { entry, files };
  replace(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The manifest `name` (MANIFEST, PREVIOUS) in `dir`, or undefined. */
function manifestIn(dir: string, name = MANIFEST): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * Moves the build of `staging` (written by `writeManifest`) into `dir`; keeps the files of the
 * build that was there (pages that loaded its entry import them), deletes those of older builds.
 */
export function publish(staging: string, dir: string): void {
  const next = manifestIn(staging);
  if (!next) throw new Error(`publish: no ${MANIFEST} in ${staging}`);
  const current = existsSync(dir) ? manifestIn(dir) : undefined;
  const same = (a: Manifest['files'], b: Manifest['files']) => Object.keys(a).length == Object.keys(b).length && Object.entries(a).every(([name, { sha256 }]) => b[name]?.sha256 === sha256);
  // The same build published again (a second `npm run build`): the build before stays the one before it.
  const before = current && current.entry === next.entry && same(current.files, next.files) ? manifestIn(dir, PREVIOUS) : current;
  const names = Object.keys(next.files).sort((a, b) => Number(a === next.entry) - Number(b === next.entry)); // the entry last
  for (const name of names) for (const suffix of SUFFIXES) renameSync(join(staging, name + suffix), join(dir, name + suffix));
  // The hashed files of the build before, which stay: a relay started after this release serves them too.
  const kept = Object.entries(before?.files ?? {}).filter(([name]) => name !== before!.entry && !(name in next.files));
  replace(join(dir, PREVIOUS), `${JSON.stringify({ files: Object.fromEntries(kept) }, null, 2)}\n`);
  renameSync(join(staging, MANIFEST), join(dir, MANIFEST));
  rmSync(staging, { recursive: true, force: true });
  const keep = new Set([...names, ...Object.keys(before?.files ?? {})].flatMap((name) => SUFFIXES.map((suffix) => name + suffix)));
  for (const name of readdirSync(dir)) if (/\.(?:js|br|gz|tmp)$/.test(name) && !keep.has(name)) rmSync(join(dir, name), { force: true });
}

/** What loader-preview.ts says in place of the names until this build writes them. */
export const AHEAD_MARKER = 'svc-player-ahead';
/**
 * The modules the player loads once the viewer wants it, in the order they are asked for (a browser
 * talks HTTP/1.1 to a relay over six connections at most): its code, its load chunk and the
 * requests of its load. (The two requests themselves leave when the viewer presses the button,
 * with none of these: core/fetch-ahead.ts.) Not its own play button (facade.ts): a player clicked
 * before its code came never shows it (loader.ts), one only pointed at imports it once defined,
 * while the preview's button stays. Not `he`: the service's codes need none of it (shared/entities.ts).
 */
const PLAYER_ROOTS = [
  '/src/elements/svc-player/svc-player.ts',
  '/src/elements/svc-player/load.ts',
  '/src/elements/svc-player/requests.ts',
];

/**
 * Writes into the preview of click-to-load players (loader-preview.ts) the file of each module of
 * PLAYER_ROOTS and every file those import statically, all at any depth, except the files the
 * preview came with: `./<file>` names separated by spaces, in place of AHEAD_MARKER, in that order
 * (each module's file before those it imports). On the viewer's intent the preview imports them all
 * at once, so the player's code arrives in one round trip instead of one per level of its import
 * graph. The names are written with Rollup's hash placeholders, so the preview's own hash follows
 * theirs.
 */
export function playerAhead(): Plugin {
  return {
    name: 'svc-player-ahead',
    renderChunk(code, chunk, _options, { chunks }) {
      if (!chunk.facadeModuleId?.endsWith('/src/elements/loader-preview.ts')) return null;
      const all = Object.values(chunks);
      /** `names` and every file they import statically, at any depth. */
      const closure = (names: string[], seen = new Set<string>()): Set<string> => {
        for (const name of names) if (!seen.has(name)) closure(chunks[name]?.imports ?? [], seen.add(name));
        return seen;
      };
      const roots = PLAYER_ROOTS.map((id) => {
        const found = all.find((each: Rollup.RenderedChunk) => each.moduleIds.some((module) => module.endsWith(id)));
        if (!found) this.error(`playerAhead: no chunk holds ${id}`);
        return found.fileName;
      });
      const loaded = closure([chunk.fileName]);
      const ahead = [...closure(roots)].filter((name) => !loaded.has(name));
      const marker = new RegExp(`(["'\`])${AHEAD_MARKER}\\1`);
      if (!marker.test(code)) this.error(`playerAhead: ${AHEAD_MARKER} not found in ${chunk.fileName}`);
      return { code: code.replace(marker, JSON.stringify(ahead.map((name) => `./${name}`).join(' '))), map: null };
    },
  };
}
