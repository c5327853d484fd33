// The relay's one error type: an SvcError with an HTTP status, optional response headers
// (Retry-After), extra body members (the current playlist on 409) and a detail for the log only
// (what the service said beyond its reason). app.ts maps it to a response in one place.
import { SvcError, type ErrorCode } from '../core/errors.js';

export class HttpError extends SvcError {
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string>; extra?: Record<string, unknown>; detail?: string } = {},
  ) {
    super(code, message, status, options.fields, options.extra);
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.detail = options.detail;
  }
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
  /** Written to the request's log line, never sent: the service's trace and request id. */
  readonly detail: string | undefined;
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, 'validation_failed', message, { fields });
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
export const notFound = (message: string, headers?: Record<string, string>) => new HttpError(404, 'not_found', message, { headers });
