// The upload address ({upload_url}, operation 2): S3-style browser POST uploads. The multipart
// body is parsed as it streams (busboy) and the file goes straight to disk, so memory stays flat
// whatever the size. The form is verified when the file part starts: by then every field before
// it has arrived, as S3 requires.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { UPLOAD_SIGNATURE_FIELDS } from '../service/types.js';
import type { ServiceContext } from './context.js';
import { drain, faults } from './http.js';
import { S3Error, verifyPostForm, type FormFields } from './s3-post.js';
import { postResponse, s3ErrorResponse } from './s3-xml.js';
import type { VodRecord } from './store.js';

/** The fields of a signature made with temporary credentials, in the order returned. */
const SIGNATURE_WITH_TOKEN = [...UPLOAD_SIGNATURE_FIELDS.slice(0, -1), 'x-amz-security-token', 'x-amz-signature'];

const FAULT_CODES: Record<number, string> = {
  400: 'InvalidRequest',
  403: 'AccessDenied',
  404: 'NoSuchBucket',
  500: 'InternalError',
  503: 'SlowDown',
};

export function uploadApp(ctx: ServiceContext): Hono {
  const app = new Hono();
  app.use('*', cors({ origin: '*', allowMethods: ['POST'], exposeHeaders: ['ETag', 'Location'], maxAge: 600 }));
  app.use('*', faults(ctx.control, 'upload', async (status, request) => {
    await drain(request.body);
    const code = FAULT_CODES[status] ?? 'InjectedFault';
    return s3ErrorResponse(new S3Error(code, status, `Answer ${status} injected by the control API.`));
  }));
  app.post('/', (c) => receive(ctx, c.req.raw, undefined));
  app.post('/:bucket', (c) => receive(ctx, c.req.raw, c.req.param('bucket')));
  app.onError((error) => {
    ctx.log.warn('upload_error', { message: error.message });
    return s3ErrorResponse(new S3Error('InternalError', 500, 'We encountered an internal error. Please try again.'));
  });
  app.all('*', async (c) => {
    await drain(c.req.raw.body);
    return s3ErrorResponse(new S3Error('MethodNotAllowed', 405, 'Only POST uploads to / or /<bucket> are supported.'));
  });
  return app;
}

async function receive(ctx: ServiceContext, request: Request, pathBucket: string | undefined): Promise<Response> {
  const upload = new Upload(ctx, pathBucket);
  const response = await upload.run(request);
  ctx.control.recordUpload({
    key: upload.key ?? null,
    vod_id: upload.vod?.id ?? null,
    field_names: upload.names,
    size: upload.size,
    status: response.status,
  });
  ctx.log.info('upload', { key: upload.key, status: response.status, size: upload.size });
  return response;
}

