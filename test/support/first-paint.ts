// What a page's first paint downloads of an element bundled by esbuild with code splitting (as a
// user's `--bundle --splitting --format=esm --minify`): the entry and every chunk it imports
// statically, transitively; the chunks behind `import()` are the lazy ones.
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);

export interface FirstPaint {
  /** The source files (relative to the repository) in the first paint's chunks. */
  eagerInputs: string[];
  /** The source files in the lazy chunks. */
  lazyInputs: string[];
  /** The first paint's chunks, minified, concatenated. */
  eagerBytes: Buffer;
  eagerChunks: number;
}

/** Bundles `entry` (e.g. `src/elements/svc-player/define.ts`) and splits its output into first paint and lazy chunks. */
export async function firstPaint(entry: string): Promise<FirstPaint> {
  const result = await build({
    absWorkingDir: root.pathname,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    target: 'es2022',
    outdir: 'out',
    write: false,
    metafile: true,
    tsconfig: 'tsconfig.json',
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  // Lazy chunks (import()) are entry points too: the page's is the one built from `entry`.
  const eager = new Set<string>();
  const visit = (path: string) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint === entry)!);
  const inputs = (paths: Iterable<string>) => [...paths].flatMap((path) => Object.keys(outputs[path]!.inputs));
  return {
    eagerInputs: inputs(eager),
    lazyInputs: inputs(Object.keys(outputs).filter((path) => !eager.has(path))),
    eagerBytes: Buffer.concat(result.outputFiles.filter((file) => [...eager].some((path) => file.path.endsWith(path))).map((file) => file.contents)),
    eagerChunks: eager.size,
  };
}
