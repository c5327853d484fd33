// The relay's one error type: an SvcError with an HTTP status, optional response headers
// (Retry-After) and extra body members (the current playlist on 409). app.ts maps it to a
// response in one place.
import { SvcError, type ErrorCode } from '../core/errors.js';

export class HttpError extends SvcError {
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(code, message, status, options.fields, options.extra);
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, 'validation_failed', message, { fields });
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
