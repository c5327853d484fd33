// 1. Bundle size, minified + gzip (level 9), 1 KB = 1024 bytes. Every bundle is made here from
// the sources (esbuild; the script-tag build with the project's Vite config, as `npm run build`),
// so the figures never depend on a previous build.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOne, bundleSplit, litExternal, viteSplit, type Sized } from './lib/build.js';
import { root } from './lib/proc.js';
import type { Manifest } from '../src/relay/built-files.js';
import { row, unavailable, type BenchContext, type Row } from './lib/report.js';

const G = '1 size';
const KB = 1024;
const kb = (bytes: number) => bytes / KB;
export const ELEMENTS = ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'];
const PLAYER_BUDGET = 9;
const ALL_BUDGET = 25;
const LOADER_BUDGET = 2;

const defineOf = (tag: string) => `src/elements/${tag}/define.ts`;
/** The language modules (src/elements/locales/), as src/elements/shared/strings.ts imports them: loaded only by pages in that language. */
const LOCALES = ['../locales/*'];
const present = (path: string) => existsSync(join(root, path));

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n').slice(0, 2).join(' ').slice(0, 140);

const detail = (s: Sized) => ({ gzip_bytes: s.bytes, joined_gzip_bytes: s.joined, minified_bytes: s.minified, files: s.files, attribution: s.attribution });

