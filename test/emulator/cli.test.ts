// The CLI (svc-emulator) prints the ready line, serves the three origins, validates
// its flags with clear messages, logs JSON lines, and exits cleanly on SIGTERM, removing its
// temporary data dir.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeVideo } from '../support/media.js';
import { call, CallbackReceiver, CLI, ROOT, startCli, uploadForm, waitFor, type Cli } from './helpers.js';
import { checkoutWithoutDist } from '../support/cli.js';

describe('svc-emulator', () => {
  it('prints the ready line, runs the flow end to end and exits on SIGTERM, removing its temp dir', async () => {
    const receiver = await CallbackReceiver.start();
    const cli = await startCli(['--profile', 'seed', '--api-port', '0', '--upload-port', '0', '--player-port', '0', '--processing-ms', '100', '--account-id', 'acme']);
    const { ready, stderr } = cli;
    try {
      assert.deepEqual(Object.keys(ready), ['event', 'base_url', 'upload_url', 'player_url', 'iframe_url', 'account_id', 'profile']);
      assert.equal(ready.event, 'ready');
      assert.equal(ready.account_id, 'acme');
      assert.equal(ready.profile, 'seed');
      const origins = [ready.base_url, ready.upload_url, ready.player_url, ready.iframe_url].map((url) => new URL(url!).origin);
      assert.equal(new Set(origins).size, 4, 'four origins');
      for (const url of [ready.base_url, ready.upload_url, ready.player_url, ready.iframe_url]) assert.doesNotMatch(url!, /\/$/);

      const signed = await call(ready.base_url!, 'POST', '/v2/vod', { source: 'cli.mp4', upload_type: 'ajax', callback_url: receiver.url });
      assert.equal(signed.status, 200);
      const video = new Blob([readFileSync(makeVideo({ seconds: 1 }))]);
      const uploaded = await fetch(ready.upload_url!, { method: 'POST', body: uploadForm(signed.json, video, 'cli.mp4') });
      assert.equal(uploaded.status, 201);
      const id = /^vod\/(\d+)\//.exec(signed.json.key)![1];
      const callback = await waitFor(() => receiver.received.find((r) => r.fields.file_id === id), 'the callback');
      assert.equal(callback.fields.title, 'cli.mp4');
      const embed = await call(ready.base_url!, 'GET', `/v2/vod/${id}/embed/javascript`);
      assert.match(embed.json.code, new RegExp(`acme-vod-${id}`));
      assert.equal((await fetch(`${ready.base_url}/_control/state`)).status, 404, 'no control API without --control');

      const logs = stderr().trim().split('\n').map((line) => JSON.parse(line));
      const listening = logs.find((entry) => entry.event === 'listening');
      assert.ok(listening && existsSync(listening.data_dir));
      assert.ok(logs.some((entry) => entry.event === 'upload' && entry.status === 201));
      assert.ok(!stderr().includes('dev-key'), 'the API key is not logged');

      assert.equal(await cli.stop(), 0);
      assert.equal(existsSync(listening.data_dir), false, 'temporary data dir removed');
    } finally {
      await cli.stop('SIGKILL');
      await receiver.close();
    }
  });

  it('keeps a given --data-dir, enables --control, and stops on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-data-'));
    let stopLater: Cli | undefined;
    try {
      const cli = await startCli(['--data-dir', dataDir, '--control', '--api-key', 'k1']);
      stopLater = cli;
      const { ready } = cli;
      assert.equal((await fetch(`${ready.base_url}/_control/state`)).status, 200);
      const denied = await call(ready.base_url!, 'POST', '/v2/playlist', { title: 't', description: '' });
      assert.equal(denied.status, 401, 'the default key is not accepted when --api-key is given');
      const signed = await call(ready.base_url!, 'POST', '/v2/vod', { source: 'kept.bin', upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/' }, { 'X-Api-Key': 'k1', 'X-Format': 'default' });
      const uploaded = await fetch(ready.upload_url!, { method: 'POST', body: uploadForm(signed.json, new Blob(['hello']), 'kept.bin') });
      assert.equal(uploaded.status, 201);
      assert.equal(await cli.stop('SIGINT'), 0);
      assert.equal(readdirSync(dataDir).length, 1, 'the uploaded file is kept');
    } finally {
      await stopLater?.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits with status 1 and a JSON error line when a port is taken', async () => {
    const first = await startCli([]);
    try {
      const port = new URL(first.ready.base_url!).port;
      const result = spawnSync(process.execPath, [...CLI, '--api-port', port], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(result.status, 1);
      assert.equal(result.stdout, '', 'no ready line');
      const line = JSON.parse(result.stderr.trim().split('\n').at(-1)!);
      assert.equal(line.event, 'start_failed');
      assert.match(line.message, /EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });

  it('rejects bad flags with exit status 2 and a message naming the flag', () => {
    const cases: [string[], RegExp][] = [
      [['--api-port', '70000'], /--api-port must be an integer from 0 to 65535/],
      [['--processing-ms', '-5'], /--processing-ms/],
      [['--region', 'US EAST'], /--region/],
      [['--bucket', 'A'], /--bucket must be a valid S3 bucket name/],
      [['--nope'], /Unknown option '--nope'/],
      [['--api-key', ''], /--api-key/],
      [['--api-key', 'almost the key'], /--api-key must be 1-256 visible ASCII characters\.\n/],
      [['--secret-access-key', 'almost the secret'], /--secret-access-key must be 1-256 visible ASCII characters\.\n/],
    ];
    for (const [args, message] of cases) {
      const result = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /Usage: svc-emulator/);
      assert.equal(result.stdout, '');
      if (/key/.test(args[0]!) && args[1]) assert.ok(!result.stderr.includes(args[1]), `${args[0]}'s value is never printed`);
    }
    const help = spawnSync(process.execPath, [...CLI, '--help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--upload-port/);
  });

  it('--help lists every option with its default, says it reads no environment variable, and exits 0', () => {
    const help = spawnSync(process.execPath, [...CLI, '--help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.equal(help.stderr, '');
    const options = [...readFileSync(join(ROOT, 'src/emulator/cli.ts'), 'utf8').matchAll(/^ {8}'?([a-z-]+)'?: \{ type: '(?:string|boolean)' \}/gm)].map((m) => m[1]!);
    assert.ok(options.length >= 19, `the options read from parseArgs: ${options.join(' ')}`);
    const text = help.stdout.replace(/\n {20,}/g, ' ');
    for (const option of options.filter((name) => name !== 'help')) {
      const line = text.split('\n').find((entry) => entry.trimStart().startsWith(`--${option} `) || entry.trim() === `--${option}`);
      assert.ok(line, `--${option} is listed:\n${help.stdout}`);
      if (option !== 'secret-access-key') assert.match(line, /default/, `--${option} says its default`);
    }
    assert.match(help.stdout, /--secret-access-key <s> +upload signing secret \(default local-service-secret-access-key\)/);
    assert.match(help.stdout, /Environment: none read/);
  });

  it('bin/svc-emulator.js runs from the sources where dist/ was never built (npm install alone)', async () => {
    const checkout = checkoutWithoutDist();
    try {
      const bin = join(checkout, 'bin/svc-emulator.js');
      const help = spawnSync(process.execPath, [bin, '--help'], { cwd: checkout, encoding: 'utf8' });
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, /^Usage: svc-emulator/);
      const cli = await startCli(['--api-port', '0'], { command: [bin], cwd: checkout });
      try {
        assert.equal((await call(cli.ready.base_url!, 'GET', '/v2/vod/1/embed/javascript')).status, 404);
      } finally {
        assert.equal(await cli.stop(), 0);
      }
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});
