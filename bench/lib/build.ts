// esbuild bundles for the size benchmark and the browser pages: minified, in memory, with the
// project's decorator settings, and with a metafile to attribute bytes to their sources.
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Metafile, type OutputFile } from 'esbuild';
import { root } from './proc.js';

export const tsconfigRaw = { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } };

/** Everything of Lit, so that "own code" excludes it. */
export const litExternal = ['lit', 'lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*', '@lit/*', '@lit-labs/*'];

export const common: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  minify: true,
  write: false,
  metafile: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  tsconfigRaw,
  logLevel: 'silent',
};

export const gzipBytes = (bytes: Uint8Array | string): number => gzipSync(bytes, { level: 9 }).length;

export interface Sized {
  bytes: number;
  minified: number;
  files: string[];
  /** Of a code-split build: the same files gzipped as one (what the split into several files costs is `bytes` minus this). */
  joined?: number;
  /** Largest contributors (bytes in the minified output, before gzip), by package or source folder. */
  attribution: { source: string; bytes: number }[];
}

function attribute(metafile: Metafile, outputs: string[]): Sized['attribution'] {
  const bySource = new Map<string, number>();
  for (const name of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[name]?.inputs ?? {})) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const source = pkg ?? input.replace(/\/[^/]+$/, '/');
      bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
    }
  }
  return [...bySource]
    .map(([source, bytes]) => ({ source, bytes }))
    .filter((a) => a.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 12);
}

/** One self-contained bundle (no splitting); gzip of its single output. */
export async function bundleOne(options: BuildOptions): Promise<Sized> {
  const result = await build({ ...common, outfile: 'out.js', ...options });
  const js = result.outputFiles!.filter((f) => f.path.endsWith('.js'));
  const names = Object.keys(result.metafile!.outputs).filter((n) => n.endsWith('.js'));
  return {
    bytes: js.reduce((sum, f) => sum + gzipBytes(f.contents), 0),
    minified: js.reduce((sum, f) => sum + f.contents.length, 0),
    files: names,
    attribution: attribute(result.metafile!, names),
  };
}

/**
 * A code-split build of one entry: what a page downloads before the entry runs (the entry and the
 * chunks it imports statically) and what it loads later (dynamic imports), each file gzipped on
 * its own as the browser fetches them.
 */
export async function bundleSplit(entry: { name: string; path?: string; contents?: string }, options: BuildOptions = {}) {
  const result = await build({
    ...common,
    ...(entry.contents !== undefined
      ? { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts', sourcefile: `${entry.name}.ts` } }
      : { entryPoints: { [entry.name]: entry.path! } }),
    splitting: true,
    outdir: `${root}bench/tmp/split`,
    chunkNames: 'chunk-[hash]',
    ...options,
  });
  const metafile = result.metafile!;
  const files = new Map<string, OutputFile>();
  for (const file of result.outputFiles!) files.set(file.path.slice(root.length), file);
  // Dynamic imports are entry points too: the entry is the one no other output imports.
  const imported = new Set(Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path)));
  const entryName = Object.keys(metafile.outputs).find((n) => n.endsWith('.js') && metafile.outputs[n]!.entryPoint && !imported.has(n))!;
  const closure = (start: string[], kinds: string[]) => {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length) {
      const name = queue.shift()!;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const imported of metafile.outputs[name]?.imports ?? []) {
        if (kinds.includes(imported.kind) && !imported.external) queue.push(imported.path);
      }
    }
    return seen;
  };
  const eager = closure([entryName], ['import-statement']);
  const all = closure([entryName], ['import-statement', 'dynamic-import']);
  const lazy = [...all].filter((n) => !eager.has(n));
  const size = (names: Iterable<string>): Sized => {
    const list = [...names];
    const outputs = list.map((n) => files.get(n)).filter((f): f is OutputFile => !!f);
    return {
      bytes: outputs.reduce((sum, f) => sum + gzipBytes(f.contents), 0),
      minified: outputs.reduce((sum, f) => sum + f.contents.length, 0),
      joined: gzipBytes(Buffer.concat(outputs.map((f) => f.contents))),
      files: list,
      attribution: attribute(metafile, list),
    };
  };
  return { eager: size(eager), lazy: size(lazy), lazyFiles: lazy };
}

/** An ES module for a benchmark page: `contents` (TypeScript, resolved from the repository root), bundled. */
export async function pageBundle(contents: string, options: BuildOptions = {}): Promise<string> {
  const result = await build({
    ...common,
    metafile: false,
    minify: false,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'bench-page.ts' },
    outfile: 'bench-page.js',
    ...options,
  });
  return result.outputFiles!.find((f) => f.path.endsWith('.js'))!.text;
}

/** Like pageBundle, code-split (dynamic imports become their own files): URL path -> source. */
export async function pageBundleSplit(contents: string, options: BuildOptions = {}): Promise<Record<string, string>> {
  const result = await build({
    ...common,
    metafile: false,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'main.ts' },
    splitting: true,
    entryNames: 'main',
    chunkNames: 'chunk-[hash]',
    outdir: `${root}bench/tmp/page`,
    ...options,
  });
  const files: Record<string, string> = {};
  for (const file of result.outputFiles!) if (file.path.endsWith('.js')) files[`/${file.path.split('/').pop()}`] = file.text;
  return files;
}

/**
 * The same measurement with Vite (Rollup), the other bundler users build with: a code-split
 * production build of `entry` (a file, or module source importing files from the repository root),
 * minified; the eager part is the entry chunk and the chunks it imports statically, each gzipped.
 */
export async function viteSplit(entry: { path?: string; contents?: string }): Promise<{ eager: number; lazy: number; files: string[] }> {
  const { build: viteBuild } = await import('vite');
  const { esbuild } = await import('../../vite.config.js');
  const id = '\0bench-entry';
  const result = await viteBuild({
    configFile: false,
    root,
    logLevel: 'silent',
    esbuild,
    resolve: { conditions: ['module', 'browser', 'production'] },
    plugins: entry.contents
      ? [{ name: 'bench-entry', resolveId: (source: string) => (source === id ? id : undefined), load: (source: string) => (source === id ? entry.contents : undefined) }]
      : [],
    build: {
      write: false,
      target: 'es2022',
      minify: 'esbuild',
      modulePreload: false,
      rollupOptions: { input: entry.contents ? id : `${root}${entry.path}`, preserveEntrySignatures: 'strict' },
    },
  });
  const output = (Array.isArray(result) ? result[0]! : result) as import('vite').Rollup.RollupOutput;
  const chunks = new Map(output.output.filter((o): o is import('vite').Rollup.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  const start = [...chunks.values()].find((c) => c.isEntry)!;
  const eager = new Set<string>();
  const walk = (name: string) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const next of chunks.get(name)?.imports ?? []) walk(next);
  };
  walk(start.fileName);
  const size = (names: string[]) => names.reduce((sum, n) => sum + gzipBytes(chunks.get(n)!.code), 0);
  return { eager: size([...eager]), lazy: size([...chunks.keys()].filter((n) => !eager.has(n))), files: [...eager] };
}
