// The one error type of the project, with stable snake_case codes. The relay answers
// `{"error": {code, message, fields?}}`; elements turn any failure into an `svc-error` event
// whose detail is `{code, message}`.

export const ERROR_CODES = [
  // relay answers (see ARCHITECTURE.md, "The relay's HTTP API")
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_rejected',
  'upstream_credentials',
  'internal',
  // browser side
  'network_error',
  'relay_unreachable',
  'origin_not_allowed',
  // a `relay`, `player-origin` or `iframe-origins` attribute naming an origin the page's owner does not trust
  'origin_not_trusted',
  'aborted',
  'embed_rejected',
  'upload_failed',
  'upload_rejected',
  'signature_expired',
  'file_rejected',
  'type_required',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
}

export class SvcError extends Error {
  override name = 'SvcError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status = 0,
    readonly fields?: Record<string, string>,
    /** The response body, when the relay sent one (e.g. the current playlist on 409). */
    readonly body?: unknown,
    /** Seconds the answer's `Retry-After` asked to wait, when it said. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  toJSON(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** A `Retry-After` header in seconds (delay-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Any thrown value as an SvcError: a cancellation is `aborted`; anything else that is not already
 * an SvcError is a bug or an unexpected state, so `internal` with its own message (a programming
 * error must never tell the user to check their connection).
 */
export function toSvcError(error: unknown): SvcError {
  if (error instanceof SvcError) return error;
  if (isAbort(error)) return new SvcError('aborted', 'The request was cancelled.');
  return new SvcError('internal', error instanceof Error ? error.message : String(error));
}

/**
 * What a `fetch` (or a read of its body) threw, where only the network can have failed: the one
 * place a failure becomes `network_error`.
 */
export function networkError(error: unknown): SvcError {
  if (error instanceof SvcError || isAbort(error)) return toSvcError(error);
  return new SvcError('network_error', 'The network request failed. Check your connection and try again.');
}
