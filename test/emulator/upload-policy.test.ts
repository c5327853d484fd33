// Acceptance 3: the upload address verifies S3 POST policies like S3 does. A form signed by AWS's
// own SDK is accepted; each kind of bad form is rejected with the matching S3 error code.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { createLocalService, type LocalService } from '../../src/emulator/app.js';
import { makeVideo } from '../support/media.js';
import { call, CallbackReceiver, s3Code, uploadForm, waitFor } from './helpers.js';

describe('the upload address', () => {
  let service: LocalService;
  let receiver: CallbackReceiver;
  const video = new Blob([readFileSync(makeVideo({ seconds: 1 }))], { type: 'video/mp4' });

  before(async () => {
    receiver = await CallbackReceiver.start();
    service = await createLocalService({ control: true, processingMs: 50 });
  });
  after(async () => {
    await service.close();
    await receiver.close();
  });

  const sign = async () =>
    (await call(service.baseUrl, 'POST', '/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: receiver.url }))
      .json as Record<string, string>;

  /** Posts fields (in the given order) then a file, and returns status and S3 code. */
  async function post(entries: [string, string][], file: Blob = video, url = service.uploadUrl) {
    const form = new FormData();
    for (const [name, value] of entries) form.append(name, value);
    form.append('file', file, 'a.mp4');
    const response = await fetch(url, { method: 'POST', body: form });
    const text = await response.text();
    return { status: response.status, code: s3Code(text), text, headers: response.headers };
  }

  const sdkClient = (secretAccessKey = service.secretAccessKey) =>
    new S3Client({
      region: service.region,
      endpoint: service.uploadUrl,
      forcePathStyle: true,
      credentials: { accessKeyId: service.accessKeyId, secretAccessKey },
    });

  /** No partial file is ever left behind: the data dir holds exactly the accepted uploads. */
  function assertOnlyAcceptedFilesKept(accepted: number) {
    const files = readdirSync(service.dataDir);
    assert.equal(files.filter((name) => name.endsWith('.part')).length, 0, 'no partial files');
    assert.equal(files.length, accepted);
  }
  let accepted = 0;

  it('accepts a POST policy signed by @aws-sdk/s3-presigned-post with the service credentials', async () => {
    const { url, fields } = await createPresignedPost(sdkClient(), {
      Bucket: service.bucket,
      Key: 'sdk/clip.mp4',
      Conditions: [['content-length-range', 1, 10_000_000]],
      Fields: { 'Content-Type': 'video/mp4' },
      Expires: 600,
    });
    assert.equal(url, `${service.uploadUrl}/${service.bucket}`);
    const result = await post(Object.entries(fields), video, url);
    assert.equal(result.status, 204, result.text);
    assert.match(result.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
    accepted++;
    assertOnlyAcceptedFilesKept(accepted);
    const state = (await call(service.baseUrl, 'GET', '/_control/state')).json;
    const record = state.uploads.at(-1);
    assert.equal(record.key, 'sdk/clip.mp4');
    assert.equal(record.vod_id, null, 'a key of no VOD is stored, not processed');
    assert.deepEqual(record.field_names, [...Object.keys(fields), 'file']);
    assert.equal(record.size, video.size);
  });

  it('rejects an SDK form signed with a wrong secret: SignatureDoesNotMatch', async () => {
    const { url, fields } = await createPresignedPost(sdkClient('not-the-secret'), {
      Bucket: service.bucket,
      Key: 'sdk/wrong.mp4',
    });
    const result = await post(Object.entries(fields), video, url);
    assert.deepEqual([result.status, result.code], [403, 'SignatureDoesNotMatch']);
  });

  it('rejects an expired policy: AccessDenied', async () => {
    const { url, fields } = await createPresignedPost(sdkClient(), {
      Bucket: service.bucket,
      Key: 'sdk/late.mp4',
      Expires: -60,
    });
    const result = await post(Object.entries(fields), video, url);
    assert.deepEqual([result.status, result.code], [403, 'AccessDenied']);
    assert.match(result.text, /Policy expired/);
  });

  it('rejects a file over the content-length-range: EntityTooLarge, and under it: EntityTooSmall', async () => {
    const presign = (min: number, max: number) =>
      createPresignedPost(sdkClient(), {
        Bucket: service.bucket,
        Key: `sdk/range-${min}-${max}.mp4`,
        Conditions: [['content-length-range', min, max]],
      });
    const big = await presign(1, 1000);
    const tooLarge = await post(Object.entries(big.fields), new Blob([new Uint8Array(300_000)]), big.url);
    assert.deepEqual([tooLarge.status, tooLarge.code], [400, 'EntityTooLarge']);
    const small = await presign(100, 1000);
    const tooSmall = await post(Object.entries(small.fields), new Blob([new Uint8Array(10)]), small.url);
    assert.deepEqual([tooSmall.status, tooSmall.code], [400, 'EntityTooSmall']);
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('rejects a tampered field (AccessDenied) and a tampered policy (SignatureDoesNotMatch)', async () => {
    const signature = await sign();
    const tamperedAcl = Object.entries({ ...signature, acl: 'private' });
    const field = await post(tamperedAcl);
    assert.deepEqual([field.status, field.code], [403, 'AccessDenied']);
    assert.match(field.text, /Policy Condition failed/);
    const policy = JSON.parse(Buffer.from(signature.policy!, 'base64').toString());
    policy.conditions.at(-1)[2] = 10 ** 12;
    const tamperedPolicy = Object.entries({ ...signature, policy: Buffer.from(JSON.stringify(policy)).toString('base64') });
    const result = await post(tamperedPolicy);
    assert.deepEqual([result.status, result.code], [403, 'SignatureDoesNotMatch']);
    const otherKey = Object.entries({ ...signature, key: 'vod/1/none/1' });
    assert.equal((await post(otherKey)).code, 'AccessDenied');
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('rejects a form with a missing field: AccessDenied', async () => {
    const signature = await sign();
    for (const missing of ['acl', 'success_action_status', 'x-amz-signature', 'policy']) {
      const entries = Object.entries(signature).filter(([name]) => name !== missing);
      const result = await post(entries);
      assert.deepEqual([result.status, result.code], [403, 'AccessDenied'], `without ${missing}: ${result.text}`);
    }
  });

  it('rejects fields out of order (AccessDenied), then accepts the same signature in order', async () => {
    const signature = await sign();
    const entries = Object.entries(signature);
    const swapped = [entries[1]!, entries[0]!, ...entries.slice(2)];
    const result = await post(swapped);
    assert.deepEqual([result.status, result.code], [403, 'AccessDenied']);
    assert.match(result.text, /order/);
    const good = await post(entries);
    assert.equal(good.status, 201, good.text);
    accepted++;
    const reused = await post(entries);
    assert.deepEqual([reused.status, reused.code], [403, 'AccessDenied'], 'a form is used once');
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('requires file last and no field outside the policy: AccessDenied', async () => {
    const signature = await sign();
    const form = uploadForm(signature, video, 'a.mp4');
    form.append('note', 'after the file');
    const late = await fetch(service.uploadUrl, { method: 'POST', body: form });
    assert.deepEqual([late.status, s3Code(await late.text())], [403, 'AccessDenied']);
    const extra = await post([...Object.entries(signature).slice(0, 3), ['Content-Type', 'video/mp4'], ...Object.entries(signature).slice(3)]);
    assert.deepEqual([extra.status, extra.code], [403, 'AccessDenied']);
    assert.match(extra.text, /Extra input fields: content-type/);
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('matches field names case-insensitively, as S3 does', async () => {
    const signature = await sign();
    const entries = Object.entries(signature).map(([name, value]) => [name.toUpperCase(), value] as [string, string]);
    const result = await post(entries);
    assert.equal(result.status, 201, result.text);
    accepted++;
  });

  it('answers malformed requests with S3 errors', async () => {
    const signature = await sign();
    const noFile = new FormData();
    for (const [name, value] of Object.entries(signature)) noFile.append(name, value);
    const missingFile = await fetch(service.uploadUrl, { method: 'POST', body: noFile });
    assert.deepEqual([missingFile.status, s3Code(await missingFile.text())], [400, 'InvalidArgument']);
    const broken = await fetch(service.uploadUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="acl"\r\n\r\npublic-read\r\n--xyz\r\nno headers here',
    });
    assert.deepEqual([broken.status, s3Code(await broken.text())], [400, 'MalformedPOSTRequest']);
    const notMultipart = await fetch(service.uploadUrl, { method: 'POST', body: 'acl=x' });
    assert.equal(s3Code(await notMultipart.text()), 'PreconditionFailed');
    const wrongBucket = await post(Object.entries(signature), video, `${service.uploadUrl}/another-bucket`);
    assert.deepEqual([wrongBucket.status, wrongBucket.code], [404, 'NoSuchBucket']);
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('removes the partial file when the client goes away mid-upload, and the form can be used again', async () => {
    const signature = await sign();
    const boundary = 'svc-abort-test';
    const head =
      Object.entries(signature)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n`;
    const req = request(service.uploadUrl, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 10_000_000) },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write(Buffer.alloc(1_000_000));
    // Wait until the service has the file open, then cut the connection.
    await waitFor(() => readdirSync(service.dataDir).some((name) => name.endsWith('.part')), 'the partial file');
    req.destroy();
    await waitFor(async () => {
      const uploads = (await call(service.baseUrl, 'GET', '/_control/state')).json.uploads;
      return uploads.some((u: { key: string; status: number }) => u.key === signature.key && u.status === 400);
    }, 'the aborted upload to be recorded');
    assertOnlyAcceptedFilesKept(accepted);
    const retry = await post(Object.entries(signature));
    assert.equal(retry.status, 201, retry.text);
    accepted++;
    assertOnlyAcceptedFilesKept(accepted);
  });

  it('refuses a second upload of a form while the first is still arriving', async () => {
    const signature = await sign();
    const boundary = 'svc-concurrent-test';
    const head =
      Object.entries(signature)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const first = request(service.uploadUrl, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 1000 + tail.length) },
    });
    const answered = once(first, 'response') as Promise<[IncomingMessage]>;
    first.write(head);
    first.write(Buffer.alloc(500));
    await waitFor(() => readdirSync(service.dataDir).some((name) => name.endsWith('.part')), 'the first upload to start');
    const second = await post(Object.entries(signature));
    assert.deepEqual([second.status, second.code], [403, 'AccessDenied']);
    assert.match(second.text, /in progress/);
    first.end(Buffer.concat([Buffer.alloc(500), Buffer.from(tail)]));
    const [response] = await answered;
    response.resume();
    assert.equal(response.statusCode, 201);
    accepted++;
    assertOnlyAcceptedFilesKept(accepted);
    const records = (await call(service.baseUrl, 'GET', '/_control/state')).json.uploads.filter(
      (u: { key: string }) => u.key === signature.key,
    );
    assert.deepEqual(records.map((u: { status: number; vod_id: string }) => [u.status, u.vod_id]), [
      [403, signature.key!.split('/')[1]],
      [201, signature.key!.split('/')[1]],
    ]);
  });

  it('answers CORS preflights and exposes ETag and Location to any origin', async () => {
    const preflight = await fetch(service.uploadUrl, {
      method: 'OPTIONS',
      headers: { Origin: 'https://cms.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    const signature = await sign();
    const form = uploadForm(signature, video, 'a.mp4');
    const response = await fetch(service.uploadUrl, { method: 'POST', body: form, headers: { Origin: 'https://cms.example' } });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /ETag/);
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /Location/);
    // Errors too, so a browser can read the S3 error code.
    const refused = await fetch(service.uploadUrl, { method: 'POST', body: form, headers: { Origin: 'https://cms.example' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  });
});

describe('the upload size limit of VOD forms', () => {
  it('rejects a VOD file over maxUploadBytes with EntityTooLarge and keeps nothing', async () => {
    const service = await createLocalService({ maxUploadBytes: 1024 });
    try {
      const signature = (
        await call(service.baseUrl, 'POST', '/v2/vod', {
          source: 'a.mp4',
          upload_type: 'ajax',
          callback_url: 'http://127.0.0.1:9/cb',
        })
      ).json;
      const policy = JSON.parse(Buffer.from(signature.policy, 'base64').toString());
      assert.deepEqual(policy.conditions.at(-1), ['content-length-range', 1, 1024]);
      const response = await fetch(service.uploadUrl, {
        method: 'POST',
        body: uploadForm(signature, new Blob([new Uint8Array(200_000)]), 'a.mp4'),
      });
      assert.deepEqual([response.status, s3Code(await response.text())], [400, 'EntityTooLarge']);
      assert.deepEqual(readdirSync(service.dataDir), []);
    } finally {
      await service.close();
    }
  });

  it('answers InternalError (not a hang) when the file cannot be stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-upload-gone-'));
    const service = await createLocalService({ dataDir });
    try {
      const signature = (
        await call(service.baseUrl, 'POST', '/v2/vod', { source: 'a.mp4', upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/cb' })
      ).json;
      rmSync(dataDir, { recursive: true });
      const response = await fetch(service.uploadUrl, {
        method: 'POST',
        body: uploadForm(signature, new Blob([new Uint8Array(3_000_000)]), 'a.mp4'),
      });
      assert.deepEqual([response.status, s3Code(await response.text())], [500, 'InternalError']);
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
