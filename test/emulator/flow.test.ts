// Acceptance 2: a client written only from the seed runs the eleven operations and the playlist
// update against the local service, and receives the callback for a real video it uploaded.
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import he from 'he';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { schemas } from '../../src/service/index.js';
import { UPLOAD_SIGNATURE_FIELDS } from '../../src/service/types.js';
import { makeVideo } from '../support/media.js';
import { call, CallbackReceiver, startCli, uploadForm, waitFor } from './helpers.js';

/** SigV4 POST signature computed with WebCrypto: an implementation independent of the service's. */
async function webCryptoSignature(secret: string, date: string, region: string, policy: string): Promise<string> {
  let key: ArrayBuffer = new TextEncoder().encode(`AWS4${secret}`).buffer as ArrayBuffer;
  for (const part of [date, region, 's3', 'aws4_request', policy]) {
    const hmacKey = await webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    key = await webcrypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(part));
  }
  return Buffer.from(key).toString('hex');
}

/** What the client knows of a running service: its three URLs and the account's credentials. */
type Target = Pick<LocalService, 'baseUrl' | 'uploadUrl' | 'playerUrl' | 'accountId' | 'accessKeyId' | 'secretAccessKey' | 'region'> & {
  close(): Promise<unknown>;
};

const targets: [string, () => Promise<Target>][] = [
  ['createLocalService (in-process)', () => createLocalService({ processingMs: 200, profile: 'seed' })],
  [
    'the svc-emulator CLI',
    async () => {
      const credentials = { accessKeyId: 'AKIACLIFLOW', secretAccessKey: 'cli/flow+secret', region: 'eu-central-1' };
      const cli = await startCli([
        '--profile', 'seed', '--api-port', '0', '--upload-port', '0', '--player-port', '0', '--processing-ms', '200',
        '--access-key-id', credentials.accessKeyId, '--secret-access-key', credentials.secretAccessKey, '--region', credentials.region,
      ]);
      const { base_url, upload_url, player_url, account_id } = cli.ready;
      return { baseUrl: base_url!, uploadUrl: upload_url!, playerUrl: player_url!, accountId: account_id!, ...credentials, close: () => cli.stop() };
    },
  ],
];

