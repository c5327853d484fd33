// The local service's observed profile (the default): what the real service's public clients show
// (docs/real-service.md), against the seed profile's strict forms where they differ.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import he from 'he';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { UPLOAD_SIGNATURE_FIELDS } from '../../src/service/types.js';
import { makeVideo } from '../support/media.js';
import { call, CallbackReceiver, s3Code, startCli, uploadForm, waitFor } from './helpers.js';

const CONSISTENCY_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local service, observed profile', () => {
  let service: LocalService;
  let receiver: CallbackReceiver;
  let vodId: string;
  let channelId: string;
  const control = (path: string, body?: unknown) => call(service.baseUrl, 'POST', `/_control${path}`, body, {});

  before(async () => {
    receiver = await CallbackReceiver.start();
    service = await createLocalService({ control: true, processingMs: 20, temporaryCredentials: true, consistencyMs: CONSISTENCY_MS });
  });
  after(async () => {
    await service.close();
    await receiver.close();
  });

  it('is the default profile', () => {
    assert.equal(service.profile, 'observed');
    assert.notEqual(new URL(service.iframeUrl).origin, new URL(service.playerUrl).origin);
  });

  it('signs with temporary credentials: ten fields, x-amz-security-token before the signature, checked on upload', async () => {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'temp.mp4', upload_type: 'ajax', callback_url: receiver.url });
    assert.equal(signed.status, 200);
    assert.deepEqual(Object.keys(signed.json), [...UPLOAD_SIGNATURE_FIELDS.slice(0, -1), 'x-amz-security-token', 'x-amz-signature']);
    const video = new Blob([readFileSync(makeVideo({ seconds: 1 }))]);
    const wrong = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm({ ...signed.json, 'x-amz-security-token': 'forged' }, video, 'temp.mp4') });
    assert.equal(wrong.status, 400);
    assert.equal(s3Code(await wrong.text()), 'InvalidToken');
    const { 'x-amz-security-token': _, ...withoutToken } = signed.json;
    const missing = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(withoutToken, video, 'temp.mp4') });
    assert.equal(s3Code(await missing.text()), 'InvalidToken');
    const nine = await fetch(service.uploadUrl, { method: 'POST', body: uploadForm(signed.json, video, 'temp.mp4') });
    assert.equal(nine.status, 201, await nine.clone().text());
    vodId = /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
    await waitFor(() => receiver.received.find((r) => r.fields.file_id === vodId), 'the callback');
  });

  it('creates a channel with 201, nulls and fields the seed does not list', async () => {
    const created = await call(service.baseUrl, 'POST', '/v2/channel', { title: 'Live', description: '', region: 'europe', rendition_count: 1 });
    assert.equal(created.status, 201);
    assert.equal(created.json.rtmp, null);
    assert.equal(created.json.password, null);
    for (const field of ['asset_id', 'online_since', 'live_dvr_enabled', 'channel_type']) assert.ok(field in created.json, field);
    channelId = created.json.id;
  });

  it('creates playlists with 200 on both paths; retrieval answers 404 until the consistency delay passed', async () => {
    for (const path of ['/v2/playlists', '/v2/playlist']) {
      const created = await call(service.baseUrl, 'POST', path, { title: 'Mix', description: '' });
      assert.equal(created.status, 200, path);
      assert.equal(created.json.description, null);
      assert.equal(created.json.password, null);
      assert.equal(created.json.countdown_date, null);
      assert.equal(created.json.asset_id, created.json.id);
      const early = await call(service.baseUrl, 'GET', `/v2/playlists/${created.json.id}`);
      assert.equal(early.status, 404);
      assert.deepEqual(Object.keys(early.json), ['details']);
    }
    await sleep(CONSISTENCY_MS + 50);
  });

  it('takes the update as a JSON string with numeric positions; answer and retrieval lag, then show it with types', async () => {
    const created = await call(service.baseUrl, 'POST', '/v2/playlists', { title: 'Lag', description: 'd' });
    const id = created.json.id;
    await sleep(CONSISTENCY_MS + 50);
    const content = JSON.stringify([{ id: vodId, type: 'vod', position: 2 }, { id: channelId, type: 'channel', position: 1 }]);
    const updated = await call(service.baseUrl, 'PUT', `/v2/playlists/${id}/content`, { content });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.content.list, null, 'the answer still shows the old content');
    assert.equal((await call(service.baseUrl, 'GET', `/v2/playlist/${id}`)).json.content.list, null);
    await sleep(CONSISTENCY_MS + 50);
    for (const path of [`/v2/playlist/${id}`, `/v2/playlists/${id}`]) {
      const got = await call(service.baseUrl, 'GET', path);
      assert.deepEqual(got.json.content.list.map((i: { id: string; type: string; position: string }) => [i.id, i.type, i.position]), [
        [channelId, 'channel', '1'],
        [vodId, 'vod', '2'],
      ]);
    }
    // The singular path and the array envelope with string positions stay accepted.
    const seedForm = await call(service.baseUrl, 'PUT', `/v2/playlist/${id}/content`, { content: [{ id: vodId, type: 'vod', position: '1' }] });
    assert.equal(seedForm.status, 200);
  });

  it('answers errors as {details} and validation as {errors: [{message, property, value}]}', async () => {
    const unauthorised = await call(service.baseUrl, 'GET', '/v2/playlist/1', undefined, {});
    assert.equal(unauthorised.status, 401);
    assert.equal(typeof unauthorised.json.details, 'string');
    const invalid = await call(service.baseUrl, 'POST', '/v2/channel', { title: '', description: '', region: 'mars', rendition_count: 9 });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json.errors.map((e: { property: string }) => e.property).sort(), ['region', 'rendition_count', 'title']);
    assert.ok(invalid.json.errors.every((e: { message: unknown; value: unknown }) => typeof e.message === 'string' && 'value' in e));
  });

  it('answers 403 for content of a second account (control API), 404 for unknown ids', async () => {
    for (const kind of ['vod', 'channel', 'playlist'] as const) {
      const other = await control('/other-account', { kind });
      assert.equal(other.status, 201);
      const embed = await call(service.baseUrl, 'GET', `/v2/${kind}/${other.json.id}/embed/iframe`);
      assert.equal(embed.status, 403, kind);
      assert.equal(typeof embed.json.details, 'string');
    }
    const playlist = (await control('/other-account', { kind: 'playlist' })).json.id;
    assert.equal((await call(service.baseUrl, 'GET', `/v2/playlists/${playlist}`)).status, 403);
    assert.equal((await call(service.baseUrl, 'PUT', `/v2/playlists/${playlist}/content`, { content: '[]' })).status, 403);
    assert.equal((await call(service.baseUrl, 'GET', '/v2/playlists/1')).status, 404);
  });

  it('gives iframe codes on the iframe origin in the observed shape, and serves the player there', async () => {
    const code = he.decode((await call(service.baseUrl, 'GET', `/v2/channel/${channelId}/embed/iframe`)).json.code);
    const src = `${service.iframeUrl}/live/${service.accountId}/${channelId}`;
    assert.equal(
      code,
      `<iframe src="${src}" width="640" height="360" frameborder="0" scrolling="no" allow="autoplay" ` +
        'allowfullscreen webkitallowfullscreen mozallowfullscreen oallowfullscreen msallowfullscreen></iframe>',
    );
    const page = await fetch(src);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(`src="${service.playerUrl}/js/player.js?contentId=${service.accountId}-live-${channelId}"`));
    assert.match(page.headers.get('content-security-policy')!, new RegExp(`script-src ${service.playerUrl}`));
    assert.equal((await fetch(`${service.iframeUrl}/live/other-account/${channelId}`)).status, 404);
    assert.equal((await fetch(`${service.iframeUrl}/movie/${service.accountId}/${channelId}`)).status, 404);
    const script = he.decode((await call(service.baseUrl, 'GET', `/v2/vod/${vodId}/embed/javascript`)).json.code);
    const id = `${service.accountId}-vod-${vodId}`;
    assert.equal(script, `<script id="${id}" width="100%" height="100%" src="${service.playerUrl}/js/player.js?contentId=${id}" class="svc-video-player"></script>`);
  });
});

