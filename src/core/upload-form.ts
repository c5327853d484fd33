// The direct upload to the upload address (operation 2 of the seed): the multipart form built from
// the relay's ordered signature fields with the file last, posted with XMLHttpRequest (the only
// browser API that reports upload progress), and the upload address's S3-style XML errors turned
// into SvcErrors. DOM-free: XMLHttpRequest is looked up at call time (or injected), FormData and
// Blob exist in browsers, workers and Node.
import { SvcError, retryAfterSeconds } from './errors.js';

/** The signature fields as the relay returns them: `[name, value]` pairs, order significant. */
export type SignatureFields = readonly (readonly [string, string])[];

/** S3's default when a form names no `success_action_status`. */
const DEFAULT_SUCCESS_STATUS = 204;

/**
 * The multipart body: every signature field in the order given, then the part `file`. The Blob is
 * appended by reference; its bytes are streamed by the browser when the request is sent.
 */
export function buildUploadForm(fields: SignatureFields, file: Blob, filename?: string): FormData {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (name.toLowerCase() === 'file') continue; // the file part is ours and always last
    form.append(name, value);
  }
  const name = filename ?? (file as Partial<File>).name ?? 'file';
  form.append('file', file, name);
  return form;
}

/** The status the signed form says the upload address answers on success. */
export function successStatus(fields: SignatureFields): number {
  const value = fields.find(([name]) => name.toLowerCase() === 'success_action_status')?.[1];
  const status = Number(value);
  return Number.isInteger(status) && status >= 200 && status < 300 ? status : DEFAULT_SUCCESS_STATUS;
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!)
    .replace(/&#(x[0-9a-f]+|\d+);/gi, (_, ref: string) =>
      String.fromCodePoint(ref[0] === 'x' || ref[0] === 'X' ? parseInt(ref.slice(1), 16) : Number(ref)),
    )
    .trim();
}

/** `<Error><Code>…</Code><Message>…</Message></Error>` without a DOM; undefined when not S3 XML. */
export function parseS3Error(body: string): { code: string; message: string } | undefined {
  if (!/<Error[\s>]/.test(body)) return undefined;
  const code = /<Code>([\s\S]*?)<\/Code>/.exec(body)?.[1];
  if (code === undefined) return undefined;
  const message = /<Message>([\s\S]*?)<\/Message>/.exec(body)?.[1] ?? '';
  return { code: decodeXmlText(code), message: decodeXmlText(message) };
}

/** The SvcError for an upload that did not end in the signed success status. */
export function uploadError(status: number, body: string, expected = DEFAULT_SUCCESS_STATUS, retryAfter?: number): SvcError {
  if (status === 429 || status === 503) {
    const text = status === 429 ? 'is busy (HTTP 429)' : 'is unavailable for now (HTTP 503)';
    return new SvcError(status === 429 ? 'rate_limited' : 'upload_failed', `The upload address ${text}. Try again later.`, status, undefined, undefined, retryAfter);
  }
  if (status === 0) {
    return new SvcError('network_error', 'The connection to the upload address failed before it answered.', 0);
  }
  const s3 = parseS3Error(body);
  if (s3) {
    const detail = s3.message ? `${s3.message} (${s3.code})` : s3.code;
    if (s3.code === 'ExpiredToken' || (s3.code === 'AccessDenied' && /expired/i.test(s3.message))) {
      return new SvcError('signature_expired', `The upload signature expired before the file arrived: ${detail}`, status);
    }
    if (s3.code === 'EntityTooLarge') {
      return new SvcError('payload_too_large', `The file is larger than the upload address accepts: ${detail}`, status);
    }
    if (s3.code === 'EntityTooSmall') {
      return new SvcError('file_rejected', `The file is smaller than the upload address accepts: ${detail}`, status);
    }
    if (status >= 500) return new SvcError('upload_failed', `The upload address failed: ${detail}`, status);
    return new SvcError('upload_rejected', `The upload address refused the file: ${detail}`, status);
  }
  if (status >= 500) {
    return new SvcError('upload_failed', `The upload address failed with HTTP ${status}. Try again.`, status);
  }
  if (status >= 400) {
    return new SvcError('upload_rejected', `The upload address refused the file with HTTP ${status}.`, status);
  }
  return new SvcError('upload_failed', `The upload address answered HTTP ${status} instead of ${expected}.`, status);
}

/**
 * Byte progress of one file as a user may be told it: derived from the bytes of the whole
 * multipart body sent so far, never moving backwards, and held below the file size until the
 * upload address has answered: a fully sent body is not yet an accepted file.
 */
export class ByteProgress {
  #loaded = 0;
  #done = false;

  constructor(readonly total: number) {}

  get loaded(): number {
    return this.#loaded;
  }

  get done(): boolean {
    return this.#done;
  }

  /** The most the bar shows before the answer: 99 % of the file, and always less than all of it. */
  get ceiling(): number {
    return Math.max(0, Math.min(this.total - 1, Math.floor(this.total * 0.99)));
  }

