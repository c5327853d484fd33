// The one client of the service's API: base URL, X-Api-Key, X-Format, JSON bodies, a timeout on
// every attempt, GETs retried with backoff and jitter (network errors, timeouts, 429, 502-504),
// other methods never retried, an optional total budget across attempts (anonymous requests).
// Failures become HttpErrors whose messages never hold a secret, and successful bodies are
// scrubbed too: a hostile or broken service could echo the key in any field (an embed `code`).
// 401 is the relay's key refused (502 upstream_credentials); 403/404 for an id the caller gave is
// 404 not_found; 409 stays 409; any other 4xx is 400 upstream_rejected carrying the service's own
// reason (from {details}, {message}, {errors: [...]} or {error: {message}} bodies): its first line
// only. The service follows the reason with internal detail on later lines (a JSON trace and a
// request id); that goes on the error as `detail`, for the relay's log, never to a caller.
import type { z } from 'zod';
import { API_KEY_HEADER, FORMAT_HEADER, FORMAT_VALUE } from '../service/types.js';
import { backoffDelay, delay } from '../core/timing.js';
import { HttpError } from './http-error.js';
import { Redactor, type Logger } from './log.js';

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  /** Other secrets the relay holds (the JWT secret): scrubbed from every answer like the key. */
  secrets?: string[];
  timeoutMs: number;
  retries: number;
  log: Logger;
  /** Backoff base; attempt n waits about base * 2^n plus jitter (capped at 5 s or Retry-After). */
  backoffMs?: number;
}

const RETRYABLE = new Set([429, 502, 503, 504]);

/** The longest service reason the relay passes on. */
const MAX_REASON = 300;

/** The longest service detail (trace, request id) the relay logs. */
const MAX_DETAIL = 2000;

/** Errors of calls the service never answered (timeout, network): a request sent may still reach it. */
const unanswered = new WeakSet<object>();

/** True for an error of a call the service did not answer: whether it acted on the request is unknown. */
export function wasUnanswered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && unanswered.has(error);
}

type Outcome = { response: Response; text: string } | { failure: 'timeout' | 'network'; detail: string };

export interface CallOptions {
  /** The caller gave this id ("playlist 123"): the service's 403 or 404 becomes our 404 not_found. */
  given?: string;
  /** Secrets of this call (a callback token sent in the body), scrubbed from the answer too. */
  secrets?: string[];
  /** Total time for every attempt and wait together, in ms. */
  budgetMs?: number;
}

export class Upstream {
  readonly #options: UpstreamOptions;
  readonly #redactor: Redactor;

  constructor(options: UpstreamOptions) {
    this.#options = options;
    this.#redactor = new Redactor([options.apiKey, ...(options.secrets ?? [])]);
  }

