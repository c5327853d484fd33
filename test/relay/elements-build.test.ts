// The script-tag build as the relay serves it (src/relay/built-files.ts, routes/public.ts): only the
// names of the build's manifest, in the encoding the client accepts (precompressed by the build),
// the entry revalidated and the hashed files immutable, a new build seen by the next request; and
// JSON answers above 1 KB compressed (src/relay/compress-json.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { createRelay } from '../../src/relay/app.js';
import { negotiate } from '../../src/relay/built-files.js';
import { compressJson } from '../../src/relay/compress-json.js';
import { publish, writeManifest } from '../../scripts/cdn-manifest.js';
import { openStore } from '../../src/relay/store/open.js';
import { JWT_SECRET, logCapture, offlineOptions, relayRequest as req, signToken, startRelay } from './helpers.js';

const base = { ...offlineOptions('build-key-' + randomBytes(8).toString('hex')), database: ':memory:', auth: 'dev' as const, logger: () => {} };

/** A build in `dir`: the entry, the files it names, their compressed copies and the manifest. */
function build(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeManifest(dir, Object.keys(files));
}

const chunkA = 'export const part = "A";\n'.repeat(20);
const chunkB = 'export const part = "B";\n'.repeat(20);
const buildA = { 'elements.js': 'import("./part-AAAAAAAA.js");\n', 'part-AAAAAAAA.js': chunkA };
const buildB = { 'elements.js': 'import("./part-BBBBBBBB.js");\n', 'part-BBBBBBBB.js': chunkB };

const decode = (body: Buffer, encoding: string | null) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString();

/** GET with a raw path (no URL normalisation, as an attacker's client sends it), undecoded body. */
function raw(origin: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    const call = request({ host: url.hostname, port: url.port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    call.on('error', reject);
    call.end();
  });
}

describe('Accept-Encoding negotiation', () => {
  it('prefers brotli, then gzip, honours q-values and *, and falls back to the plain body', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'identity'],
      ['', 'identity'],
      ['identity', 'identity'],
      ['gzip, deflate', 'gzip'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.5, gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['deflate', 'identity'],
      ['gzip;q=0, br;q=0', 'identity'],
      ['GZIP', 'gzip'],
      ['br;Q=0, gzip', 'gzip'],
      ['br ; q=0.001, gzip;q=1.000', 'gzip'],
      // A q that is no qvalue refuses the coding: the client may not take it.
      ['gzip;q=abc', 'identity'],
      ['br;q=2, gzip;q=0.1', 'gzip'],
      ['br;q=, gzip', 'gzip'],
      // x-gzip is gzip (RFC 9110 §8.4.1.3); gzip named itself says more.
      ['x-gzip', 'gzip'],
      ['X-GZIP;q=0.5, br;q=0.4', 'gzip'],
      ['gzip;q=0, x-gzip', 'identity'],
      ['gzip, x-gzip;q=0', 'gzip'],
    ];
    for (const [header, expected] of cases) assert.equal(negotiate(header), expected, String(header));
  });
});

