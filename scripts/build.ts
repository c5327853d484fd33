// `npm run build`: dist/ with
// * ESM per module mirroring src/ (dist/elements/svc-player/svc-player.js, dist/core/index.js,
//   dist/relay/app.js, ...) plus type declarations, compiled by tsc (tsconfig.build.json);
// * the script-tag build dist/cdn/ (Vite, see vite.config.ts): the loader elements.js, the
//   content-hashed files it imports, their .br/.gz copies and manifest.json.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The script-tag build's entry (what the relay serves at `<base path>/elements.js`); its folder is the build. */
export const bundlePath = join(root, 'dist', 'cdn', 'elements.js');

/** Builds only the script-tag build dist/cdn/ (what the relay serves under `<base path>/`). */
export async function buildBundle(): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), mode: 'bundle', logLevel: 'warn' });
  return bundlePath;
}

/** Builds dist/cdn/ unless its manifest (written last) is newer than every source; true when it built. */
export async function buildBundleIfStale(): Promise<boolean> {
  const manifest = join(dirname(bundlePath), 'manifest.json');
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= newestSource()) return false;
  await buildBundle();
  return true;
}

/** Newest modification time of the sources the bundle is made of (0 when none). */
export function newestSource(dirs = ['src/elements', 'src/core', 'src/service']): number {
  const walk = (dir: string): number =>
    readdirSync(dir).reduce((newest, name) => {
      const path = join(dir, name);
      const stat = statSync(path);
      return Math.max(newest, stat.isDirectory() ? walk(path) : stat.mtimeMs);
    }, 0);
  return Math.max(0, ...dirs.map((dir) => join(root, dir)).map((dir) => walk(dir)));
}

/** Copies files of src/ that are not TypeScript (e.g. static assets read at run time) to dist/. */
function copyAssets(dir = join(root, 'src')): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (!name.endsWith('.ts')) {
      const target = join(root, 'dist', relative(join(root, 'src'), path));
      cpSync(path, target);
    }
  }
}

async function main(): Promise<void> {
  // Everything but the script-tag build, which a running relay may be serving: the new one is
  // published beside it (vite.config.ts).
  for (const name of existsSync(join(root, 'dist')) ? readdirSync(join(root, 'dist')) : []) {
    if (name !== 'cdn') rmSync(join(root, 'dist', name), { recursive: true, force: true });
  }
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) {
    console.error('build: tsc failed (see above)');
    process.exit(tsc.status ?? 1);
  }
  copyAssets();
  await buildBundle();
  console.log(`build: dist/ ready (ESM, declarations, the script-tag build ${relative(root, dirname(bundlePath))}/)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error('build failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
