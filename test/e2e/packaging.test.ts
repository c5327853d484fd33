// The package's public surface: every `exports` entry points at a module the build makes from a
// source that exists and exports what the entry promises, and `sideEffects` names only the modules
// that register tags, so bundlers can drop every element a page does not use. Then what users get:
// `npm pack` installed into a fresh folder (lean, no native build, no TypeScript runner), its types,
// its script-tag bundle in Chromium, and `npx svc-relay` against `npx svc-emulator` (compiled CLIs).
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from '../support/chromium.js';
import { makeVideo } from '../support/media.js';
import { uploadVod } from '../support/servers.js';
import { groupAlive } from './support.js';

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
      assert.ok(!target.startsWith('./dist/') && existsSync(`${root}${target}`), `${entry} -> ${target} exists`);
      continue;
    }
    if (target.default === './dist/cdn/elements.js') {
      // The script-tag loader, built by Vite: typed by tsc's declarations of its source.
      assert.equal(target.types, './dist/elements/loader.d.ts', `${entry}: the loader's declarations`);
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
    assert.match(pattern, /(^|\/)define\.(js|ts)$|^\.\/dist\/cdn\/\*\.js$/, `${pattern} registers tags`);
  }
  for (const element of ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup']) {
    const define = readFileSync(`${root}src/elements/${element}/define.ts`, 'utf8');
    assert.match(define, /\.define\(|customElements\.define\(/, `${element}/define.ts registers the tag`);
    const source = readFileSync(`${root}src/elements/${element}/${element}.ts`, 'utf8');
    assert.doesNotMatch(source, /^\s*\w+\.define\(\s*\)|^customElements\.define\(/m, `${element}.ts registers nothing on import`);
  }
});

const run = promisify(execFile);

/** Runs npm in `cwd`; its output is in the error when it fails. */
async function npm(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** tsc (the repo's TypeScript, as a user's own) on a project in the fresh folder. */
async function typecheck(cwd: string, project: string): Promise<void> {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', project], { cwd }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc -p ${project} failed:\n${error.stdout ?? ''}`);
  });
}

interface Command {
  child: ChildProcess;
  ready: Record<string, string>;
  output(): string;
}

