// The uploader's and the channel setup's first paint carries only the strings it may show: the
// rest (later-strings.ts) comes with the lazy part that shows them, as for the player and the
// playlist editor. A static import of strings.ts (every string) by the element would undo that.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { build } from 'esbuild';

const root = new URL('../../', import.meta.url);

for (const tag of ['svc-uploader', 'svc-channel-setup']) {
  it(`<${tag}>: first-strings.ts in the first paint, later-strings.ts only in a lazy chunk`, async () => {
    const entry = `src/elements/${tag}/define.ts`;
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
    // The first paint: the entry and every chunk it imports statically, transitively.
    const eager = new Set<string>();
    const visit = (path: string) => {
      if (eager.has(path)) return;
      eager.add(path);
      for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit(Object.keys(outputs).find((path) => outputs[path]!.entryPoint === entry)!);
    const inputs = (paths: Iterable<string>) => [...paths].flatMap((path) => Object.keys(outputs[path]!.inputs));
    const eagerInputs = inputs(eager);
    const lazyInputs = inputs(Object.keys(outputs).filter((path) => !eager.has(path)));
    assert.ok(eagerInputs.includes(`src/elements/${tag}/first-strings.ts`), 'the first strings are in the first paint');
    assert.ok(!eagerInputs.includes(`src/elements/${tag}/later-strings.ts`), 'the later strings are not');
    assert.ok(lazyInputs.includes(`src/elements/${tag}/later-strings.ts`), 'they are in a lazy chunk');
  });
}
