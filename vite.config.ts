// Vite has two jobs here:
// * `vite` / `npm start`: serves demo/ in development (scripts/start.ts adds the /svc proxy to the
//   relay and the CSP page);
// * `vite build --mode bundle` (run by `npm run build` and by `npm start` when it is missing): the
//   script-tag build, one folder dist/cdn/ that the relay serves under `<base path>/` and that any
//   static host or CDN can serve as it is. Its entry elements.js (src/elements/loader.ts) is a small
//   loader that imports each element's code when its tag first appears; every other file is
//   content-hashed (`<name>-<hash>.js`) and imported relative to the loader's URL. Each file is
//   precompressed beside itself (`.br`, `.gz`), and manifest.json lists the servable files: the
//   relay serves those names and nothing else (src/relay/routes/public.ts). The build is made in
//   dist/.cdn-next/ and moved into dist/cdn/ beside the previous build, which stays (see `precompress`).
// The tree-shakable ESM per element and the type declarations come from tsc (tsconfig.build.json).
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, transformWithEsbuild, type Plugin } from 'vite';
import { ENTRY, playerAhead, publish, writeManifest } from './scripts/cdn-manifest.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Lit's documented TypeScript setup: esbuild must see the legacy decorator settings. */
export const esbuild = {
  target: 'es2022',
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
};

/** Vite keeps whitespace in ES library output; the script-tag bundle is for browsers only, so minify it fully. */
export const minifyBundle: Plugin = {
  name: 'svc-minify-bundle',
  async generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const result = await transformWithEsbuild(chunk.code, chunk.fileName, { minify: true, target: 'es2022' });
      chunk.code = result.code;
    }
  },
};

/**
 * The play button as loader-preview.ts takes it: facade.ts without its `localize` re-export, which
 * would bring the strings module (and its controller) to a page of click-to-load players before any
 * click. The element's own import of facade.ts keeps it; the button's code is then in two files.
 */
const facadeButton: Plugin = {
  name: 'svc-facade-button',
  enforce: 'pre',
  resolveId(source, importer) {
    // Its static import: the button alone.
    if (source === './svc-player/facade.js' && importer?.endsWith('/src/elements/loader-preview.ts')) return `${root}src/elements/svc-player/facade.ts?button`;
    return undefined;
  },
  load(id) {
    if (!id.endsWith('/facade.ts?button')) return undefined;
    const code = readFileSync(id.slice(0, -'?button'.length), 'utf8');
    const button = code.replace("export { localize } from './localize.js';\n", '');
    if (button === code) this.error('src/elements/svc-player/facade.ts no longer re-exports localize as vite.config.ts expects');
    return button;
  },
};

/**
 * The script-tag build's shared files, by name, with the modules each holds (the first match wins;
 * Rollup adds what only they import). What a viewer's click waits for is the player's code, and a
 * browser fetches at most six files at a time from one origin over HTTP/1.1, each with a cost of
 * its own, and takes each in only between the page's tasks: after the click a click-to-load player
 * takes three files (core, load, locale), where it took thirteen (`npm run bench`, group 9: click
 * to ready 188 ms before; four files, 95 to 184 ms in later runs; three, with the others' renders
 * put off, svc-player/script-tag.ts, 1.4 to 1.6 times the single bundle's time in the same run).
 * - core: Lit's core, @lit/task and the element kernel, what every element stands on, with the
 *   player's class (the element most pages have; about 2 KB for the others to carry; the loader
 *   registers it through svc-player/script-tag.ts, src/elements/loader.ts) and its two chunks
 *   (svc-player/parts.ts, which the channel setup also imports).
 * - svc-player.styles: the player's styles (plain text, no Lit) and first strings, which a page of
 *   click-to-load players takes before any click, and the one chunk loader (shared/chunk.ts),
 *   which the player and the languages (shared/strings.ts, locale.ts) load through.
 * - locale: which language an element speaks (shared/locale.ts), which a page of click-to-load
 *   players in another language than English takes before any click, with its play button's two
 *   strings in that language.
 * - facade: the player's play button, which every click-to-load player of the page shows once the
 *   tag is defined (it needs the strings, in the load file).
 * - load: the player's load (its builder, its media bridge, the entity decoder of embed codes,
 *   shared/entities.ts, which the channel setup takes from this file for its panel), with the relay
 *   client and the player's two requests, the strings and the parts' seam (the port, the parts'
 *   styles): a clicked player needs all of them at once, and as three files they came in later
 *   during a click. The other elements need the client and the strings for their first paint, so
 *   an uploader alone downloads the player's load too (about 4 KB), and this file failing to
 *   download is the failure of every element but a player still showing its play button. `he` is
 *   a file of its own, which only a code with references other than the service's five needs.
 * - relay-url: the relay's address and origins, the requests sent ahead (core/fetch-ahead.ts) and
 *   the service's names (kinds, variants), which the play button needs before any click: a press
 *   sends the player's two requests with these alone.
 */
