// The svc-relay CLI as a child process: configuration errors, .env, durability across SIGKILL
// (real SQLite file), SIGTERM drain, and acceptance 2: the whole flow from the two CLIs alone.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { checkoutWithoutDist, RELAY_BIN, ROOT, relayEnv, runCli, startCli } from '../support/cli.js';
import { ENV_VARIABLES } from '../../src/relay/config.js';
import { uploadVod } from '../support/servers.js';
import { makeVideo } from '../support/media.js';
import { SseReader, control } from './helpers.js';
import { waitFor } from '../support/wait.js';

// The CLIs' sources through tsx (bin/ runs the compiled dist/, tested by test/e2e/packaging.test.ts).
const EMULATOR_BIN = join(ROOT, 'src/emulator/cli.ts');
const run = (bin: string, env: Record<string, string>, cwd: string) => runCli(bin, [], env, cwd);
const H = { 'X-Svc-Request': '1' };

const tmp = () => mkdtempSync(join(tmpdir(), 'svc-relay-cli-'));

describe('svc-relay CLI configuration', () => {
  it('refuses a missing or invalid configuration with one line per problem and exit 1', async () => {
    const { code, stderr } = await run(RELAY_BIN, { SVC_ENV_FILE: '/nonexistent/.env', SVC_BASE_URL: 'not a url', SVC_RELAY_PORT: '99999', SVC_PLAYLIST_UPDATE: 'PUT /no-placeholder' }, tmp());
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    for (const expected of [/SVC_API_KEY is required/, /SVC_BASE_URL must be an absolute (?:http\(s\) )?URL/, /SVC_UPLOAD_URL is required/, /SVC_PLAYER_URL is required/, /SVC_RELAY_PORT must be an integer/, /SVC_AUTH_JWT_SECRET/, /SVC_PLAYLIST_UPDATE must be/]) {
      assert.equal(lines.filter((line) => expected.test(line)).length, 1, `${expected} in:\n${stderr}`);
    }
  });

  it('refuses dev identity unless listening on loopback, without printing the key', async () => {
    const key = 'cli-secret-' + randomBytes(6).toString('hex');
    const { code, stderr } = await run(
      RELAY_BIN,
      relayEnv({ baseUrl: 'http://127.0.0.1:1', uploadUrl: 'http://127.0.0.1:2', playerUrl: 'http://127.0.0.1:3', apiKey: key }, { SVC_RELAY_HOST: '0.0.0.0' }),
      tmp(),
    );
    assert.equal(code, 1);
    assert.match(stderr, /SVC_AUTH=dev is refused unless SVC_RELAY_HOST is a loopback address/);
    assert.ok(!stderr.includes(key));
  });
});

describe('svc-relay --help, and a checkout without dist/', () => {
  it('prints usage with every environment variable and its default, and exits 0 without any configuration', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await runCli(RELAY_BIN, [flag], {}, tmp());
      assert.equal(code, 0, stderr);
      assert.equal(stderr, '');
      assert.match(stdout, /^Usage: svc-relay/);
      assert.match(stdout, /svc-relay migrate --from <sqlite file> --to <postgres url>/);
      for (const name of [...ENV_VARIABLES, 'SVC_ENV_FILE']) {
        const line = stdout.split('\n').find((text) => text.trimStart().startsWith(`${name} `));
        assert.ok(line, `${name} is listed:\n${stdout}`);
        assert.match(line, /\[[^\]]+\]$/, `${name} has its default in brackets`);
      }
      assert.match(stdout, /SVC_RELAY_PORT .*\[8787\]/);
      assert.match(stdout, /SVC_RATE_LIMIT_READ .*\[600\]/);
    }
  });

  it('a configuration problem points to --help', async () => {
    const { code, stderr } = await run(RELAY_BIN, { SVC_ENV_FILE: '/nonexistent/.env' }, tmp());
    assert.equal(code, 1);
    assert.match(stderr, /Run svc-relay --help for every variable and its default/);
  });

  it('bin/svc-relay.js runs from the sources where dist/ is older than them (a build left by npm pack, then an edit)', async () => {
    const checkout = checkoutWithoutDist();
    // A stale build whose CLI knows no --help: run, it would print the old answer.
    mkdirSync(join(checkout, 'dist/relay'), { recursive: true });
    writeFileSync(join(checkout, 'dist/relay/cli.js'), 'process.stderr.write("stale build\\n"); process.exit(3);\n');
    const past = new Date(Date.now() - 86_400_000);
    utimesSync(join(checkout, 'dist/relay/cli.js'), past, past);
    const help = await runCli(join(checkout, 'bin/svc-relay.js'), ['--help'], {}, checkout);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: svc-relay/);
    // A build newer than every source is what runs.
    const future = new Date(Date.now() + 86_400_000);
    utimesSync(join(checkout, 'dist/relay/cli.js'), future, future);
    const fresh = await runCli(join(checkout, 'bin/svc-relay.js'), ['--help'], {}, checkout);
    assert.equal(fresh.code, 3);
    assert.match(fresh.stderr, /stale build/);
  });

  it('refuses an argument it does not know, exit 2, instead of ignoring it', async () => {
    const { code, stderr } = await runCli(RELAY_BIN, ['--port', '9000'], {}, tmp());
    assert.equal(code, 2);
    assert.match(stderr, /unknown argument "--port"; the relay is configured by environment variables/);
  });

  it('bin/svc-relay.js runs from the sources where dist/ was never built (npm install alone)', async () => {
    const checkout = checkoutWithoutDist();
    const service = await createLocalService({ apiPort: 0, uploadPort: 0, playerPort: 0, apiKey: 'k-' + randomBytes(12).toString('hex') });
    try {
      const bin = join(checkout, 'bin/svc-relay.js');
      const help = await runCli(bin, ['--help'], {}, checkout);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^Usage: svc-relay/);
      const cli = await startCli(bin, [], relayEnv(service, { SVC_DATABASE: ':memory:' }), checkout);
      try {
        const config = await fetch(`${cli.ready.url}/config`);
        assert.equal(config.status, 200);
        assert.equal(((await config.json()) as any).player_origin, new URL(service.playerUrl).origin);
      } finally {
        cli.child.kill('SIGTERM');
        assert.equal(await cli.exited, 0);
      }
    } finally {
      await service.close();
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});