  /** Records `bodyLoaded` of `bodyTotal` multipart bytes sent; returns the file bytes to show. */
  update(bodyLoaded: number, bodyTotal: number): number {
    if (this.#done || !(bodyTotal > 0)) return this.#loaded;
    const share = Math.floor(this.total * Math.min(1, Math.max(0, bodyLoaded) / bodyTotal));
    this.#loaded = Math.max(this.#loaded, Math.min(this.ceiling, share));
    return this.#loaded;
  }

  /** The upload address accepted the file: all of it is there. */
  complete(): number {
    this.#done = true;
    this.#loaded = this.total;
    return this.#loaded;
  }
}

/** Speed and time left from recent byte samples (a sliding window, so stalls show quickly). */
export class TransferRate {
  #samples: { at: number; bytes: number }[] = [];

  constructor(readonly windowMs = 5000) {}

  add(bytes: number, at: number): void {
    this.#samples.push({ at, bytes });
    const horizon = at - this.windowMs;
    while (this.#samples.length > 2 && this.#samples[1]!.at <= horizon) this.#samples.shift();
  }

  /** Bytes per second over the window; undefined until two samples are apart in time. */
  get bytesPerSecond(): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (!first || !last || last.at <= first.at) return undefined;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** Seconds until `remaining` bytes are sent at the current speed; undefined when unknown. */
  secondsLeft(remaining: number): number | undefined {
    const speed = this.bytesPerSecond;
    if (!speed) return undefined;
    return Math.ceil(Math.max(0, remaining) / speed);
  }
}

/** The parts of XMLHttpRequest that postForm uses (so tests and other runtimes can supply one). */
export interface UploadRequest {
  open(method: string, url: string): void;
  send(body: FormData): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  /** Absent in fakes that never answer with one. */
  getResponseHeader?(name: string): string | null;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  ontimeout: (() => void) | null;
}

export interface PostFormOptions {
  url: string;
  fields: SignatureFields;
  file: Blob;
  filename?: string;
  signal?: AbortSignal;
  /** File bytes sent so far (monotonic, below `total` until the answer, then exactly `total`). */
  onProgress?: (loaded: number, total: number) => void;
  /** Called once the whole body has been sent and the answer is awaited. */
  onSent?: () => void;
  createRequest?: () => UploadRequest;
}

export interface PostFormResult {
  status: number;
  body: string;
}

/**
 * Posts the signed form to the upload address. Resolves only when the status equals the signed
 * `success_action_status`; rejects with an SvcError (`aborted` when the signal fires).
 */
export function postForm(options: PostFormOptions): Promise<PostFormResult> {
  const { url, fields, file, signal, onProgress, onSent } = options;
  const expected = successStatus(fields);
  const progress = new ByteProgress(file.size);
  return new Promise((resolve, reject) => {
    const aborted = () => new SvcError('aborted', 'The upload was cancelled.');
    if (signal?.aborted) return reject(aborted());
    const xhr = options.createRequest?.() ?? (new XMLHttpRequest() as unknown as UploadRequest);
    let sent = false;
    const onAbort = () => xhr.abort();
    const finish = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.open('POST', url);
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const before = progress.loaded;
      const loaded = progress.update(event.loaded, event.total);
      if (loaded !== before) onProgress?.(loaded, file.size);
      if (!sent && event.loaded >= event.total) {
        sent = true;
        onSent?.();
      }
    };
    xhr.onload = () => {
      finish();
      if (xhr.status === expected) {
        onProgress?.(progress.complete(), file.size);
        resolve({ status: xhr.status, body: xhr.responseText });
      } else {
        reject(uploadError(xhr.status, xhr.responseText, expected, retryAfterSeconds(xhr.getResponseHeader?.('Retry-After'))));
      }
    };
    xhr.onerror = () => {
      finish();
      reject(uploadError(0, ''));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      finish();
      reject(aborted());
    };
    xhr.send(buildUploadForm(fields, file, options.filename));
  });
}

/** Whether a file matches an `accept` list (`video/*`, `video/mp4`, `.mkv`, comma-separated). */
export function acceptsFile(accept: string, file: { name: string; type: string }): boolean {
  const tokens = accept
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.length === 0) return true;
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return tokens.some((token) => {
    if (token.startsWith('.')) return name.endsWith(token);
    if (token.endsWith('/*')) return type.startsWith(token.slice(0, -1));
    return type === token;
  });
}

export type FileRejection = 'empty' | 'type' | 'size';

/** Why a file cannot be uploaded (checked before any signature is asked for), or undefined. */
export function checkFile(
  file: { name: string; type: string; size: number },
  rules: { accept?: string; maxSize?: number },
): FileRejection | undefined {
  if (file.size === 0) return 'empty';
  if (rules.accept && !acceptsFile(rules.accept, file)) return 'type';
  if (rules.maxSize !== undefined && file.size > rules.maxSize) return 'size';
  return undefined;
}
