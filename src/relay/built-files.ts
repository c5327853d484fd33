// The script-tag build (dist/cdn/, made by `vite build --mode bundle`) as the relay serves it:
// only the names its manifest.json lists (a request path never reaches the filesystem), in the
// encoding the client accepts from the copies the build precompressed (`.br`, `.gz`), the entry
// revalidated on every load and the content-hashed files immutable. A new manifest (a new build
// under a running relay) is seen on the next request: every file it lists is read then, in every
// encoding, and checked against the manifest's digest; the build is adopted only when all match
// (else the one before is still served, and the manifest read again a second later). The files of
// the build before stay servable from memory, in every encoding, for pages that loaded its entry;
// a relay started after a release takes them from the disk, where the release left them
// (manifest.previous.json, scripts/cdn-manifest.ts `publish`), each checked the same way.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip as gunzipCallback } from 'node:zlib';

/** What the build writes to manifest.json (vite.config.ts). */
export interface Manifest {
  /** The loader, served at `<base path>/elements.js`. */
  entry: string;
  /** Each servable file by name: its size, a digest of its content, its precompressed sizes. */
  files: Record<string, { bytes: number; sha256: string; br: number; gzip: number }>;
}

export const MANIFEST = 'manifest.json';
/** Beside the manifest: the content-hashed files of the build before, which a release leaves on the disk. */
export const PREVIOUS = 'manifest.previous.json';
export type Encoding = 'br' | 'gzip' | 'identity';
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };
/** A name the build can make: no path, no dot first (so neither `..` nor a hidden file). */
const NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.js$/;
const brotli = promisify(brotliDecompress);
const gunzip = promisify(gunzipCallback);

/**
 * The encoding to send, from `Accept-Encoding` (q-values and `*` honoured): brotli, else gzip,
 * else the plain body (also when the header refuses identity: a 406 helps nobody).
 */
export function negotiate(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    // A q that is not a number from 0 to 1 refuses the coding rather than granting it.
    const weight = params.map((param) => /^\s*q\s*=(.*)$/i.exec(param)?.[1]?.trim()).find((value) => value !== undefined);
    if (name) q.set(name.trim(), weight === undefined ? 1 : /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(weight) ? Number(weight) : 0);
  }
  // `x-gzip` is gzip (RFC 9110 §8.4.1.3), when gzip itself is not named.
  const weight = (name: string) => q.get(name) ?? (name == 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? 'identity';
}

/** One file of a build: its bodies in every encoding, read and checked when the build was adopted. */
interface Built {
  sha256: string;
  /** Each encoding's ETag: the digest, then `.br` or `.gz` (a character no base64url digest has). */
  etags: Record<Encoding, string>;
  bodies: Record<Encoding, Buffer>;
}

/**
 * Which manifest file a build was read from: a new one (even written with the same size and an
 * mtime kept by `cp -p` or a fixed-timestamp build) has another inode or ctime.
 */
interface Seen {
  dir: string;
  ino: number;
  ctimeMs: number;
  mtimeMs: number;
  size: number;
}

interface Generation extends Seen {
  entry: string;
  files: Map<string, Built>;
}

export interface Served {
  body: Buffer;
  encoding: Encoding;
  /** The tag of this encoding's body. */
  etag: string;
  entry: boolean;
}

/** How long a manifest whose files did not all match is left alone before it is read again. */
const RETRY_MS = 1000;

/**
 * The build whose entry is (or whose folder is) `path`: its manifest.json says what is served.
 * `lookup(name)` is undefined for anything else, and while no build is there. `rejected` is told
 * once per manifest that cannot be adopted (why: a file missing, or not matching the manifest).
 */