describe('the script-tag build', () => {
  it('answers 404 telling to build while there is no manifest, then serves the build', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'relay-build-')), 'dist', 'cdn');
    mkdirSync(dir, { recursive: true });
    const relay = createRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    writeFileSync(join(dir, 'elements.js'), 'export {};\n'); // a file alone is no build
    const missing = await relay(req('/elements.js'));
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store'); // served once the build is there
    const message = ((await missing.json()) as { error: { message: string } }).error.message;
    assert.match(message, /npm run build/);
    // It names the folder (its last parts: no server path to a visitor) and the missing manifest.
    assert.ok(message.includes('no manifest.json in …/dist/cdn'), message);
    assert.ok(!message.includes(tmpdir()), message);
    assert.match(message, /dist\/cdn\/elements\.js/);
    build(dir, buildA);
    const ok = await relay(req('/elements.js'));
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), buildA['elements.js']);
    await relay.close();
  });

  it('takes the folder of the build as well as its entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const relay = createRelay({ ...base, elementsBundlePath: dir });
    assert.equal(await (await relay(req('/part-AAAAAAAA.js'))).text(), chunkA);
    await relay.close();
  });

  it('sends the precompressed copy the client accepts, with Vary: Accept-Encoding, and the plain file to a client that accepts neither', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const server = await startRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    try {
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
        [undefined, undefined],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        for (const name of ['elements.js', 'part-AAAAAAAA.js']) {
          const answer = await raw(server.origin, `/svc/${name}`, accept === undefined ? {} : { 'Accept-Encoding': accept });
          const what = `${name} with ${accept}`;
          assert.equal(answer.status, 200, what);
          assert.equal(answer.headers['content-encoding'], encoding, what);
          assert.equal(answer.headers.vary, 'Accept-Encoding', what);
          assert.match(String(answer.headers['content-type']), /^application\/javascript/, what);
          assert.equal(Number(answer.headers['content-length']), answer.body.length, what);
          assert.equal(decode(answer.body, encoding ?? null), buildA[name as keyof typeof buildA], what);
          if (encoding) assert.ok(answer.body.length < Buffer.byteLength(buildA[name as keyof typeof buildA]) || name === 'elements.js', what);
        }
      }
    } finally {
      await server.close();
    }
  });

  it('revalidates the entry on every load (no-cache, ETag answered 304) and keeps hashed files a year', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const relay = createRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    const entry = await relay(req('/elements.js', { headers: { 'Accept-Encoding': 'br' } }));
    assert.equal(entry.headers.get('cache-control'), 'no-cache');
    const etag = entry.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+\.br"$/);
    const again = await relay(req('/elements.js', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } }));
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('cache-control'), 'no-cache');
    assert.equal(again.headers.get('etag'), etag);
    // A cache merges a 304's headers into the copy it keeps: the type must stay JavaScript's.
    assert.equal(again.headers.get('content-type'), 'application/javascript; charset=utf-8');
    assert.equal(await again.text(), '');
    assert.equal((await relay(req('/elements.js', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': `"x", W/${etag}` } }))).status, 304);
    assert.equal((await relay(req('/elements.js', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': '*' } }))).status, 304);
    // Each representation has its own tag, and only its own is answered 304 (RFC 9110 §13.1.2).
    const plain = await relay(req('/elements.js'));
    const plainTag = plain.headers.get('etag')!;
    assert.match(plainTag, /^"[\w-]+"$/);
    assert.equal((await relay(req('/elements.js', { headers: { 'Accept-Encoding': 'gzip' } }))).headers.get('etag'), `${plainTag.slice(0, -1)}.gz"`);
    assert.equal((await relay(req('/elements.js', { headers: { 'If-None-Match': plainTag } }))).status, 304);
    assert.equal((await relay(req('/elements.js', { headers: { 'If-None-Match': etag } }))).status, 200);
    assert.equal((await relay(req('/elements.js', { headers: { 'If-None-Match': '"other"' } }))).status, 200);
    const part = await relay(req('/part-AAAAAAAA.js'));
    assert.equal(part.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await relay(req('/part-AAAAAAAA.js', { headers: { 'If-None-Match': part.headers.get('etag')! } }))).status, 304);
    await relay.close();
  });

  it('answers any page with Access-Control-Allow-Origin: * and never with credentials (not even to an allowed origin)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const relay = createRelay({ ...base, elementsBundlePath: join(dir, 'elements.js'), allowedOrigins: ['https://cms.example'] });
    for (const origin of ['https://cms.example', 'https://other.example']) {
      for (const name of ['elements.js', 'part-AAAAAAAA.js']) {
        const ok = await relay(req(`/${name}`, { headers: { Origin: origin } }));
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('access-control-allow-origin'), '*', origin);
        assert.equal(ok.headers.get('access-control-allow-credentials'), null, origin);
        const again = await relay(req(`/${name}`, { headers: { Origin: origin, 'If-None-Match': ok.headers.get('etag')! } }));
        assert.equal(again.status, 304);
        assert.equal(again.headers.get('access-control-allow-credentials'), null, origin);
      }
    }
    await relay.close();
  });

  // In the default mode (JWT) as in dev: no token needed to learn that the relay has no such file.
  for (const auth of [{ auth: 'dev' as const }, { auth: 'jwt' as const, jwtSecret: JWT_SECRET }]) {
    it(`serves only the names of the manifest: 404 for any other file of the folder, around it, or a path that tries to leave it (${auth.auth})`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'relay-build-'));
      const dir = join(root, 'cdn');
      mkdirSync(dir);
      build(dir, buildA);
      writeFileSync(join(dir, 'secret.js'), 'export const secret = 1;\n');
      writeFileSync(join(dir, '.hidden.js'), 'export const hidden = 1;\n');
      writeFileSync(join(root, 'outside.js'), 'export const outside = 1;\n');
      const server = await startRelay({ ...base, ...auth, elementsBundlePath: join(dir, 'elements.js') });
      try {
        for (const path of [
          '/svc/secret.js',
          '/svc/.hidden.js',
          '/svc/manifest.json',
          '/svc/elements.js.br',
          '/svc/part-AAAAAAAA.js.gz',
          '/svc/part-AAAAAAAA',
          '/svc/outside.js',
          '/svc/../outside.js',
          '/svc/..%2Foutside.js',
          '/svc/%2e%2e%2Foutside.js',
          '/svc/..%5Coutside.js',
          '/svc/cdn/elements.js',
          '/svc/%2E%2E/outside.js',
          '/svc/part-AAAAAAAA.js%00',
          '/svc/svc-elements.js',
          '/svc/elements.js/',
        ]) {
          const answer = await raw(server.origin, path, { 'Accept-Encoding': 'br, gzip' });
          assert.equal(answer.status, 404, path);
          assert.ok(!answer.body.toString().includes('export const'), path);
          // A name the next build (or another instance of a rolling deploy) may serve: kept by no cache.
          if (/^\/svc\/[\w-][\w.-]*\.js$/.test(path)) assert.equal(answer.headers['cache-control'], 'no-store', path);
        }
        assert.equal((await raw(server.origin, '/svc/part-AAAAAAAA.js')).status, 200);
        // A route that exists still asks for a token first.
        assert.equal((await raw(server.origin, '/svc/library')).status, auth.auth === 'jwt' ? 401 : 200);
      } finally {
        await server.close();
      }
    });
  }

  it('serves a new build put under the running relay on the next load: its entry, its new chunks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const server = await startRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    try {
      const first = await fetch(`${server.url}/elements.js`);
      assert.equal(await first.text(), buildA['elements.js']);
      assert.equal(await (await fetch(`${server.url}/part-AAAAAAAA.js`)).text(), chunkA);
      assert.equal((await fetch(`${server.url}/part-BBBBBBBB.js`)).status, 404);
      // The release: the build empties its folder and writes the new files, the manifest last.
      rmSync(dir, { recursive: true });
        mkdirSync(dir);
      build(dir, buildB);
      // The browser revalidates with the tag it holds: the new entry, not a 304.
      const next = await fetch(`${server.url}/elements.js`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
      assert.equal(next.status, 200);
      assert.equal(await next.text(), buildB['elements.js']);
      assert.equal(await (await fetch(`${server.url}/part-BBBBBBBB.js`)).text(), chunkB);
      // A page that loaded the old entry just before still gets the old chunk it had asked for.
      assert.equal(await (await fetch(`${server.url}/part-AAAAAAAA.js`)).text(), chunkA);
    } finally {
      await server.close();
    }
  });
});