/** One POST to the upload address, from first byte to answer. */
class Upload {
  /** Part names in received order, as sent (file included). */
  readonly names: string[] = [];
  readonly fields: FormFields = new Map();
  key?: string;
  vod?: VodRecord;
  size = 0;
  #problem?: S3Error;
  #fileSeen = false;
  #fieldsAfterFile = false;
  #maxBytes = 0;
  #minBytes = 0;
  #temp?: string;
  #out?: WriteStream;
  #written?: Promise<unknown>;
  #file?: Readable;
  #md5 = createHash('md5');
  /** This upload holds its VOD's form (VodRecord.receiving) until it succeeds or fails. */
  #reserved = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly pathBucket: string | undefined,
  ) {}

  async run(request: Request): Promise<Response> {
    const contentType = request.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
      await drain(request.body);
      return s3ErrorResponse(
        new S3Error('PreconditionFailed', 412, 'Bucket POST must be of the enclosure-type multipart/form-data.'),
      );
    }
    const bucket = this.pathBucket ?? this.ctx.config.bucket;
    if (bucket !== this.ctx.config.bucket) {
      await drain(request.body);
      return s3ErrorResponse(new S3Error('NoSuchBucket', 404, `The bucket "${bucket}" does not exist.`));
    }
    try {
      await this.#parse(request.body, contentType);
    } catch {
      this.#fail(new S3Error('MalformedPOSTRequest', 400, 'The body of your POST request is not well-formed multipart/form-data.'));
    }
    // Let the file close before it is kept or removed (a late open could recreate a removed file).
    await this.#written;
    if (!this.#problem) this.#finish();
    if (this.#problem) {
      if (this.#temp) await rm(this.#temp, { force: true });
      if (this.#reserved) this.vod!.receiving = false;
      return s3ErrorResponse(this.#problem);
    }
    return this.#store(bucket);
  }

  #parse(body: ReadableStream<Uint8Array>, contentType: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fieldSize: 64 * 1024, fields: 100, parts: 101, fieldNameSize: 200 },
        preservePath: false,
      });
      const input = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
      parser.on('field', (name, value, info) => {
        this.names.push(name);
        if (this.#fileSeen) {
          this.#fieldsAfterFile = true;
          return;
        }
        const lower = name.toLowerCase();
        if (info.valueTruncated) this.#fail(new S3Error('InvalidArgument', 400, `The field ${name} is too long.`));
        else if (this.fields.has(lower)) this.#fail(new S3Error('InvalidArgument', 400, `The field ${name} appears twice.`));
        else this.fields.set(lower, value);
      });
      parser.on('file', (name, stream, info) => {
        this.names.push(name);
        if (this.#fileSeen || name.toLowerCase() !== 'file') {
          this.#fail(new S3Error('InvalidArgument', 400, `Only one file part, named "file", is allowed (got "${name}").`));
        }
        this.#fileSeen = true;
        if (!this.#problem) this.#start(info.filename);
        this.#consume(stream);
      });
      parser.on('partsLimit', () => this.#fail(new S3Error('InvalidArgument', 400, 'Too many form fields.')));
      parser.on('fieldsLimit', () => this.#fail(new S3Error('InvalidArgument', 400, 'Too many form fields.')));
      parser.on('error', (error) => {
        input.unpipe(parser);
        input.resume(); // drain the rest so the client reads our answer
        reject(error);
      });
      parser.on('close', resolve);
      input.on('error', reject);
      input.pipe(parser);
    });
  }

  /** The file part begins: verify the form, then open the file it streams to. */
  #start(filename: string | undefined): void {
    const { config, store } = this.ctx;
    try {
      const range = verifyPostForm(this.fields, config.credentials, {
        now: new Date(),
        maxBytes: config.maxUploadBytes,
        bucket: config.bucket,
        ...(config.securityToken ? { securityToken: config.securityToken } : {}),
      });
      this.#minBytes = range.minBytes;
      this.#maxBytes = range.maxBytes;
      this.key = this.fields.get('key')!.replaceAll('${filename}', filename ?? '');
      if (!this.key) throw new S3Error('InvalidArgument', 400, 'The key must not be empty.');
      const vod = store.vodByKey(this.key);
      if (vod) {
        this.vod = vod;
        this.#checkVodForm(vod);
        this.#reserved = true;
      }
    } catch (error) {
      this.#fail(error as S3Error);
      return;
    }
    this.#temp = join(config.dataDir, `${randomUUID()}.part`);
    const out = createWriteStream(this.#temp);
    this.#out = out;
    // 'close' follows both a finished and a failed file, so waiting for it never hangs.
    this.#written = new Promise<void>((resolve) => out.on('close', () => resolve()));
    out.on('error', (error: NodeJS.ErrnoException) =>
      this.#fail(new S3Error('InternalError', 500, `The file could not be stored (${error.code ?? error.message}).`)),
    );
  }

  /** A VOD's form carries exactly the signature fields in the returned order, then `file`. */
  #checkVodForm(vod: VodRecord): void {
    const expected = this.ctx.config.securityToken ? SIGNATURE_WITH_TOKEN : UPLOAD_SIGNATURE_FIELDS;
    const sent = this.names.slice(0, -1).map((name) => name.toLowerCase());
    const missing = expected.filter((name) => !sent.includes(name));
    if (missing.length) throw new S3Error('AccessDenied', 403, `The form lacks the field(s): ${missing.join(', ')}.`);
    if (sent.join('\n') !== expected.join('\n')) {
      throw new S3Error('AccessDenied', 403, `The form fields must be sent in the order returned: ${expected.join(', ')}, then file.`);
    }
    if (vod.status !== 'awaiting_upload') {
      throw new S3Error('AccessDenied', 403, 'This upload form was already used.');
    }
    if (vod.receiving) {
      throw new S3Error('AccessDenied', 403, 'Another upload with this form is in progress.');
    }
    vod.receiving = true;
  }

  /** Reads the file part to its end: to disk while all is well, discarded after a problem. */
  #consume(stream: Readable): void {
    this.#file = stream;
    stream.on('data', (chunk: Buffer) => {
      this.size += chunk.length;
      if (!this.#out || this.#problem) return;
      if (this.size > this.#maxBytes) {
        this.#fail(new S3Error('EntityTooLarge', 400, `Your proposed upload exceeds the maximum allowed size of ${this.#maxBytes} bytes.`));
        return;
      }
      this.#md5.update(chunk);
      if (!this.#out.write(chunk)) {
        stream.pause();
        this.#out.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => {
      if (this.#out && !this.#out.writableEnded && !this.#out.destroyed) this.#out.end();
    });
  }

  #fail(problem: S3Error): void {
    this.#problem ??= problem;
    if (this.#out && !this.#out.writableEnded && !this.#out.destroyed) this.#out.end();
    // The rest of the file is discarded; a stream paused for 'drain' would otherwise wait forever.
    this.#file?.resume();
  }

  /** Checks that need the whole body. */
  #finish(): void {
    if (!this.#fileSeen) {
      this.#fail(new S3Error('InvalidArgument', 400, 'POST requires exactly one file upload per request.'));
    } else if (this.size < this.#minBytes) {
      this.#fail(new S3Error('EntityTooSmall', 400, `Your proposed upload is smaller than the minimum allowed size of ${this.#minBytes} bytes.`));
    } else if (this.vod && this.#fieldsAfterFile) {
      this.#fail(new S3Error('AccessDenied', 403, 'The file must be the last field of the form.'));
    }
  }

  async #store(bucket: string): Promise<Response> {
    const { store, config, encoder, urls } = this.ctx;
    const file = this.#temp!.replace(/\.part$/, '');
    await rename(this.#temp!, file);
    const key = this.key!;
    if (this.vod) {
      this.vod.file = file;
      this.vod.size = this.size;
      this.vod.receiving = false;
      encoder.process(this.vod);
    } else {
      const previous = store.objects.get(key);
      if (previous) await rm(previous.file, { force: true });
      store.objects.set(key, { file, size: this.size });
    }
    const status = Number(this.fields.get('success_action_status'));
    return postResponse({
      status: [200, 201, 204].includes(status) ? status : 204,
      location: `${urls.uploadUrl}/${config.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
      bucket,
      key,
      etag: `"${this.#md5.digest('hex')}"`,
    });
  }
}