describe('svc-relay CLI with a SQLite file', () => {
  let service: LocalService;
  let dir: string;
  const children: ChildProcess[] = [];
  before(async () => {
    service = await createLocalService({ apiPort: 0, uploadPort: 0, playerPort: 0, control: true, processingMs: 100, apiKey: 'k-' + randomBytes(12).toString('hex') });
    dir = tmp();
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await service.close();
  });
  const start = async (extra: Record<string, string> = {}) => {
    const cli = await startCli(RELAY_BIN, [], relayEnv(service, { SVC_DATABASE: join(dir, 'data/relay.db'), ...extra }), dir);
    children.push(cli.child);
    return cli;
  };

  it('still knows an acknowledged VOD after SIGKILL and restart', async () => {
    const first = await start();
    assert.match(first.ready.url, /^http:\/\/127\.0\.0\.1:\d+\/svc$/);
    const vod = await uploadVod(first.ready.url, makeVideo({ seconds: 1 })); // ready = callback stored
    const callback = ((await control(`${service.baseUrl}/_control`, '/state')).callbacks as any[]).find((c) => c.vod_id === vod.vod_id);
    assert.equal(callback.attempts.at(-1).status, 200, 'the relay acknowledged the callback');
    first.child.kill('SIGKILL');
    assert.equal(await first.exited, null);

    const second = await start();
    const upload = (await (await fetch(`${second.ready.url}/uploads/${vod.upload_id}`, { headers: H })).json()) as any;
    assert.deepEqual(upload, { upload_id: vod.upload_id, source: 'sample-1s.mp4', state: 'ready', vod: { id: vod.vod_id, title: vod.title } });
    const library = (await (await fetch(`${second.ready.url}/library`, { headers: H })).json()) as any;
    assert.ok(library.items.some((item: any) => item.id === vod.vod_id && item.type === 'vod'));
    // Events survive too: a browser reconnecting with Last-Event-ID 0 gets the whole story.
    const replay = new SseReader(await fetch(`${second.ready.url}/events`, { headers: { ...H, 'Last-Event-ID': '0' } }));
    await replay.until(() => replay.events.some((e) => e.data.state === 'ready'), 'replayed ready');
    assert.deepEqual(replay.events.map((e) => e.data.state), ['signed', 'processing', 'ready']);
    await replay.close();
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  it('drains on SIGTERM: finishes the request in flight, ends SSE streams, exits 0', async () => {
    const cli = await start();
    const created = (await (await fetch(`${cli.ready.url}/playlists`, { method: 'POST', headers: { ...H, 'Content-Type': 'application/json' }, body: '{"title":"Drain","description":""}' })).json()) as any;
    const events = new SseReader(await fetch(`${cli.ready.url}/events`, { headers: H }));
    const path = `/v2/playlist/${created.id}`;
    await control(`${service.baseUrl}/_control`, '/faults', { origin: 'api', method: 'GET', path, latency_ms: 1000, count: 1 });
    const inFlight = fetch(`${cli.ready.url}/playlists/${created.id}`, { headers: H });
    // Wait until the relay's upstream call has reached the service: the request is in flight.
    await waitFor(
      async () => ((await control(`${service.baseUrl}/_control`, '/state')).faults as any[]).find((f) => f.path === path)?.hits === 1,
      "the relay's upstream call to reach the service",
    );
    cli.child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).id, created.id);
    await events.finished;
    assert.ok(events.ended, 'the SSE stream was closed by the relay');
    assert.equal(await cli.exited, 0);
    assert.ok(cli.stderr.some((line) => line.includes('"event":"draining"')));
    await assert.rejects(fetch(`${cli.ready.url}/healthz`), 'no longer listening');
    await control(`${service.baseUrl}/_control`, '/reset', {});
  });

  it('reads a .env file, the environment winning over it', async () => {
    const envDir = tmp();
    writeFileSync(
      join(envDir, '.env'),
      [
        '# relay settings',
        `SVC_API_KEY="${service.apiKey}"`,
        `SVC_BASE_URL=${service.baseUrl}`,
        `SVC_UPLOAD_URL=${service.uploadUrl}`,
        `SVC_PLAYER_URL=${service.playerUrl}`,
        'SVC_AUTH=dev',
        'SVC_RELAY_PORT=0',
        'SVC_RELAY_BASE_PATH=/from-file',
        `SVC_DATABASE=${join(envDir, 'relay.db')}`,
      ].join('\n'),
    );
    const cli = await startCli(RELAY_BIN, [], { SVC_RELAY_BASE_PATH: '/api/svc' }, envDir);
    children.push(cli.child);
    assert.match(cli.ready.url, /\/api\/svc$/);
    const config = (await (await fetch(`${cli.ready.url}/config`)).json()) as any;
    assert.equal(config.upload_url, service.uploadUrl);
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
    assert.ok(!cli.stderr.join('\n').includes(service.apiKey), 'logs never hold the key');
  });
});