describe('local service, seed profile', () => {
  let service: LocalService;
  before(async () => {
    service = await createLocalService({ profile: 'seed' });
  });
  after(() => service.close());

  it('keeps to the seed: singular paths only, string positions, {error} bodies, 200 for a channel, nine fields', async () => {
    assert.equal((await call(service.baseUrl, 'POST', '/v2/playlists', { title: 't', description: '' })).status, 404);
    const created = await call(service.baseUrl, 'POST', '/v2/playlist', { title: 't', description: '' });
    assert.equal(created.json.description, '');
    assert.equal('asset_id' in created.json, false);
    assert.equal((await call(service.baseUrl, 'GET', `/v2/playlists/${created.json.id}`)).status, 404);
    const numeric = await call(service.baseUrl, 'PUT', `/v2/playlist/${created.json.id}/content`, { content: '[]' });
    assert.equal(numeric.status, 200);
    const channel = await call(service.baseUrl, 'POST', '/v2/channel', { title: 'c', description: '', region: 'europe', rendition_count: 1 });
    assert.equal(channel.status, 200);
    const wrong = await call(service.baseUrl, 'PUT', `/v2/playlist/${created.json.id}/content`, { content: [{ id: channel.json.id, type: 'channel', position: 1 }] });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.error.code, 'validation_failed');
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/cb' });
    assert.deepEqual(Object.keys(signed.json), [...UPLOAD_SIGNATURE_FIELDS]);
    const iframe = await call(service.baseUrl, 'GET', `/v2/channel/${channel.json.id}/embed/iframe`);
    assert.ok(he.decode(iframe.json.code).includes(`${service.playerUrl}/embed/`));
  });
});

describe('svc-emulator CLI flags of the observed profile', () => {
  it('runs observed by default with --iframe-port, --temporary-credentials and --consistency-ms', async () => {
    const cli = await startCli(['--temporary-credentials', '--consistency-ms', '300', '--iframe-port', '0']);
    try {
      assert.equal(cli.ready.profile, 'observed');
      assert.match(cli.ready.iframe_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
      const signed = await call(cli.ready.base_url!, 'POST', '/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/cb' });
      assert.ok('x-amz-security-token' in signed.json);
      const created = await call(cli.ready.base_url!, 'POST', '/v2/playlists', { title: 't', description: '' });
      assert.equal((await call(cli.ready.base_url!, 'GET', `/v2/playlists/${created.json.id}`)).status, 404);
    } finally {
      await cli.stop();
    }
  });

  it('refuses an unknown profile', async () => {
    await assert.rejects(startCli(['--profile', 'live']), /--profile must be "observed" or "seed"/);
  });
});
