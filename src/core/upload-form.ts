// The direct upload to the upload address (operation 2 of the seed): the multipart form built from
// the relay's ordered signature fields with the file last, posted with XMLHttpRequest (the only
// browser API that reports upload progress); its failures become SvcErrors (upload-errors.ts).
// DOM-free: XMLHttpRequest is looked up at call time (or injected), FormData and Blob exist in
// browsers, workers and Node.
import { SvcError, retryAfterSeconds } from './errors.js';
import { ByteProgress } from './transfer-progress.js';
import { DEFAULT_SUCCESS_STATUS, uploadError } from './upload-errors.js';

/** The signature fields as the relay returns them: `[name, value]` pairs, order significant. */
export type SignatureFields = readonly (readonly [string, string])[];

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