const SHARED_FILES: [string, RegExp][] = [
  ['core', /\/node_modules\/(lit-html\/lit-html|lit-element\/lit-element|@lit\/reactive-element\/(reactive-element|css-tag|decorators\/[\w-]+)|@lit\/task\/[\w-]+)\.js$|\/src\/elements\/shared\/(svc-element-core|events)\.ts$|\/src\/elements\/svc-player\/(svc-player|parts|script-tag)\.ts$/],
  ['svc-player.styles', /\/src\/elements\/svc-player\/(svc-player\.styles|first-strings|later-strings)\.ts$|\/src\/elements\/shared\/chunk\.ts$/],
  ['locale', /\/src\/elements\/shared\/locale\.ts$/],
  ['facade', /\/src\/elements\/svc-player\/facade\.ts$/],
  ['load', /\/src\/elements\/svc-player\/(load|build|ratio|media-bridge|requests|localize)\.ts$|\/src\/core\/(embed-code|errors|wire|relay-client|narrow-origins)\.ts$|\/src\/elements\/shared\/(entities|client|strings|port|focus|part-styles)\.ts$/],
  ['relay-url', /\/src\/core\/(relay-url|fetch-ahead)\.ts$|\/src\/service\/types\.ts$/],
];

/** The script-tag build's folder (its entry elements.js is the loader, src/elements/loader.ts). */
export const cdnDir = `${root}dist/cdn`;
/**
 * Where Vite writes a build before it is published into dist/cdn/: dist/cdn/ is never emptied, a
 * relay may be serving it (and pages importing the files of the build before).
 */
const stagingDir = `${root}dist/.cdn-next`;

/**
 * Precompresses the build's files and lists them in manifest.json, then moves them into dist/cdn/
 * beside the build there (scripts/cdn-manifest.ts). A build given another `outDir` stays there.
 */
const precompress: Plugin = {
  name: 'svc-precompress',
  writeBundle(options, bundle) {
    writeManifest(options.dir!, Object.keys(bundle).filter((name) => name.endsWith('.js')));
    if (resolve(options.dir!) === resolve(stagingDir)) {
      mkdirSync(cdnDir, { recursive: true });
      publish(stagingDir, cdnDir);
    }
  },
};

export default defineConfig(({ mode }) =>
  mode === 'bundle'
    ? {
        root,
        publicDir: false,
        esbuild,
        plugins: [facadeButton, playerAhead(), minifyBundle, precompress],
        logLevel: 'warn',
        build: {
          outDir: stagingDir,
          emptyOutDir: true,
          target: 'es2022',
          minify: 'esbuild',
          lib: {
            entry: `${root}src/elements/loader.ts`,
            formats: ['es'],
            fileName: () => ENTRY,
          },
          rollupOptions: {
            output: {
              manualChunks: (id) => SHARED_FILES.find(([, holds]) => holds.test(id))?.[0],
              // `<what>-<hash>.js`: an element's define module is named after the element. Six
              // characters of hash (36 bits) tell a build's files apart and each release's from the
              // last; every name the 5 KB page carries is two bytes shorter than with Rollup's eight.
              chunkFileNames: (chunk) => {
                const element = /\/src\/elements\/(svc-[\w-]+)\/define\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
                return `${element ?? chunk.name}-[hash:6].js`;
              },
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
        // Pre-bundle every package the elements import, the lazily loaded ones too (the loader
        // imports each element on sight, each element its parts): a package Vite discovers while a
        // page runs makes it re-optimize and reload that page, losing what the visitor was doing
        // (a file being uploaded). test/e2e/demo.test.ts runs on a fresh cache in CI.
        optimizeDeps: {
          include: [
            'lit',
            'lit/decorators.js',
            'lit/directives/guard.js',
            'lit/directives/if-defined.js',
            'lit/directives/live.js',
            'lit/directives/repeat.js',
            '@lit/task',
            'he',
            'media-chrome',
          ],
        },
        build: { outDir: `${root}dist/demo`, emptyOutDir: true },
      },
);
