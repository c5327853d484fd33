// The package's public surface: every `exports` entry points at a module the build makes from a
// source that exists and exports what the entry promises, and `sideEffects` names only the modules
// that register tags, so bundlers can drop every element a page does not use.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  main: string;
  types: string;
  exports: Record<string, string | { types: string; default: string }>;
  sideEffects: string[];
  files: string[];
};

/** The TypeScript source tsc compiles to `dist/<path>.js` (tsconfig.build.json: rootDir src, outDir dist). */
function sourceOf(distPath: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(distPath);
  assert.ok(match, `${distPath} is a module of dist/`);
  return `${root}src/${match[1]}.ts`;
}

/** What each entry must export (a module with no side effect of its own, except the define ones). */
const PROMISED: Record<string, string[]> = {
  '.': ['SvcPlayer', 'SvcUploader', 'SvcPlaylistEditor', 'SvcChannelSetup'],
  './define': ['SvcPlayer', 'SvcUploader', 'SvcPlaylistEditor', 'SvcChannelSetup'],
  './svc-player': ['SvcPlayer'],
  './svc-uploader': ['SvcUploader'],
  './svc-playlist-editor': ['SvcPlaylistEditor'],
  './svc-channel-setup': ['SvcChannelSetup'],
  './react': ['SvcPlayer', 'SvcUploader', 'SvcPlaylistEditor', 'SvcChannelSetup'],
  './core': ['RelayClient', 'SvcError', 'parseEmbedCode', 'buildUploadForm', 'readEventStream', 'PlaylistModel'],
  './relay': ['createRelay'],
  './local-service': ['createLocalService'],
};

test('every exports entry is built from an existing source with its types next to it', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') {
      if (target.startsWith('./dist/')) assert.equal(target, './dist/svc-elements.js', `${entry} is the script-tag bundle`);
      else assert.ok(existsSync(`${root}${target}`), `${entry} -> ${target} exists`);
      continue;
    }
    assert.ok(existsSync(sourceOf(target.default)), `${entry}: ${sourceOf(target.default)} exists`);
    assert.equal(target.types, target.default.replace(/\.js$/, '.d.ts'), `${entry}: declarations beside the module`);
  }
  for (const element of ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup']) {
    assert.ok(pkg.exports[`./${element}`], `./${element} is exported`);
    assert.ok(pkg.exports[`./${element}/define`], `./${element}/define is exported`);
  }
  assert.equal(pkg.main, (pkg.exports['.'] as { default: string }).default);
  assert.equal(pkg.types, (pkg.exports['.'] as { types: string }).types);
  for (const needed of ['dist', 'src', 'bin', 'custom-elements.json']) assert.ok(pkg.files.includes(needed), `files has ${needed}`);
});

test('each entry exports what it promises', async () => {
  for (const [entry, names] of Object.entries(PROMISED)) {
    const target = pkg.exports[entry] as { default: string };
    const module = (await import(pathToFileURL(sourceOf(target.default)).href)) as Record<string, unknown>;
    for (const name of names) {
      // React components (forwardRef) are objects tagged with $$typeof; everything else is a class or function.
      const value = module[name] as { $$typeof?: symbol } | undefined;
      const ok = entry === './react' ? typeof value?.$$typeof === 'symbol' : typeof value === 'function';
      assert.ok(ok, `${entry} exports ${name}`);
    }
  }
});

test('sideEffects lists only the modules that register tags', () => {
  for (const pattern of pkg.sideEffects) {
    assert.match(pattern, /(^|\/)define\.(js|ts)$|^\.\/dist\/svc-elements\.js$/, `${pattern} registers tags`);
  }
  for (const element of ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup']) {
    const define = readFileSync(`${root}src/elements/${element}/define.ts`, 'utf8');
    assert.match(define, /\.define\(|customElements\.define\(/, `${element}/define.ts registers the tag`);
    const source = readFileSync(`${root}src/elements/${element}/${element}.ts`, 'utf8');
    assert.doesNotMatch(source, /^\s*\w+\.define\(\s*\)|^customElements\.define\(/m, `${element}.ts registers nothing on import`);
  }
});