describe('acceptance 2: the whole flow from the two CLIs alone', () => {
  const children: ChildProcess[] = [];
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('signs, uploads a real video, gets ready over SSE, builds a playlist and gets six embed codes', async () => {
    const dir = tmp();
    const apiKey = 'acc2-' + randomBytes(16).toString('hex');
    const emulator = await startCli(EMULATOR_BIN, ['--api-port', '0', '--upload-port', '0', '--player-port', '0', '--api-key', apiKey, '--processing-ms', '200'], {}, dir);
    children.push(emulator.child);
    const { base_url, upload_url, player_url } = emulator.ready;
    const relay = await startCli(
      RELAY_BIN,
      [],
      relayEnv({ baseUrl: base_url, uploadUrl: upload_url, playerUrl: player_url, apiKey }, { SVC_DATABASE: join(dir, 'relay.db') }),
      dir,
    );
    children.push(relay.child);
    const svc: string = relay.ready.url;
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${svc}${path}`, {
        method,
        headers: { ...H, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      assert.ok(!text.includes(apiKey) && ![...response.headers.values()].some((v) => v.includes(apiKey)), 'key leaked');
      assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text);
    };

    const events = new SseReader(await fetch(`${svc}/events`, { headers: H }));
    const file = makeVideo({ seconds: 2 });
    const bytes = await readFile(file);
    const signed = await send('POST', '/uploads', { source: basename(file), size: bytes.length, type: 'video/mp4' });
    const form = new FormData();
    for (const [name, value] of signed.fields as [string, string][]) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'video/mp4' }), basename(file));
    const posted = await fetch(signed.upload_url, { method: 'POST', body: form });
    assert.ok(posted.ok, `upload answered ${posted.status}`);
    await send('POST', `/uploads/${signed.upload_id}/uploaded`, {});
    await events.until(() => events.events.some((e) => e.data.upload_id === signed.upload_id && e.data.state === 'ready'), 'ready');
    const ready = events.events.find((e) => e.data.state === 'ready')!;
    const vodId: string = ready.data.vod.id;
    assert.match(vodId, /^\S+$/);
    await events.close();

    const playlist = await send('POST', '/playlists', { title: 'Acceptance', description: 'from the CLIs' });
    const channel = await send('POST', '/channels', { title: 'Acceptance live', description: '', region: 'north_america', rendition_count: 2 });
    await send('PUT', `/playlists/${playlist.id}/content`, { items: [{ id: vodId, type: 'vod' }, { id: channel.id, type: 'channel' }], base_save_date: playlist.save_date });
    const read = await send('GET', `/playlists/${playlist.id}`);
    assert.deepEqual(
      read.content.list.map((item: any) => [item.id, item.position, item.type]),
      [[vodId, '1', 'vod'], [channel.id, '2', 'channel']],
    );
    for (const [kind, id] of [['vod', vodId], ['channel', channel.id], ['playlist', playlist.id]]) {
      for (const variant of ['javascript', 'iframe']) {
        const { code } = await send('GET', `/embed/${kind}/${id}/${variant}`);
        assert.equal(typeof code, 'string');
        assert.ok(code.length > 0);
      }
    }
    const vodScript = (await send('GET', `/embed/vod/${vodId}/javascript`)).code as string;
    assert.ok(vodScript.includes(`${emulator.ready.account_id}-vod-${vodId}`), 'the VOD script names the content id');

    relay.child.kill('SIGTERM');
    emulator.child.kill('SIGTERM');
    assert.equal(await relay.exited, 0);
    assert.equal(await emulator.exited, 0);
    assert.ok(!relay.stderr.join('\n').includes(apiKey), 'relay logs never hold the key');
  });
});
