import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError } from '../../src/core/errors.js';
import { acceptsFile, checkFile } from '../../src/core/file-rules.js';
import { ByteProgress, TransferRate } from '../../src/core/transfer-progress.js';
import { parseS3Error, uploadError } from '../../src/core/upload-errors.js';
import { buildUploadForm, postForm, successStatus, type UploadRequest } from '../../src/core/upload-form.js';

const FIELDS: [string, string][] = [
  ['acl', 'private'],
  ['bucket', 'uploads'],
  ['key', 'vod/7/none/7'],
  ['policy', 'eyJleHBpcmF0aW9uIjoiIn0='],
  ['success_action_status', '201'],
  ['x-amz-algorithm', 'AWS4-HMAC-SHA256'],
  ['x-amz-credential', 'AKID/20260101/eu-west-1/s3/aws4_request'],
  ['x-amz-date', '20260101T000000Z'],
  ['x-amz-signature', 'ab'.repeat(32)],
];

const s3Xml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>1</RequestId></Error>`;

describe('buildUploadForm', () => {
  it('puts every field in the given order and the file last', async () => {
    const file = new File(['0123456789'], 'clip.mp4', { type: 'video/mp4' });
    const form = buildUploadForm(FIELDS, file);
    const names = [...form.keys()];
    assert.deepEqual(names, [...FIELDS.map(([name]) => name), 'file']);
    for (const [name, value] of FIELDS) assert.equal(form.get(name), value);
    const sent = form.get('file') as File;
    assert.equal(sent.name, 'clip.mp4');
    assert.equal(sent.size, 10);
    // The serialized multipart body has the same order (what the upload address reads).
    const body = await new Response(form).text();
    const order = [...body.matchAll(/\bname="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, names);
    assert.match(body, /filename="clip\.mp4"[\s\S]*0123456789/);
  });

  it('never lets a signature field named file come before the real file', () => {
    const form = buildUploadForm([['key', 'k'], ['file', 'forged']], new Blob(['x']), 'a.webm');
    assert.deepEqual([...form.keys()], ['key', 'file']);
    assert.equal((form.get('file') as File).name, 'a.webm');
  });
});

describe('successStatus', () => {
  const cases: [string, [string, string][], number][] = [
    ['signed 201', FIELDS, 201],
    ['signed 200', [['success_action_status', '200']], 200],
    ['absent: S3 default', [['key', 'k']], 204],
    ['not a 2xx', [['success_action_status', '302']], 204],
    ['garbage', [['success_action_status', 'ok']], 204],
  ];
  for (const [name, fields, expected] of cases) {
    it(name, () => assert.equal(successStatus(fields), expected));
  }
});

describe('parseS3Error', () => {
  const cases: [string, string, { code: string; message: string } | undefined][] = [
    ['S3 error', s3Xml('AccessDenied', 'Access Denied'), { code: 'AccessDenied', message: 'Access Denied' }],
    [
      'entities decoded',
      s3Xml('InvalidArgument', 'Field &quot;key&quot; &lt;x&gt; &amp; &#233;&#x41;'),
      { code: 'InvalidArgument', message: 'Field "key" <x> & éA' },
    ],
    ['no message', '<Error><Code>InternalError</Code></Error>', { code: 'InternalError', message: '' }],
    ['multi-line message', '<Error>\n <Code>X</Code>\n <Message>a\nb</Message>\n</Error>', { code: 'X', message: 'a\nb' }],
    ['success response', '<PostResponse><Key>k</Key></PostResponse>', undefined],
    ['html', '<html><body>Bad gateway</body></html>', undefined],
    ['empty', '', undefined],
  ];
  for (const [name, body, expected] of cases) {
    it(name, () => assert.deepEqual(parseS3Error(body), expected));
  }
});

describe('uploadError', () => {
  const cases: [string, number, string, string, RegExp][] = [
    ['connection failed', 0, '', 'network_error', /connection/],
    [
      'expired policy',
      403,
      s3Xml('AccessDenied', 'Invalid according to Policy: Policy expired.'),
      'signature_expired',
      /expired.*Policy expired/,
    ],
    ['expired token', 400, s3Xml('ExpiredToken', 'The provided token has expired.'), 'signature_expired', /expired/],
    [
      'other denial',
      403,
      s3Xml('SignatureDoesNotMatch', 'The request signature we calculated does not match'),
      'upload_rejected',
      /refused the file: The request signature.*\(SignatureDoesNotMatch\)/,
    ],
    ['too large', 400, s3Xml('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'), 'payload_too_large', /larger/],
    ['too small', 400, s3Xml('EntityTooSmall', 'Your proposed upload is smaller'), 'file_rejected', /smaller/],
    ['5xx with XML', 500, s3Xml('InternalError', 'We encountered an internal error'), 'upload_failed', /failed: We encountered/],
    ['bare 403', 403, 'Forbidden', 'upload_rejected', /refused the file with HTTP 403/],
    ['bare 503', 503, '', 'upload_failed', /HTTP 503/],
    ['unexpected success code', 200, '', 'upload_failed', /HTTP 200 instead of 201/],
  ];
  for (const [name, status, body, code, message] of cases) {
    it(name, () => {
      const error = uploadError(status, body, 201);
      assert.ok(error instanceof SvcError);
      assert.equal(error.code, code);
      assert.equal(error.status, status);
      assert.match(error.message, message);
    });
  }
});

describe('ByteProgress', () => {
  it('maps body bytes to file bytes, never backwards, held below the size until complete', () => {
    const progress = new ByteProgress(1000);
    const shown = [
      [0, 2000],
      [500, 2000],
      [400, 2000], // a smaller report (e.g. a restarted attempt) does not move the bar back
      [1980, 2000],
      [2000, 2000], // everything sent, but no answer yet
    ].map(([loaded, total]) => progress.update(loaded!, total!));
    assert.deepEqual(shown, [0, 250, 250, 990, 990]);
    assert.equal(progress.done, false);
    assert.equal(progress.complete(), 1000);
    assert.equal(progress.update(10, 2000), 1000);
    assert.equal(progress.done, true);
  });

  const ceilings: [number, number][] = [
    [0, 0],
    [1, 0],
    [2, 1],
    [100, 99],
    [10_000, 9900],
  ];
  for (const [total, ceiling] of ceilings) {
    it(`holds a ${total}-byte file at ${ceiling}`, () => {
      const progress = new ByteProgress(total);
      assert.equal(progress.update(5, 5), ceiling);
      assert.ok(ceiling < total || total === 0);
    });
  }

  it('ignores reports without a total', () => {
    const progress = new ByteProgress(10);
    assert.equal(progress.update(5, 0), 0);
  });
});

describe('TransferRate', () => {
  it('is unknown until two samples are apart in time', () => {
    const rate = new TransferRate();
    assert.equal(rate.bytesPerSecond, undefined);
    rate.add(0, 1000);
    rate.add(100, 1000);
    assert.equal(rate.bytesPerSecond, undefined);
    assert.equal(rate.secondsLeft(100), undefined);
  });

  it('measures over the recent window only', () => {
    const rate = new TransferRate(2000);
    rate.add(0, 0);
    rate.add(10_000, 2000); // fast start
    rate.add(11_000, 3000);
    rate.add(12_000, 4000); // the window (2 s) now starts at the 2000 ms sample
    assert.equal(rate.bytesPerSecond, 1000);
    assert.equal(rate.secondsLeft(2500), 3);
    assert.equal(rate.secondsLeft(0), 0);
  });
});

/** An XMLHttpRequest stand-in that records what was sent and lets the test play the network. */
class FakeRequest implements UploadRequest {
  status = 0;
  responseText = '';
  method = '';
  url = '';
  body?: FormData;
  aborted = false;
  upload: UploadRequest['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  answer(status: number, body = '') {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
}

function start(options: { signal?: AbortSignal; size?: number } = {}) {
  const request = new FakeRequest();
  const file = new File([new Uint8Array(options.size ?? 1000)], 'clip.mp4', { type: 'video/mp4' });
  const progress: number[] = [];
  let sent = 0;
  const result = postForm({
    url: 'http://upload.test/',
    fields: FIELDS,
    file,
    signal: options.signal,
    onProgress: (loaded, total) => {
      assert.equal(total, file.size);
      progress.push(loaded);
    },
    onSent: () => sent++,
    createRequest: () => request,
  });
  return { request, file, progress, result, sent: () => sent };
}

describe('postForm', () => {
  it('posts the form and resolves on the signed status with progress ending at the file size', async () => {
    const { request, progress, result, sent } = start();
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'http://upload.test/');
    assert.deepEqual([...request.body!.keys()], [...FIELDS.map(([n]) => n), 'file']);
    request.progress(100, 2000);
    request.progress(1500, 2000);
    request.progress(1500, 2000); // no change, no event
    request.progress(2000, 2000);
    assert.equal(sent(), 1);
    assert.deepEqual(progress, [50, 750, 990]);
    request.answer(201, '<PostResponse><Key>vod/7/none/7</Key></PostResponse>');
    assert.deepEqual(await result, { status: 201, body: '<PostResponse><Key>vod/7/none/7</Key></PostResponse>' });
    assert.deepEqual(progress, [50, 750, 990, 1000]);
  });

  it('rejects another 2xx than the signed one', async () => {
    const { request, progress, result } = start();
    request.answer(204);
    await assert.rejects(result, (error: SvcError) => error.code === 'upload_failed' && error.status === 204);
    assert.deepEqual(progress, []);
  });

  it('turns an expired policy into signature_expired', async () => {
    const { request, result } = start();
    request.answer(403, s3Xml('AccessDenied', 'Invalid according to Policy: Policy expired.'));
    await assert.rejects(result, (error: SvcError) => error.code === 'signature_expired' && error.status === 403);
  });

  it('reports a dropped connection as network_error with status 0', async () => {
    const { request, result } = start();
    request.onerror!();
    await assert.rejects(result, (error: SvcError) => error.code === 'network_error' && error.status === 0);
  });

  it('aborts the request when the signal fires', async () => {
    const controller = new AbortController();
    const { request, result } = start({ signal: controller.signal });
    request.progress(500, 2000);
    controller.abort();
    assert.equal(request.aborted, true);
    await assert.rejects(result, (error: SvcError) => error.code === 'aborted');
  });

  it('sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const { request, result } = start({ signal: controller.signal });
    await assert.rejects(result, (error: SvcError) => error.code === 'aborted');
    assert.equal(request.body, undefined);
  });
});

describe('acceptsFile', () => {
  const cases: [string, string, string, boolean][] = [
    ['video/*', 'a.mp4', 'video/mp4', true],
    ['video/*', 'a.png', 'image/png', false],
    ['video/*', 'a.mkv', '', false],
    ['video/*, .mkv', 'A.MKV', '', true],
    ['video/mp4', 'a.webm', 'video/webm', false],
    ['video/mp4,video/webm', 'a.webm', 'video/webm', true],
    ['Video/MP4', 'a.mp4', 'video/mp4', true],
    ['', 'a.txt', 'text/plain', true],
    [' , ', 'a.txt', 'text/plain', true],
  ];
  for (const [accept, name, type, expected] of cases) {
    it(`${JSON.stringify(accept)} ${expected ? 'accepts' : 'refuses'} ${name} (${type || 'no type'})`, () =>
      assert.equal(acceptsFile(accept, { name, type }), expected));
  }
});

describe('checkFile', () => {
  const video = { name: 'a.mp4', type: 'video/mp4', size: 100 };
  const cases: [string, typeof video, { accept?: string; maxSize?: number }, string | undefined][] = [
    ['fits', video, { accept: 'video/*', maxSize: 100 }, undefined],
    ['empty first', { ...video, size: 0, type: 'text/plain' }, { accept: 'video/*', maxSize: 10 }, 'empty'],
    ['wrong type before size', { ...video, type: 'text/plain' }, { accept: 'video/*', maxSize: 10 }, 'type'],
    ['too large', video, { accept: 'video/*', maxSize: 99 }, 'size'],
    ['no limit known', video, { accept: 'video/*' }, undefined],
  ];
  for (const [name, file, rules, expected] of cases) {
    it(name, () => assert.equal(checkFile(file, rules), expected));
  }
});