/** Runs `command args` in `cwd` as a user starts it; resolves on its JSON ready line. */
async function start(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Command> {
  // Its own process group, so that cleanup after a failure reaches npm's shell and the command too.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    lines.on('line', (line) => {
      text += `${line}\n`;
      if (line.startsWith('{"event":"ready"')) resolve(JSON.parse(line) as Record<string, string>);
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${text}`)));
  });
  return { child, ready, output: () => text };
}

/** Whether something accepts connections on `origin`'s port. */
function listening(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The packages of a plain install of the tarball: the package, lit (and its parts), @lit/task and he. */
const LEAN = ['@lit-labs/ssr-dom-shim', '@lit/reactive-element', '@lit/task', '@types/trusted-types', 'he', 'lit', 'lit-element', 'lit-html', 'svc-elements'];
const TAGS = ['svc-player', 'svc-uploader', 'svc-playlist-editor', 'svc-channel-setup'];

describe('the packed package installed into a fresh folder', { timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  const app = join(work, 'app');
  const installed = join(app, 'node_modules/svc-elements');
  const started: ChildProcess[] = [];

  before(async () => {
    // `npm pack` runs prepack (npm run build): what a publish would upload.
    await npm(root, ['pack', '--pack-destination', work]);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
    await npm(app, ['install', join(work, tarball)]);
  });

  after(async () => {
    for (const child of started) if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  test('a plain install adds the elements and their runtime only: no install script, no server package, no tsx', () => {
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const names = Object.keys(lock.packages).filter(Boolean).map((path) => path.replace(/^.*node_modules\//, '')).sort();
    assert.deepEqual(names, LEAN);
    assert.deepEqual(Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript), [], 'nothing to build or run on install');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['@lit/task', 'he', 'lit']);
  });

  test('the tarball holds the compiled CLIs, the script-tag build and the local player script', () => {
    for (const file of ['dist/relay/cli.js', 'dist/emulator/cli.js', 'dist/cdn/elements.js', 'dist/cdn/manifest.json', 'dist/elements/index.d.ts', 'dist/emulator/player/player.js']) {
      assert.ok(existsSync(join(installed, file)), `${file} is in the package`);
    }
    assert.equal(
      readFileSync(join(installed, 'dist/emulator/player/player.js'), 'utf8'),
      readFileSync(join(root, 'src/emulator/player/player.js'), 'utf8'),
    );
    for (const bin of ['bin/svc-relay.js', 'bin/svc-emulator.js', 'bin/run.js']) {
      assert.doesNotMatch(readFileSync(join(installed, bin), 'utf8'), /tsx|\.ts['"]/, `${bin} runs compiled JavaScript`);
    }
  });

  test('the ESM entries type-check in a strict TypeScript project (NodeNext, lib checks on)', async () => {
    writeFileSync(
      join(app, 'page.ts'),
      [
        "import { SvcPlayer, SvcUploader } from 'svc-elements';",
        "import 'svc-elements/define';",
        "import { SvcPlaylistEditor } from 'svc-elements/svc-playlist-editor';",
        "import { RelayClient, SvcError, type ErrorCode } from 'svc-elements/core';",
        '',
        "const player: SvcPlayer = document.createElement('svc-player');",
        "player.contentId = '1234567';",
        "const uploader: SvcUploader | null = document.querySelector('svc-uploader');",
        "const code: ErrorCode = new SvcError('network_error', 'offline').code;",
        'export const used = [player, uploader, code, SvcPlaylistEditor, RelayClient];',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, noEmit: true, types: [] },
        files: ['page.ts'],
      }),
    );
    await typecheck(app, 'tsconfig.json');
  });

  describe('with the relay\'s packages installed as the README says', () => {
    let emulator: Command;
    let relay: Command;
    let page: Server;
    let pageOrigin: string;

    before(async () => {
      // The README's command for relay users, e.g. `npm install svc-elements hono … zod`.
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      const command = /^npm install svc-elements( [@a-z0-9/.-]+)+$/m.exec(readme)?.[0] ?? '';
      assert.ok(command.includes('better-sqlite3'), 'the README says what to install for the relay');
      const peers = command.split(' ').slice(3);
      // better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded (no
      // internet here): hand prebuild-install the repo's own build as a local prebuild, by the
      // name it looks for. It still runs its install script as for any user.
      const sqlite = JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string };
      const prebuilds = join(work, 'prebuilds');
      mkdirSync(prebuilds);
      await run('tar', [
        '-czf', join(prebuilds, `better-sqlite3-v${sqlite.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`),
        '-C', join(root, 'node_modules/better-sqlite3'), 'build/Release/better_sqlite3.node',
      ]);
      await npm(app, ['install', ...peers.map((name) => (name === 'better-sqlite3' ? `${name}@${sqlite.version}` : name))], {
        npm_config_better_sqlite3_local_prebuilds: prebuilds,
      });

      // The command itself (node_modules/.bin/svc-emulator), the relay through npx.
      emulator = await start(app, join(app, 'node_modules/.bin/svc-emulator'), ['--api-port', '0', '--upload-port', '0', '--player-port', '0', '--processing-ms', '200', '--api-key', 'fresh-key']);
      started.push(emulator.child);
      page = createServer((_request, response) => {
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(pageHtml);
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      const address = page.address();
      pageOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      relay = await start(app, 'npx', ['svc-relay'], {
        SVC_API_KEY: 'fresh-key',
        SVC_BASE_URL: emulator.ready.base_url!,
        SVC_UPLOAD_URL: emulator.ready.upload_url!,
        SVC_PLAYER_URL: emulator.ready.player_url!,
        SVC_AUTH: 'dev',
        SVC_RELAY_PORT: '0',
        SVC_DATABASE: join(work, 'relay.db'),
        SVC_ALLOWED_ORIGINS: pageOrigin,
        SVC_ENV_FILE: join(work, 'no.env'),
      });
      started.push(relay.child);
    });

    after(() => new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve())));

    let pageHtml = '';

    test('the relay and local service run from dist/ with plain node (no tsx installed)', async () => {
      assert.equal(existsSync(join(app, 'node_modules/tsx')), false);
      assert.equal(existsSync(join(app, 'node_modules/.bin/tsx')), false);
      const health = (await (await fetch(`${relay.ready.url}/healthz`)).json()) as { upstream: { reachable: boolean } };
      assert.equal(health.upstream.reachable, true, 'the relay reaches the local service');
    });

    test('the relay serves the package\'s script-tag build, which plays an upload on a page of another origin', async () => {
      const served = await fetch(`${relay.ready.url}/elements.js`);
      assert.equal(served.status, 200);
      assert.equal(await served.text(), readFileSync(join(installed, 'dist/cdn/elements.js'), 'utf8'));

      const vod = await uploadVod(relay.ready.url!, makeVideo({ seconds: 1 }));
      pageHtml = `<!doctype html><html lang="en"><head><title>fresh</title>
        <meta name="svc-relay" content="${relay.ready.url}">
        <script type="module" src="${relay.ready.url}/elements.js"></script></head>
        <body><svc-uploader></svc-uploader><svc-player kind="vod" content-id="${vod.vod_id}" loading="eager"></svc-player></body></html>`;
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        const errors: string[] = [];
        tab.on('pageerror', (error) => errors.push(error.message));
        await tab.addInitScript(() => {
          document.addEventListener('svc-player-ready', () => ((window as unknown as { playerReady: boolean }).playerReady = true));
        });
        await tab.goto(`${pageOrigin}/`);
        // The loader registers the tags the page uses, and only those.
        const used = ['svc-player', 'svc-uploader'];
        const defined = await tab.evaluate((tags) => Promise.all(tags.map((tag) => customElements.whenDefined(tag).then(() => tag))), used);
        assert.deepEqual(defined, used);
        assert.deepEqual(await tab.evaluate((tags) => tags.filter((tag) => customElements.get(tag)), TAGS), used);
        await tab.waitForFunction(() => (window as unknown as { playerReady?: boolean }).playerReady === true, undefined, { timeout: 60_000 });
        assert.ok(await tab.evaluate(() => Boolean(document.querySelector('svc-uploader')?.shadowRoot?.querySelector('input[type=file]'))));
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });

    test('a server project type-checks against the relay and local-service entries', async () => {
      writeFileSync(
        join(app, 'server.ts'),
        [
          "import { createRelay, type RelayOptions } from 'svc-elements/relay';",
          "import { createLocalService } from 'svc-elements/local-service';",
          '',
          "const options: RelayOptions = { apiKey: 'k', baseUrl: 'https://api.example', uploadUrl: 'https://up.example', playerUrl: 'https://player.example', auth: 'dev' };",
          'export const relay = createRelay(options);',
          'export const start = () => createLocalService({ apiPort: 0 });',
          '',
        ].join('\n'),
      );
      // The relay's types mention web types (Request, Response) and Node's (Buffer).
      await npm(app, ['install', '--save-dev', `@types/node@${readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8').match(/"version": "([^"]+)"/)![1]}`]);
      writeFileSync(
        join(app, 'tsconfig.server.json'),
        JSON.stringify({
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, types: ['node'] },
          files: ['server.ts'],
        }),
      );
      await typecheck(app, 'tsconfig.server.json');
    });

    test('SIGTERM to `npx svc-relay` and SIGINT to `svc-emulator` stop them and free their ports', async () => {
      const relayOrigin = new URL(relay.ready.url!).origin;
      const serviceOrigins = [emulator.ready.base_url!, emulator.ready.upload_url!, emulator.ready.player_url!].map((url) => new URL(url).origin);
      for (const origin of [relayOrigin, ...serviceOrigins]) assert.equal(await listening(origin), true, `${origin} listens`);
      relay.child.kill('SIGTERM');
      emulator.child.kill('SIGINT');
      // 'close': every process holding their output (npm, its shell, the command) has ended.
      const late = new Promise((_, reject) => setTimeout(() => reject(new Error(`still running:\n${relay.output()}`)), 20_000).unref());
      await Promise.race([Promise.all([once(relay.child, 'close'), once(emulator.child, 'close')]), late]);
      const deadline = Date.now() + 15_000;
      const open = async () => {
        const left = [];
        for (const origin of [relayOrigin, ...serviceOrigins]) if (await listening(origin)) left.push(origin);
        return left;
      };
      while ((await open()).length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await open(), [], `no listener is left:\n${relay.output()}\n${emulator.output()}`);
      assert.match(relay.output(), /"event":"stopped"/, 'the relay drained and stopped');
    });
  });
});