describe('a release under a running relay', () => {
  it('sees a new build whose manifest keeps the size and mtime of the one before (cp -p, or a build with fixed timestamps)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    const staging = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    build(staging, buildB);
    const manifest = join(dir, 'manifest.json');
    const stamp = 1_700_000_000; // a whole second, which utimes keeps exactly
    utimesSync(manifest, stamp, stamp);
    const before = statSync(manifest);
    assert.equal(statSync(join(staging, 'manifest.json')).size, before.size, 'the two manifests must have one size, or this proves nothing');
    const server = await startRelay({ ...base, elementsBundlePath: dir });
    try {
      assert.equal(await (await fetch(`${server.url}/elements.js`)).text(), buildA['elements.js']);
      // Copied over in place (the manifest keeps its inode), the manifest last, its mtime kept.
      for (const name of readdirSync(staging).sort((a, b) => Number(a === 'manifest.json') - Number(b === 'manifest.json'))) copyFileSync(join(staging, name), join(dir, name));
      utimesSync(manifest, stamp, stamp);
      assert.equal(statSync(manifest).mtimeMs, before.mtimeMs);
      assert.equal(await (await fetch(`${server.url}/elements.js`)).text(), buildB['elements.js']);
      assert.equal(await (await fetch(`${server.url}/part-BBBBBBBB.js`)).text(), chunkB);
    } finally {
      await server.close();
    }
  });

  const ENCODINGS = [['br', 'br'], ['gzip', 'gzip'], [undefined, null]] as const;

  /** `name` in each encoding: its text (decoded) and its ETag without the encoding's suffix. */
  async function everyEncoding(origin: string, name: string) {
    const seen = [];
    for (const [accept, encoding] of ENCODINGS) {
      const answer = await raw(origin, `/svc/${name}`, accept ? { 'Accept-Encoding': accept } : {});
      assert.equal(answer.headers['content-encoding'] ?? null, answer.status === 200 ? encoding : null, `${name} ${accept}`);
      seen.push({ status: answer.status, text: answer.status === 200 ? decode(answer.body, encoding) : '', etag: String(answer.headers.etag).replace(/\.(?:br|gz)"$/, '"') });
    }
    return seen;
  }

  it('keeps serving the previous build whole, in every encoding, while the next one is half written, and logs why once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    const next = mkdtempSync(join(tmpdir(), 'relay-build-next-'));
    build(dir, buildA);
    build(next, buildB);
    const logs = logCapture();
    const server = await startRelay({ ...base, logger: logs.sink, elementsBundlePath: join(dir, 'elements.js') });
    const rejections = () => logs.lines.map((line) => JSON.parse(line) as { event: string; problem?: string }).filter((line) => line.event === 'elements_build_not_adopted');
    try {
      const before = await everyEncoding(server.origin, 'elements.js');
      assert.deepEqual(before.map(({ status, text }) => [status, text]), ENCODINGS.map(() => [200, buildA['elements.js']]));
      const servesA = async (what: string) => {
        assert.deepEqual(await everyEncoding(server.origin, 'elements.js'), before, what);
        for (const seen of await everyEncoding(server.origin, 'part-AAAAAAAA.js')) assert.deepEqual([seen.status, seen.text], [200, chunkA], what);
        for (const seen of await everyEncoding(server.origin, 'part-BBBBBBBB.js')) assert.equal(seen.status, 404, what);
      };
      // The new manifest there, none of its files.
      copyFileSync(join(next, 'manifest.json'), join(dir, 'manifest.json'));
      await servesA('the manifest alone');
      // Said once for this manifest, naming a file it lacks (not again at each read a second apart).
      assert.equal(rejections().length, 1);
      assert.match(rejections()[0]!.problem!, /^missing or unreadable: (elements|part-BBBBBBBB)\.js(\.br|\.gz)?$/);
      // The new entry (plain) there, its compressed copies and its chunk not yet.
      copyFileSync(join(next, 'elements.js'), join(dir, 'elements.js'));
      await servesA('the entry without its chunk');
      // Every file there, one of them not what the manifest says.
      for (const name of readdirSync(next)) if (name !== 'manifest.json') copyFileSync(join(next, name), join(dir, name));
      writeFileSync(join(dir, 'part-BBBBBBBB.js.gz'), gzipSync('export const part = "tampered";\n'));
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the relay reads a failed manifest again after a second
      await servesA('a copy that does not match');
      assert.equal(rejections().length, 1);
      // Whole: the next request takes it.
      copyFileSync(join(next, 'part-BBBBBBBB.js.gz'), join(dir, 'part-BBBBBBBB.js.gz'));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      for (const seen of await everyEncoding(server.origin, 'elements.js')) assert.deepEqual([seen.status, seen.text], [200, buildB['elements.js']]);
      for (const seen of await everyEncoding(server.origin, 'part-BBBBBBBB.js')) assert.deepEqual([seen.status, seen.text], [200, chunkB]);
    } finally {
      await server.close();
    }
  });

  it("keeps the previous build's files servable in br, gzip and identity once the next is adopted, though none was asked for and the disk has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    build(dir, buildA);
    const server = await startRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    try {
      assert.equal((await raw(server.origin, '/svc/elements.js')).status, 200);
      rmSync(dir, { recursive: true });
      mkdirSync(dir);
      build(dir, buildB);
      const entry = await everyEncoding(server.origin, 'elements.js');
      assert.deepEqual(entry.map(({ text }) => text), ENCODINGS.map(() => buildB['elements.js']));
      for (const seen of await everyEncoding(server.origin, 'part-AAAAAAAA.js')) assert.deepEqual([seen.status, seen.text], [200, chunkA]);
      // The same build's manifest changed in its metadata only (chmod -R after a deploy, the same
      // build published again): read again, it is the same build, and the one before stays.
      chmodSync(join(dir, 'manifest.json'), 0o600);
      build(dir, buildB);
      assert.equal((await raw(server.origin, '/svc/elements.js')).body.toString(), buildB['elements.js']);
      for (const seen of await everyEncoding(server.origin, 'part-AAAAAAAA.js')) assert.deepEqual([seen.status, seen.text], [200, chunkA]);
      // Two releases on, the first build's files are gone.
      const buildC = { 'elements.js': 'import("./part-CCCCCCCC.js");\n', 'part-CCCCCCCC.js': 'export {};\n' };
      build(dir, buildC);
      assert.equal((await raw(server.origin, '/svc/elements.js')).body.toString(), buildC['elements.js']);
      assert.equal((await raw(server.origin, '/svc/part-BBBBBBBB.js', { 'Accept-Encoding': 'gzip' })).status, 200);
      assert.equal((await raw(server.origin, '/svc/part-AAAAAAAA.js', { 'Accept-Encoding': 'gzip' })).status, 404);
    } finally {
      await server.close();
    }
  });

  it('publishes a build beside the one in the folder (never emptied), the manifest last, and deletes the builds before that one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    const staged = (files: Record<string, string>) => {
      const staging = mkdtempSync(join(tmpdir(), 'relay-staging-'));
      build(staging, files);
      return staging;
    };
    publish(staged(buildA), dir);
    publish(staged(buildB), dir);
    const copies = (name: string) => ['', '.br', '.gz'].map((suffix) => name + suffix);
    const listed = () => readdirSync(dir).sort();
    const previous = () => Object.keys((JSON.parse(readFileSync(join(dir, 'manifest.previous.json'), 'utf8')) as { files: object }).files);
    assert.deepEqual(listed(), ['manifest.json', 'manifest.previous.json', ...copies('elements.js'), ...copies('part-AAAAAAAA.js'), ...copies('part-BBBBBBBB.js')].sort());
    assert.deepEqual(previous(), ['part-AAAAAAAA.js']); // the hashed files it keeps, not the entry it replaced
    // The same build published again (npm run build twice): the build before it is still kept.
    publish(staged(buildB), dir);
    assert.deepEqual(previous(), ['part-AAAAAAAA.js']);
    assert.deepEqual(listed(), ['manifest.json', 'manifest.previous.json', ...copies('elements.js'), ...copies('part-AAAAAAAA.js'), ...copies('part-BBBBBBBB.js')].sort());
    const buildC = { 'elements.js': 'import("./part-CCCCCCCC.js");\n', 'part-CCCCCCCC.js': 'export {};\n' };
    publish(staged(buildC), dir);
    assert.deepEqual(listed(), ['manifest.json', 'manifest.previous.json', ...copies('elements.js'), ...copies('part-BBBBBBBB.js'), ...copies('part-CCCCCCCC.js')].sort());
    assert.deepEqual(previous(), ['part-BBBBBBBB.js']);
    assert.ok(!existsSync(join(dir, 'part-AAAAAAAA.js')));
  });

  it('serves the build before a release from a relay started after it (a page that loaded its entry before the restart imports its chunks)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    for (const files of [buildA, buildB]) {
      const staging = mkdtempSync(join(tmpdir(), 'relay-staging-'));
      build(staging, files);
      publish(staging, dir);
    }
    const server = await startRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    try {
      for (const seen of await everyEncoding(server.origin, 'elements.js')) assert.deepEqual([seen.status, seen.text], [200, buildB['elements.js']]);
      for (const seen of await everyEncoding(server.origin, 'part-BBBBBBBB.js')) assert.deepEqual([seen.status, seen.text], [200, chunkB]);
      for (const seen of await everyEncoding(server.origin, 'part-AAAAAAAA.js')) assert.deepEqual([seen.status, seen.text], [200, chunkA]);
      assert.equal((await raw(server.origin, '/svc/manifest.previous.json')).status, 404);
    } finally {
      await server.close();
    }
    // A copy on the disk that no longer matches what the release listed is not served.
    writeFileSync(join(dir, 'part-AAAAAAAA.js.gz'), gzipSync('export const part = "tampered";\n'));
    const restarted = await startRelay({ ...base, elementsBundlePath: join(dir, 'elements.js') });
    try {
      assert.equal((await raw(restarted.origin, '/svc/part-AAAAAAAA.js', { 'Accept-Encoding': 'gzip' })).status, 404);
      assert.equal((await raw(restarted.origin, '/svc/part-BBBBBBBB.js', { 'Accept-Encoding': 'gzip' })).status, 200);
    } finally {
      await restarted.close();
    }
  });
});

