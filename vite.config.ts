// Vite has two jobs here:
// * `vite` / `npm start`: serves demo/ in development (scripts/start.ts adds the /svc proxy to the
//   relay and the CSP page);
// * `vite build --mode bundle` (run by `npm run build` and by `npm start` when it is missing): the
//   script-tag bundle dist/svc-elements.js that registers every tag. Everything, `he` included,
//   is in that one file but the languages: each is its own file beside it
//   (svc-elements-<locale>-<hash>.js), which the relay serves next to `<base path>/elements.js`
//   (same origin, so no extra CSP source), downloaded only by a page that shows the language.
// The tree-shakable ESM per element and the type declarations come from tsc (tsconfig.build.json).
import { fileURLToPath } from 'node:url';
import { defineConfig, transformWithEsbuild, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Lit's documented TypeScript setup: esbuild must see the legacy decorator settings. */
const esbuild = {
  target: 'es2022',
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
};

/** Vite keeps whitespace in ES library output; the script-tag bundle is for browsers only, so minify it fully. */
const minifyBundle: Plugin = {
  name: 'svc-minify-bundle',
  async generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const result = await transformWithEsbuild(chunk.code, chunk.fileName, { minify: true, target: 'es2022' });
      chunk.code = result.code;
    }
  },
};

export default defineConfig(({ mode }) =>
  mode === 'bundle'
    ? {
        root,
        publicDir: false,
        esbuild,
        plugins: [minifyBundle],
        logLevel: 'warn',
        build: {
          outDir: `${root}dist`,
          emptyOutDir: false,
          target: 'es2022',
          minify: 'esbuild',
          lib: {
            entry: `${root}src/elements/define.ts`,
            formats: ['es'],
            fileName: () => 'svc-elements.js',
          },
          rollupOptions: {
            output: {
              // One file with everything but the languages: each language is its own file beside
              // it (svc-elements-<locale>.js, served by the relay next to elements.js), downloaded
              // only by a page that shows it.
              manualChunks: (id) => (/\/src\/elements\/locales\/[\w-]+\.ts$/.test(id) && !id.endsWith('translation.ts') ? undefined : 'svc-elements'),
              chunkFileNames: 'svc-elements-[name]-[hash].js',
            },
          },
        },
      }
    : {
        root: `${root}demo`,
        esbuild,
        // Lit's production build (its "development" export prints "Lit is in dev mode" on every page).
        resolve: { conditions: ['module', 'browser', 'production'] },
        // No pre-transform of a page's module scripts: a page with the README's script tag
        // (/svc/elements.js, proxied to the relay) made Vite log "Pre-transform error: Failed to
        // load url /svc/elements.js"; each module is still transformed when the browser asks.
        server: { host: '127.0.0.1', preTransformRequests: false },
        // Pre-bundle `he` (loaded lazily by <svc-player>) up front, so its discovery at run time
        // does not make Vite re-optimize and reload the page.
        optimizeDeps: { include: ['lit', 'he'] },
        build: { outDir: `${root}dist/demo`, emptyOutDir: true },
      },
);