export function builtFiles(path: string, rejected: (problem: string) => void = () => {}) {
  let current: Generation | undefined;
  /** The files of the build before `current` (not in `current`), for pages that loaded its entry. */
  let previous = new Map<string, Built>();
  let failed: (Seen & { at: number; problem: string }) | undefined;
  let checking: Promise<Generation | undefined> | undefined;

  const read = async (): Promise<Generation | undefined> => {
    const dir = (await stat(path).catch(() => undefined))?.isDirectory() ? path : dirname(path);
    const file = join(dir, MANIFEST);
    const info = await stat(file).catch(() => undefined);
    // No manifest: keep serving what was read (and no problem with one to tell).
    if (!info?.isFile()) {
      failed = undefined;
      return current;
    }
    const seen: Seen = { dir, ino: info.ino, ctimeMs: info.ctimeMs, mtimeMs: info.mtimeMs, size: info.size };
    const same = (before?: Seen) => !!before && (Object.keys(seen) as (keyof Seen)[]).every((key) => before[key] === seen[key]);
    if (same(current) || (same(failed) && Date.now() - failed!.at < RETRY_MS)) return current;
    const files = await adopt(dir, file, [current?.files, previous]);
    if ('problem' in files) {
      // A build still being written, or broken: the one before stays, the manifest is read again later.
      if (!same(failed)) rejected(files.problem);
      failed = { ...seen, at: Date.now(), problem: files.problem };
      return current;
    }
    failed = undefined;
    // The same build (a manifest touched, or chmod'ed, or the same build published again): the
    // build before stays too.
    const unchanged = (built: Map<string, Built>) => built.size == files.files.size && [...built].every(([name, { sha256 }]) => files.files.get(name)?.sha256 == sha256);
    if (current && current.entry == files.entry && unchanged(current.files)) return (current = { ...current, ...seen });
    // Started after a release: the build before is the one the release left on the disk.
    const before = current ? [...current.files].filter(([name]) => name !== current!.entry) : await readPrevious(dir);
    previous = new Map(before.filter(([name]) => !files.files.has(name)));
    current = { ...seen, ...files };
    return current;
  };

  return {
    /** The folder where the build's manifest.json is looked for. */
    folder: () => (path.endsWith('.js') ? dirname(path) : path),
    /** Why the last manifest read was not adopted; undefined once one is (or while there is none). */
    problem: () => failed?.problem,
    /** The file `name` (`elements.js`: the entry) in `encoding`; undefined when the build has no such file. */
    async lookup(name: string, encoding: Encoding): Promise<Served | undefined> {
      const generation = await (checking ??= read().finally(() => (checking = undefined)));
      if (!generation) return undefined;
      const entry = name === 'elements.js';
      const built = entry ? generation.files.get(generation.entry) : name !== generation.entry ? (generation.files.get(name) ?? previous.get(name)) : undefined;
      return built && { body: built.bodies[encoding], encoding, etag: built.etags[encoding], entry };
    },
  };
}

/**
 * Every file the manifest `file` lists, in every encoding, each checked against its digest (the
 * precompressed copies decompressed and compared); the problem unless all are there and match.
 * Files already checked (`known`, by digest) are not read again.
 */
async function adopt(dir: string, file: string, known: (Map<string, Built> | undefined)[]): Promise<Pick<Generation, 'entry' | 'files'> | { problem: string }> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
  } catch {
    return { problem: `${MANIFEST} cannot be read as JSON` };
  }
  const listed = Object.entries(manifest.files ?? {});
  if (typeof manifest.entry !== 'string' || !listed.some(([name]) => name === manifest.entry)) return { problem: `${MANIFEST} does not list its entry among its files` };
  try {
    const files = await Promise.all(listed.map(async ([name, meta]): Promise<[string, Built]> => [name, await readChecked(dir, name, meta, known)]));
    return { entry: manifest.entry, files: new Map(files) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** The file `name` of `dir` in every encoding, checked against `meta` (or the same file already read, from `known`); throws unless it matches. */
async function readChecked(dir: string, name: string, meta: Manifest['files'][string] | undefined, known: (Map<string, Built> | undefined)[]): Promise<Built> {
  if (!NAME.test(name) || typeof meta?.sha256 !== 'string') throw new Error(`not servable: ${name.slice(0, 100)}`);
  const same = known.map((files) => files?.get(name)).find((built) => built?.sha256 === meta.sha256);
  if (same) return same;
  const [identity, br, gzip] = await Promise.all(
    (['identity', 'br', 'gzip'] as const).map((encoding) =>
      readFile(join(dir, name + SUFFIX[encoding])).catch(() => {
        throw new Error(`missing or unreadable: ${name + SUFFIX[encoding]}`);
      }),
    ),
  );
  const decodes = (decoded: Promise<Buffer>) => decoded.then((body) => body.equals(identity!), () => false);
  const matches = createHash('sha256').update(identity!).digest('base64url') === meta.sha256 && (await decodes(brotli(br!))) && (await decodes(gunzip(gzip!)));
  if (!matches) throw new Error(`does not match the manifest: ${name}`);
  const tag = meta.sha256.slice(0, 27);
  return { sha256: meta.sha256, etags: { identity: `"${tag}"`, br: `"${tag}.br"`, gzip: `"${tag}.gz"` }, bodies: { identity: identity!, br: br!, gzip: gzip! } };
}

/** The files of the build before that `dir` still holds and that match (PREVIOUS); none when it has no such list. */
async function readPrevious(dir: string): Promise<[string, Built][]> {
  let listed: Manifest['files'];
  try {
    listed = (JSON.parse(await readFile(join(dir, PREVIOUS), 'utf8')) as Pick<Manifest, 'files'>).files ?? {};
  } catch {
    return [];
  }
  const read = await Promise.all(Object.entries(listed).map(([name, meta]) => readChecked(dir, name, meta, []).then((built): [string, Built] => [name, built], () => undefined)));
  return read.filter((file) => file !== undefined);
}
