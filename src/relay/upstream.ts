// The one client of the service's API: base URL, X-Api-Key, X-Format, JSON bodies, a timeout on
// every attempt, GETs retried with backoff and jitter (network errors, timeouts, 429, 502-504),
// other methods never retried. Failures become HttpErrors whose messages never hold the key.
import type { z } from 'zod';
import { API_KEY_HEADER, FORMAT_HEADER, FORMAT_VALUE } from '../service/types.js';
import { HttpError } from './http-error.js';
import { redact, type Logger } from './log.js';

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
  log: Logger;
  /** Backoff base; attempt n waits about base * 2^n plus jitter (capped at 5 s or Retry-After). */
  backoffMs?: number;
}

const RETRYABLE = new Set([429, 502, 503, 504]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { response: Response; text: string } | { failure: 'timeout' | 'network'; detail: string };

export class Upstream {
  readonly #options: UpstreamOptions;

  constructor(options: UpstreamOptions) {
    this.#options = options;
  }

  /**
   * Calls `method path` (path already encoded, relative to the base URL) and returns the parsed
   * JSON body; with `schema`, a body that does not match is a 502 (the raw body is returned).
   */
  async json<T = unknown>(method: string, path: string, body?: unknown, schema?: z.ZodType): Promise<T> {
    const { retries, backoffMs = 100 } = this.#options;
    const attempts = method === 'GET' ? retries + 1 : 1;
    let last: Outcome | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const retryAfter = last && 'response' in last ? Number(last.response.headers.get('retry-after')) : NaN;
        const wait = Number.isFinite(retryAfter) && retryAfter >= 0
          ? Math.min(retryAfter * 1000, 5000)
          : Math.min(backoffMs * 2 ** (attempt - 1), 5000) * (0.5 + Math.random() / 2);
        await sleep(wait);
      }
      last = await this.#attempt(method, path, body);
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
    return this.#result<T>(method, path, last!, schema);
  }

  async #attempt(method: string, path: string, body: unknown): Promise<Outcome> {
    const { baseUrl, apiKey, timeoutMs } = this.#options;
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
      if (controller.signal.aborted) return { failure: 'timeout', detail: `no answer within ${timeoutMs} ms` };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { failure: 'network', detail: this.#clean(cause?.code ?? cause?.message ?? String(error)) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Upstream text made safe to show: no key, no callback token (an echoed callback_url), short. */
  #clean(text: string): string {
    return redact(text, [this.#options.apiKey])
      .replace(/(callbacks\/upload\/)[A-Za-z0-9_-]+/g, '$1[token]')
      .slice(0, 200);
  }

  #result<T>(method: string, path: string, outcome: Outcome, schema?: z.ZodType): T {
    const what = `${method} ${path.split('?')[0]}`;
    if ('failure' in outcome) {
      if (outcome.failure === 'timeout') {
        throw new HttpError(504, 'upstream_timeout', `The service did not answer in time (${what}: ${outcome.detail}).`);
      }
      throw new HttpError(502, 'upstream_unavailable', `The service could not be reached (${what}: ${outcome.detail}).`);
    }
    const { response, text } = outcome;
    const status = response.status;
    if (status >= 200 && status < 300) {
      let data: unknown = null;
      if (text.trim() === '' && !schema) return data as T;
      try {
        data = JSON.parse(text);
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
    const detail = this.#upstreamMessage(text);
    if (status >= 500) {
      throw new HttpError(502, 'upstream_unavailable', `The service failed (${what} answered ${status}). Try again later.`);
    }
    if (status === 429) {
      const retryAfter = response.headers.get('retry-after');
      const seconds = retryAfter && /^\d{1,6}$/.test(retryAfter) ? retryAfter : '5';
      throw new HttpError(429, 'rate_limited', `The service is rate limiting the relay (${what}); try again in ${seconds} s.`, {
        headers: { 'Retry-After': seconds },
      });
    }
    // 401/403 mean the relay's own credentials are refused: not the caller's fault.
    const passed = status === 401 || status === 403 ? 502 : [404, 409, 413, 415, 422].includes(status) ? status : 400;
    throw new HttpError(passed === 422 ? 400 : passed, 'upstream_rejected', `The service rejected ${what} with ${status}${detail ? `: ${detail.replace(/\.+$/, '')}` : ''}.`);
  }

  /** A short, key-free message from an upstream error body, when it has one. */
  #upstreamMessage(text: string): string {
    let message = text;
    try {
      const data = JSON.parse(text) as Record<string, unknown>;
      const candidate = (data.error as Record<string, unknown> | undefined)?.message ?? data.message ?? data.error;
      message = typeof candidate === 'string' ? candidate : '';
    } catch {
      // not JSON: use the text itself
    }
    return this.#clean(message.replace(/[\r\n\t]+/g, ' ').trim());
  }
}