for (const [name, start] of targets) describe(`a seed-only client against ${name}`, () => {
  let service: Target;
  let receiver: CallbackReceiver;
  const video = makeVideo({ seconds: 2 });
  const bytes = readFileSync(video);
  const state: { vodId?: string; playlistId?: string; channelId?: string } = {};

  before(async () => {
    receiver = await CallbackReceiver.start();
    service = await start();
  });
  after(async () => {
    await service?.close();
    await receiver.close();
  });

  it('operation 1 returns the nine signature fields in order, with a real SigV4 POST policy', async () => {
    const { status, json } = await call(service.baseUrl, 'POST', '/v2/vod', {
      source: 'clip.mp4',
      upload_type: 'ajax',
      callback_url: receiver.url,
    });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(json), [...UPLOAD_SIGNATURE_FIELDS]);
    schemas.uploadSignature.parse(json);
    const match = /^vod\/(\d+)\/none\/(\d+)$/.exec(json.key);
    assert.ok(match && match[1] === match[2], `key ${json.key} has the form vod/<id>/none/<id>`);
    state.vodId = match[1];
    assert.equal(json.success_action_status, '201');
    assert.equal(json['x-amz-algorithm'], 'AWS4-HMAC-SHA256');
    assert.match(json['x-amz-date'], /^\d{8}T\d{6}Z$/);
    const date = json['x-amz-date'].slice(0, 8);
    assert.equal(json['x-amz-credential'], `${service.accessKeyId}/${date}/${service.region}/s3/aws4_request`);
    assert.equal(
      json['x-amz-signature'],
      await webCryptoSignature(service.secretAccessKey, date, service.region, json.policy),
    );
    const policy = JSON.parse(Buffer.from(json.policy, 'base64').toString('utf8'));
    assert.ok(Date.parse(policy.expiration) > Date.now());
    for (const name of UPLOAD_SIGNATURE_FIELDS.filter((n) => n !== 'policy' && n !== 'x-amz-signature')) {
      assert.ok(
        policy.conditions.some((c: Record<string, string>) => !Array.isArray(c) && c[name] === json[name]),
        `policy binds ${name}`,
      );
    }
    assert.ok(policy.conditions.some((c: unknown[]) => Array.isArray(c) && c[0] === 'content-length-range'));
  });

  it('operation 2 takes the real video in a form in the returned order and the callback arrives', async () => {
    const signed = await call(service.baseUrl, 'POST', '/v2/vod', {
      source: 'holiday.mp4',
      upload_type: 'ajax',
      callback_url: receiver.url,
    });
    const vodId = /^vod\/(\d+)\//.exec(signed.json.key)![1]!;
    const response = await fetch(service.uploadUrl, {
      method: 'POST',
      body: uploadForm(signed.json, new Blob([bytes], { type: 'video/mp4' }), 'holiday.mp4'),
    });
    const xml = await response.text();
    assert.equal(response.status, 201, xml);
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    assert.equal(response.headers.get('etag'), etag);
    assert.match(xml, new RegExp(`<Key>vod/${vodId}/none/${vodId}</Key>`));
    const callback = await waitFor(() => receiver.received.find((r) => r.fields.file_id === vodId), 'the callback');
    assert.equal(callback.method, 'POST');
    assert.match(callback.contentType, /^multipart\/form-data; boundary=/);
    assert.deepEqual(callback.fields, { file_id: vodId, title: 'holiday.mp4' });
    schemas.uploadCallbackPayload.parse(callback.fields);
    state.vodId = vodId;
    // The player origin serves exactly the uploaded bytes.
    const media = await fetch(`${service.playerUrl}/media/${vodId}`);
    assert.equal(media.headers.get('content-type'), 'video/mp4');
    assert.deepEqual(Buffer.from(await media.arrayBuffer()), bytes);
  });

  it('operations 3 and 4 create and retrieve a playlist with every seed field', async () => {
    const created = await call(service.baseUrl, 'POST', '/v2/playlist', { title: 'Summer', description: 'Best of' });
    assert.equal(created.status, 200);
    const playlist = schemas.playlist.parse(created.json);
    assert.equal(playlist.title, 'Summer');
    assert.equal(playlist.description, 'Best of');
    assert.deepEqual(playlist.content, { list: null, start_time: '00:00:00' });
    assert.equal(playlist.counter_live_limit, -1);
    assert.match(playlist.creation_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const got = await call(service.baseUrl, 'GET', `/v2/playlist/${playlist.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, created.json);
    state.playlistId = playlist.id;
  });

  it('operation 5 creates a channel with region-specific RTMP ingest and fresh credentials', async () => {
    const request = { title: 'Studio', description: 'Live', region: 'europe', rendition_count: 3 };
    const { status, json } = await call(service.baseUrl, 'POST', '/v2/channel', request);
    assert.equal(status, 200);
    const channel = schemas.channel.parse(json);
    assert.equal(channel.title, 'Studio');
    assert.equal(channel.description, 'Live');
    assert.equal(channel.online, false);
    assert.match(channel.config.publishing_point_primary, /^rtmp:\/\/ingest-eu-1\./);
    assert.match(channel.config.publishing_point_backup!, /^rtmp:\/\/ingest-eu-2\./);
    assert.ok(channel.config.login && channel.config.password && channel.config.stream_name);
    const other = await call(service.baseUrl, 'POST', '/v2/channel', { ...request, region: 'asia_pacific' });
    assert.match(other.json.config.publishing_point_primary, /^rtmp:\/\/ingest-ap-1\./);
    assert.notEqual(other.json.config.password, channel.config.password);
    assert.notEqual(other.json.config.stream_name, channel.config.stream_name);
    const share = `${service.playerUrl}/embed/${service.accountId}-live-${channel.id}`;
    assert.deepEqual(channel.share_code, { facebook: share, gplus: share, twitter: share });
    state.channelId = channel.id;
  });

  it('the playlist update replaces the whole list, in position order', async () => {
    const path = `/v2/playlist/${state.playlistId}/content`;
    const before = (await call(service.baseUrl, 'GET', `/v2/playlist/${state.playlistId}`)).json;
    const updated = await call(service.baseUrl, 'PUT', path, {
      content: [
        { id: state.vodId, type: 'vod', position: '2' },
        { id: state.channelId, type: 'channel', position: '1' },
      ],
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    const playlist = schemas.playlist.parse(updated.json);
    assert.deepEqual(playlist.content.list, [
      { id: state.channelId, position: '1', thumbnail_id: '', title: 'Studio' },
      { id: state.vodId, position: '2', thumbnail_id: '', title: 'holiday.mp4' },
    ]);
    assert.ok(playlist.save_date > before.save_date, 'save_date moves');
    assert.equal(playlist.creation_date, before.creation_date);
    const got = await call(service.baseUrl, 'GET', `/v2/playlist/${state.playlistId}`);
    assert.deepEqual(got.json, updated.json);
    // Removing is leaving out; the JSON-string envelope is accepted too.
    const removed = await call(service.baseUrl, 'PUT', path, {
      content: JSON.stringify([{ id: state.vodId, type: 'vod', position: '1' }]),
    });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.json.content.list.map((item: { id: string }) => item.id), [state.vodId]);
    const emptied = await call(service.baseUrl, 'PUT', path, { content: [] });
    assert.equal(emptied.json.content.list, null);
  });

  it('operations 6 to 11 return escaped embed codes for the player origin', async () => {
    const kinds = [
      ['vod', state.vodId, 'vod'],
      ['channel', state.channelId, 'live'],
      ['playlist', state.playlistId, 'playlist'],
    ] as const;
    for (const [kind, id, segment] of kinds) {
      const contentId = `${service.accountId}-${segment}-${id}`;
      const script = await call(service.baseUrl, 'GET', `/v2/${kind}/${id}/embed/javascript`);
      assert.equal(script.status, 200);
      schemas.embedCodeResponse.parse(script.json);
      assert.doesNotMatch(script.json.code, /[<>"]/, 'the code is escaped');
      assert.equal(
        he.decode(script.json.code),
        `<script id="${contentId}" width="100%" height="100%" src="${service.playerUrl}/js/player.js?contentId=${contentId}" class="svc-video-player"></script>`,
      );
      const iframe = await call(service.baseUrl, 'GET', `/v2/${kind}/${id}/embed/iframe`);
      assert.equal(iframe.status, 200);
      const markup = he.decode(iframe.json.code);
      assert.match(markup, /^<div style="position:relative;padding-top:56.25%"><iframe [^<]+><\/iframe><\/div>$/);
      assert.ok(markup.includes(`id="${contentId}" src="${service.playerUrl}/embed/${contentId}"`), markup);
      assert.match(markup, /allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="[^"]+"/);
      const page = await fetch(`${service.playerUrl}/embed/${contentId}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /require-trusted-types-for 'script'/);
      assert.ok((await page.text()).includes(`src="/js/player.js?contentId=${contentId}"`));
    }
  });
});