export async function run(ctx?: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const lit = await bundleOne({
    stdin: { contents: "export * from 'lit';\nexport * from 'lit/decorators.js';\n", resolveDir: root, loader: 'js' },
  });
  rows.push(row({ group: G, figure: 'lit alone (lit + lit/decorators.js)', value: kb(lit.bytes), unit: 'KB', baseline: null, baselineLabel: '', target: '', met: null, details: detail(lit) }));

  for (const tag of ELEMENTS) {
    if (!present(defineOf(tag))) {
      rows.push(unavailable(G, `${tag} own code (lit, he external)`, '', `${defineOf(tag)} missing`));
      continue;
    }
    const own = await bundleOne({ entryPoints: [defineOf(tag)], external: [...litExternal, 'he', ...LOCALES] });
    rows.push(row({ group: G, figure: `${tag} own code (lit, he and languages external)`, value: kb(own.bytes), unit: 'KB', baseline: kb(lit.bytes), baselineLabel: 'lit alone', target: '', met: null, details: detail(own) }));
  }

  const he = await bundleOne({ stdin: { contents: "export { default } from 'he';\n", resolveDir: root, loader: 'js' } });
  let playerLazy: number | null = null;
  if (present(defineOf('svc-player'))) {
    const player = await bundleSplit({ name: 'svc-player', path: defineOf('svc-player') }, { external: LOCALES });
    const heEager = player.eager.attribution.some((a) => a.source === 'he');
    playerLazy = player.lazy.bytes;
    rows.push(row({
      group: G, figure: 'svc-player before visibility (with lit, without he)', value: kb(player.eager.bytes), unit: 'KB',
      baseline: PLAYER_BUDGET, baselineLabel: 'budget', target: `<= ${PLAYER_BUDGET} KB`,
      met: kb(player.eager.bytes) <= PLAYER_BUDGET && !heEager,
      note: heEager ? 'he is in the eager download: not loaded lazily' : undefined,
      details: { eager: detail(player.eager), lazy: detail(player.lazy) },
    }));
  } else {
    rows.push(unavailable(G, 'svc-player before visibility (with lit, without he)', `<= ${PLAYER_BUDGET} KB`, 'svc-player missing'));
  }
  rows.push(row({
    group: G, figure: "svc-player's lazy chunks (its load; he, for some codes)", value: kb(playerLazy ?? he.bytes), unit: 'KB',
    baseline: kb(lit.bytes), baselineLabel: 'lit alone', target: '', met: null,
    note: playerLazy === null ? 'he bundled alone' : undefined, details: { he_alone: detail(he), player_lazy_gzip_bytes: playerLazy },
  }));

  const tags = ELEMENTS.filter((tag) => present(defineOf(tag)));
  let splitTotal: number | null = null;
  if (tags.length) {
    const all = await bundleSplit({ name: 'all-elements', contents: tags.map((t) => `import './${defineOf(t)}';`).join('\n') });
    const heEager = all.eager.attribution.some((a) => a.source === 'he');
    const missing = ELEMENTS.length - tags.length;
    splitTotal = all.eager.bytes + all.lazy.bytes;
    rows.push(row({
      group: G, figure: `all ${tags.length === 4 ? 'four' : tags.length} elements with lit, without he`, value: kb(all.eager.bytes), unit: 'KB',
      baseline: ALL_BUDGET, baselineLabel: 'budget', target: `<= ${ALL_BUDGET} KB`,
      met: missing ? null : kb(all.eager.bytes) <= ALL_BUDGET && !heEager,
      note: missing
        ? `${missing} element(s) missing`
        : heEager
          ? 'he is in the eager download'
          : `${all.eager.files.length} files; ${kb(all.eager.joined!).toFixed(2)} KB gzipped as one`,
      details: { eager: detail(all.eager), lazy: detail(all.lazy) },
    }));
  } else {
    rows.push(unavailable(G, 'all four elements with lit, without he', `<= ${ALL_BUDGET} KB`, 'no element yet'));
  }

  // The same two budgets built with Vite (Rollup), the other bundler users build with.
  try {
    const player = await viteSplit({ path: defineOf('svc-player') });
    rows.push(row({
      group: G, figure: 'svc-player before visibility, built with Vite (Rollup)', value: kb(player.eager), unit: 'KB',
      baseline: PLAYER_BUDGET, baselineLabel: 'budget', target: `<= ${PLAYER_BUDGET} KB`, met: kb(player.eager) <= PLAYER_BUDGET,
      details: { eager_gzip_bytes: player.eager, lazy_gzip_bytes: player.lazy, files: player.files },
    }));
    const all = await viteSplit({ contents: ELEMENTS.map((tag) => `import '/${defineOf(tag)}';`).join('\n') });
    rows.push(row({
      group: G, figure: 'all four elements, built with Vite (Rollup)', value: kb(all.eager), unit: 'KB',
      baseline: ALL_BUDGET, baselineLabel: 'budget', target: `<= ${ALL_BUDGET} KB`, met: kb(all.eager) <= ALL_BUDGET,
      details: { eager_gzip_bytes: all.eager, lazy_gzip_bytes: all.lazy, files: all.files },
    }));
  } catch (error) {
    ctx?.log(`  vite build of the bundler path failed: ${firstLine(error)}`);
    rows.push(unavailable(G, 'svc-player before visibility, built with Vite (Rollup)', `<= ${PLAYER_BUDGET} KB`, firstLine(error)));
  }

  // The script-tag build exactly as `npm run build` makes dist/cdn/ (Vite, `--mode bundle`), built
  // here into a temporary folder so that it matches the sources: the loader, and every file.
  try {
    const { build } = await import('vite');
    // Outside the repository: a built file under bench/ would be linted and type-checked.
    const outDir = mkdtempSync(join(tmpdir(), 'svc-bench-vite-'));
    try {
      await build({ configFile: join(root, 'vite.config.ts'), mode: 'bundle', logLevel: 'silent', build: { outDir, emptyOutDir: true } });
      const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as Manifest;
      const entry = manifest.files[manifest.entry]!;
      const files = Object.values(manifest.files);
      rows.push(row({
        group: G, figure: 'script-tag loader (dist/cdn/elements.js)', value: kb(entry.gzip), unit: 'KB',
        baseline: LOADER_BUDGET, baselineLabel: 'budget', target: `<= ${LOADER_BUDGET} KB`, met: kb(entry.gzip) <= LOADER_BUDGET,
        note: 'vite build --mode bundle (as npm run build), built here', details: { minified_bytes: entry.bytes, brotli_bytes: entry.br },
      }));
      rows.push(row({
        group: G, figure: `script-tag build, all ${files.length} files (every tag, he, the languages)`, value: kb(files.reduce((sum, f) => sum + f.gzip, 0)), unit: 'KB',
        baseline: splitTotal === null ? null : kb(splitTotal), baselineLabel: 'same code, code-split ESM', target: '', met: null,
        note: 'a page downloads only what its tags use: group 9',
        details: { minified_bytes: files.reduce((sum, f) => sum + f.bytes, 0), brotli_bytes: files.reduce((sum, f) => sum + f.br, 0) },
      }));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  } catch (error) {
    ctx?.log(`  vite build of the script-tag build failed: ${firstLine(error)}`);
    rows.push(unavailable(G, 'script-tag loader (dist/cdn/elements.js)', `<= ${LOADER_BUDGET} KB`, firstLine(error)));
  }
  return rows;
}