  /**
   * Calls `method path` (path already encoded, relative to the base URL) and returns the parsed
   * JSON body; with `schema`, a body that does not match is a 502 (the raw body is returned).
   */
  async json<T = unknown>(method: string, path: string, body?: unknown, schema?: z.ZodType, call: CallOptions = {}): Promise<T> {
    const { retries, backoffMs = 100, timeoutMs } = this.#options;
    const redactor = call.secrets?.length ? new Redactor([this.#options.apiKey, ...(this.#options.secrets ?? []), ...call.secrets]) : this.#redactor;
    const deadline = call.budgetMs === undefined ? Infinity : Date.now() + call.budgetMs;
    const attempts = method === 'GET' ? retries + 1 : 1;
    let last: Outcome | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const retryAfter = last && 'response' in last ? Number(last.response.headers.get('retry-after')) : NaN;
        const wait = Number.isFinite(retryAfter) && retryAfter >= 0
          ? Math.min(retryAfter * 1000, 5000)
          : backoffDelay(attempt, backoffMs, 5000);
        if (Date.now() + wait >= deadline) break; // no time left for another attempt
        await delay(wait);
      }
      last = await this.#attempt(method, path, body, Math.min(timeoutMs, deadline - Date.now()), redactor);
      const retryable = 'failure' in last || RETRYABLE.has(last.response.status);
      if (!retryable) break;
      this.#options.log.warn('upstream_retryable_failure', {
        method,
        path,
        attempt: attempt + 1,
        of: attempts,
        ...('failure' in last ? { failure: last.failure, detail: last.detail } : { status: last.response.status }),
      });
    }
    return this.#result<T>(method, path, last!, redactor, schema, call);
  }

  async #attempt(method: string, path: string, body: unknown, timeoutMs: number, redactor: Redactor): Promise<Outcome> {
    const { baseUrl, apiKey } = this.#options;
    const headers: Record<string, string> = { [API_KEY_HEADER]: apiKey, [FORMAT_HEADER]: FORMAT_VALUE, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
        redirect: 'error',
      });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (controller.signal.aborted) return { failure: 'timeout', detail: `no answer within ${Math.round(timeoutMs)} ms` };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { failure: 'network', detail: this.#clean(cause?.code ?? cause?.message ?? String(error), redactor) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Upstream text made safe to show: one line, no secret in any form nor callback token (an echoed callback_url; see Redactor), short. */
  #clean(text: string, redactor: Redactor, max = 200): string {
    const line = redactor
      .redact(text)
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  }

  #result<T>(method: string, path: string, outcome: Outcome, redactor: Redactor, schema: z.ZodType | undefined, call: CallOptions): T {
    const what = `${method} ${path.split('?')[0]}`;
    if ('failure' in outcome) {
      const error = outcome.failure === 'timeout'
        ? new HttpError(504, 'upstream_timeout', `The service did not answer in time (${what}: ${outcome.detail}).`)
        : new HttpError(502, 'upstream_unavailable', `The service could not be reached (${what}: ${outcome.detail}).`);
      unanswered.add(error);
      throw error;
    }
    const { response, text } = outcome;
    const status = response.status;
    if (status >= 200 && status < 300) {
      let data: unknown = null;
      if (text.trim() === '' && !schema) return data as T;
      try {
        data = redactor.redactValue(JSON.parse(text));
      } catch {
        throw new HttpError(502, 'upstream_unavailable', `The service answered ${what} with a body that is not JSON.`);
      }
      if (schema) {
        const parsed = schema.safeParse(data);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          this.#options.log.error('upstream_unexpected_body', { method, path, issue: issue && `${issue.path.join('.')}: ${issue.message}` });
          throw new HttpError(502, 'upstream_unavailable', `The service answered ${what} with an unexpected shape.`);
        }
      }
      return data as T;
    }
    const { reason, detail } = this.#upstreamReason(text, redactor);
    const options = detail ? { detail } : {};
    if (status >= 500) {
      throw new HttpError(502, 'upstream_unavailable', `The service failed (${what} answered ${status}). Try again later.`, {
        // The caller sees no reason for a 5xx: all the service said is for the log.
        ...(reason || detail ? { detail: [reason, detail].filter(Boolean).join('\n') } : {}),
      });
    }
    if (status === 429) {
      const retryAfter = response.headers.get('retry-after');
      const seconds = retryAfter && /^\d{1,6}$/.test(retryAfter) ? retryAfter : '5';
      throw new HttpError(429, 'rate_limited', `The service is rate limiting the relay (${what}); try again in ${seconds} s.`, {
        headers: { 'Retry-After': seconds },
        ...options,
      });
    }
    this.#options.log.warn('upstream_refused', { method, path: path.split('?')[0], status, reason });
    if (status === 401) {
      throw new HttpError(502, 'upstream_credentials', 'The service refused the relay\'s API key (SVC_API_KEY); ask the site administrator to check it.', options);
    }
    if ((status === 403 || status === 404) && call.given) {
      throw new HttpError(404, 'not_found', `The service has no ${call.given} for this account.`, options);
    }
    // 409 keeps its status (code upstream_rejected: the relay's own `conflict` carries the current playlist).
    const message = `The service rejected ${what} (${status})${reason ? `: ${reason}` : '.'}`;
    throw new HttpError(status === 409 ? 409 : 400, 'upstream_rejected', this.#clean(message, redactor, MAX_REASON), options);
  }

  /**
   * The service's own reason from an error body (any form it is seen to use), or the text itself:
   * the first line of each message, cleaned to one short line; whatever follows a first line (the
   * service's JSON trace and request id) is the detail, redacted but kept as it is for the log.
   */
  #upstreamReason(text: string, redactor: Redactor): { reason: string; detail: string } {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return /^\s*</.test(text) ? { reason: '', detail: '' } : this.#split([text], redactor);
    }
    const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
    const body = (data ?? {}) as Record<string, unknown>;
    const nested = body.error as Record<string, unknown> | undefined;
    const errors = Array.isArray(body.errors) ? (body.errors as unknown[]) : [];
    const listed = errors.flatMap((entry) => {
      if (typeof entry === 'string') return [entry];
      const item = (entry ?? {}) as Record<string, unknown>;
      const message = str(item.message) ?? str(item.details);
      const property = str(item.property) ?? str(item.field);
      return message ? [property ? `${property}: ${message}` : message] : [];
    });
    const fields = nested?.fields && typeof nested.fields === 'object' ? Object.entries(nested.fields as Record<string, unknown>) : [];
    const named = fields.flatMap(([name, value]) => (str(value) ? [`${name}: ${str(value)}`] : []));
    const single = str(body.details) ?? str(body.message);
    const messages = single !== undefined ? [single] : listed.length ? listed : named.length ? named : [str(nested?.message) ?? str(body.error) ?? ''];
    return this.#split(messages, redactor);
  }

  /** First lines joined as the reason (one clean line); the later lines, redacted, as the detail. */
  #split(messages: string[], redactor: Redactor): { reason: string; detail: string } {
    const firsts: string[] = [];
    const rests: string[] = [];
    for (const message of messages) {
      const trimmed = message.trim();
      const end = trimmed.search(/[\r\n\u2028\u2029]/);
      firsts.push(end < 0 ? trimmed : trimmed.slice(0, end));
      if (end >= 0 && trimmed.slice(end).trim()) rests.push(trimmed.slice(end).trim());
    }
    const detail = redactor.redact(rests.join('\n'));
    return {
      reason: this.#clean(firsts.filter(Boolean).join('; '), redactor, MAX_REASON),
      detail: detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail,
    };
  }
}
