// The player chunk stays small and keeps `he` out: the script-tag bundle's first paint never waits
// for the entity decoder, which loads in its own chunk.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = new URL('../../../', import.meta.url);

it('bundles <svc-player> with lit under 9 KB min+gzip, with he, the validator, the relay client and the strings in lazy chunks', async () => {
  const result = await build({
    absWorkingDir: root.pathname,
    entryPoints: ['src/elements/svc-player/define.ts'],
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
  // Lazy chunks (import()) are entry points too: the page's is the one built from define.ts.
  const entryPath = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === 'src/elements/svc-player/define.ts')!;
  // The first paint needs the entry and every chunk it imports statically, transitively.
  const eager = new Set<string>();
  const visit = (path: string) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entryPath);
  const inputs = (paths: Iterable<string>) => [...paths].flatMap((path) => Object.keys(outputs[path]!.inputs));
  const eagerInputs = inputs(eager);
  const lazyInputs = inputs(Object.keys(outputs).filter((path) => !eager.has(path)));
  const bytes = Buffer.concat(
    result.outputFiles.filter((file) => [...eager].some((path) => file.path.endsWith(path))).map((file) => file.contents),
  );
  const gzip = gzipSync(bytes).length;
  console.log(`svc-player first-paint chunks (${eager.size}): ${bytes.length} B minified, ${gzip} B gzip`);

  assert.ok(eagerInputs.some((input) => input.includes('node_modules/lit-html/')), 'lit is bundled');
  // Also the relay client, the error codes and the strings controller: the player needs them only
  // once it loads (or shows its play button).
  const lazies = ['node_modules/he/', 'src/core/embed-code.ts', 'src/core/relay-client.ts', 'src/core/errors.ts', 'src/elements/shared/strings.ts'];
  for (const lazy of lazies) {
    assert.ok(!eagerInputs.some((input) => input.includes(lazy)), `${lazy} is not in the first paint`);
    assert.ok(lazyInputs.some((input) => input.includes(lazy)), `${lazy} is in a lazy chunk`);
  }
  assert.ok(gzip < 9 * 1024, `entry chunk is ${gzip} B gzip`);
});