describe('JSON compression', () => {
  const big = { items: Array.from({ length: 100 }, (_, index) => ({ id: `vod-${index}`, title: `Video ${index}` })) };
  const app = new Hono();
  app.use('*', compressJson());
  app.get('/big', (c) => {
    c.header('ETag', '"big"');
    return c.json(big);
  });
  app.get('/small', (c) => c.json({ ok: true }));
  app.get('/events', (c) => c.body('data: x\n\n'.repeat(200), 200, { 'Content-Type': 'text/event-stream' }));

  it('compresses a JSON answer above 1 KB as the client accepts, with Vary and a weak ETag', async () => {
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], [undefined, null]] as const) {
      const answer = await app.request('/big', { headers: accept ? { 'Accept-Encoding': accept } : {} });
      assert.equal(answer.headers.get('content-encoding'), encoding, String(accept));
      assert.equal(answer.headers.get('vary'), 'Accept-Encoding');
      assert.equal(answer.headers.get('etag'), encoding ? 'W/"big"' : '"big"');
      const body = Buffer.from(await answer.arrayBuffer());
      assert.equal(Number(answer.headers.get('content-length')), body.length);
      assert.deepEqual(JSON.parse(decode(body, encoding)), big);
    }
  });

  it('answers HEAD with the headers of the GET: Vary, Content-Encoding and Content-Length', async () => {
    for (const accept of ['br, gzip', 'gzip', undefined]) {
      const headers: Record<string, string> = accept ? { 'Accept-Encoding': accept } : {};
      const get = await app.request('/big', { headers });
      const head = await app.request('/big', { method: 'HEAD', headers });
      for (const name of ['vary', 'content-encoding', 'content-length', 'etag']) assert.equal(head.headers.get(name), get.headers.get(name), `${name} with ${accept}`);
      assert.equal(head.headers.get('vary'), 'Accept-Encoding');
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    }
  });

  it('leaves small JSON and the event stream as they are', async () => {
    const small = await app.request('/small', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(small.headers.get('content-encoding'), null);
    assert.deepEqual(await small.json(), { ok: true });
    const events = await app.request('/events', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(events.headers.get('content-encoding'), null);
  });

  it('gives a kept public answer above 1 KB (a /config of many iframe origins) the same Vary and weak tag on its 304 as on its compressed 200', async () => {
    const iframeOrigins = Array.from({ length: 40 }, (_, i) => `https://iframe-player-${i}.example`);
    const relay = createRelay({ ...base, iframeOrigins, allowedOrigins: ['https://cms.example'] });
    try {
      for (const origin of [undefined, 'https://cms.example']) {
        const headers: Record<string, string> = { 'Accept-Encoding': 'br', ...(origin ? { Origin: origin } : {}) };
        const ok = await relay(req('/config', { headers }));
        assert.equal(ok.headers.get('content-encoding'), 'br', origin);
        const etag = ok.headers.get('etag')!;
        assert.match(etag, /^W\//, origin);
        const again = await relay(req('/config', { headers: { ...headers, 'If-None-Match': etag } }));
        assert.equal(again.status, 304, origin);
        assert.equal(again.headers.get('etag'), etag, origin);
        for (const answer of [ok, again]) {
          const vary = answer.headers.get('vary')!.split(/\s*,\s*/).sort();
          assert.deepEqual(vary, ['Accept-Encoding', 'Origin'], `${origin} ${answer.status}`);
        }
      }
    } finally {
      await relay.close();
    }
  });

  it('is on in the relay: the library of many items is compressed, /config (small) is not', async () => {
    const store = openStore(':memory:');
    await store.ready;
    for (let i = 0; i < 40; i++) await store.addContent({ type: 'vod', id: `v${i}`, owner: 'alice', title: `Video number ${i}` });
    const relay = createRelay({ ...base, auth: 'jwt', jwtSecret: JWT_SECRET, store });
    try {
      const config = await relay(req('/config', { headers: { 'Accept-Encoding': 'br, gzip' } }));
      assert.equal(config.headers.get('content-encoding'), null);
      const headers = { Authorization: `Bearer ${await signToken('alice')}`, 'Accept-Encoding': 'br, gzip' };
      const head = await relay(req('/library', { method: 'HEAD', headers }));
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-encoding'), 'br');
      assert.match(head.headers.get('vary')!, /Accept-Encoding/);
      const library = await relay(req('/library', { headers }));
      assert.equal(head.headers.get('content-length'), library.headers.get('content-length'));
      assert.equal(library.status, 200);
      assert.equal(library.headers.get('content-encoding'), 'br');
      assert.match(library.headers.get('vary')!, /Accept-Encoding/);
      const body = JSON.parse(decode(Buffer.from(await library.arrayBuffer()), 'br')) as { items: unknown[] };
      assert.equal(body.items.length, 40);
    } finally {
      await relay.close();
    }
  });
});
