// The script-tag build (dist/cdn/, made by `vite build --mode bundle`) as the relay serves it:
// only the names its manifest.json lists (a request path never reaches the filesystem), in the
// encoding the client accepts from the copies the build precompressed (`.br`, `.gz`), the entry
// revalidated on every load and the content-hashed files immutable. A new manifest (a new build
// under a running relay) is seen on the next request; the files of the build before that were
// already read stay servable, for pages that loaded its entry just before.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the build writes to manifest.json (vite.config.ts). */
export interface Manifest {
  /** The loader, served at `<base path>/elements.js`. */
  entry: string;
  /** Each servable file by name: its size, a digest of its content, its precompressed sizes. */
  files: Record<string, { bytes: number; sha256: string; br: number; gzip: number }>;
}

export const MANIFEST = 'manifest.json';
export type Encoding = 'br' | 'gzip' | 'identity';
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };
/** A name the build can make: no path, no dot first (so neither `..` nor a hidden file). */
const NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.js$/;

/**
 * The encoding to send, from `Accept-Encoding` (q-values and `*` honoured): brotli, else gzip,
 * else the plain body (also when the header refuses identity: a 406 helps nobody).
 */
export function negotiate(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (name) q.set(name.trim(), weight === undefined ? 1 : Number(weight) || 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((name) => weight(name) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best ?? 'identity';
}

/** One file of a build, its bodies read on first request. */
interface Built {
  name: string;
  sha256: string;
  etag: string;
  bodies: Map<Encoding, Promise<Buffer>>;
}

interface Generation {
  dir: string;
  mtimeMs: number;
  size: number;
  entry: string;
  files: Map<string, Built>;
}

export interface Served {
  body: Buffer;
  encoding: Encoding;
  etag: string;
  entry: boolean;
}

/**
 * The build whose entry is (or whose folder is) `path`: its manifest.json says what is served.
 * `lookup(name)` is undefined for anything else, and while no build is there.
 */
export function builtFiles(path: string) {
  let current: Generation | undefined;
  let previous: Map<string, Built> = new Map();
  let checking: Promise<Generation | undefined> | undefined;

  const read = async (): Promise<Generation | undefined> => {
    const dir = (await stat(path).catch(() => undefined))?.isDirectory() ? path : dirname(path);
    const file = join(dir, MANIFEST);
    const info = await stat(file).catch(() => undefined);
    // No manifest (a build under way empties the folder first): keep serving what was read.
    if (!info?.isFile()) return current;
    if (current && current.dir === dir && current.mtimeMs === info.mtimeMs && current.size === info.size) return current;
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    } catch {
      return current; // written right now: the next request reads it whole
    }
    const files = new Map<string, Built>();
    for (const [name, meta] of Object.entries(manifest.files ?? {})) {
      if (!NAME.test(name) || typeof meta?.sha256 !== 'string') continue;
      const known = current?.files.get(name);
      files.set(name, known?.sha256 === meta.sha256 ? known : { name, sha256: meta.sha256, etag: `"${meta.sha256.slice(0, 27)}"`, bodies: new Map() });
    }
    if (typeof manifest.entry !== 'string' || !files.has(manifest.entry)) return current;
    if (current) previous = new Map([...current.files].filter(([name, built]) => name !== current!.entry && built.bodies.size > 0));
    current = { dir, mtimeMs: info.mtimeMs, size: info.size, entry: manifest.entry, files };
    return current;
  };

  return {
    /** The file `name` (`elements.js`: the entry) in `encoding`; undefined when the build has no such file. */
    async lookup(name: string, encoding: Encoding): Promise<Served | undefined> {
      const generation = await (checking ??= read().finally(() => (checking = undefined)));
      if (!generation) return undefined;
      const entry = name === 'elements.js';
      const built = entry ? generation.files.get(generation.entry) : name !== generation.entry ? (generation.files.get(name) ?? previous.get(name)) : undefined;
      if (!built) return undefined;
      const body = await load(generation.dir, built, encoding);
      if (body) return { body, encoding, etag: built.etag, entry };
      // A precompressed copy missing (a build made without them): the plain file.
      const plain = encoding === 'identity' ? undefined : await load(generation.dir, built, 'identity');
      return plain && { body: plain, encoding: 'identity', etag: built.etag, entry };
    },
  };
}

function load(dir: string, built: Built, encoding: Encoding): Promise<Buffer | undefined> {
  let body = built.bodies.get(encoding);
  if (!body) {
    body = readFile(join(dir, built.name + SUFFIX[encoding]));
    built.bodies.set(encoding, body);
    body.catch(() => built.bodies.delete(encoding));
  }
  return body.catch(() => undefined);
}
