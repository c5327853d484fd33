// JSON-lines logger with redaction: every secret string the relay holds (the API key, the JWT
// secret, callback tokens) is replaced in whatever form it takes before a line leaves the
// process, and credential-like fields (passwords, stream keys) are masked.
import { maskCallbackTokens } from '../core/wire.js';

export type LogSink = (line: string) => void;

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  /**
   * The line `info('request', {method, path, status, ms})` writes, at a fraction of its cost (see
   * createLogger), with the path cut at 300 characters. `upstreamDetail`, what the service said
   * beyond its reason when it refused the request (its trace and request id), is added to the line
   * as `upstream_detail`, and the request id alone as `upstream_request_id` when it has one.
   */
  request(method: string, path: string, status: number, ms: number, upstreamDetail?: string): void;
}

const SENSITIVE_KEYS = /^(password|login|stream_name|authorization|cookie|api_key|x-api-key|token|secret|jwt_secret)$/i;

/** A prefix of a secret at least this long (or the whole secret, when shorter) counts as the secret. */
const MIN_SECRET_PREFIX = 8;

/**
 * The forms a secret takes in text it may have passed through: as it is, percent-encoded,
 * JSON-escaped, and base64 / base64url at each of the three byte alignments it can have inside a
 * longer encoded text (only the characters that depend on the secret's bytes alone). All are
 * matched case-insensitively.
 */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    // Shorter encoded cores would match unrelated text.
    if (core.length < MIN_SECRET_PREFIX) continue;
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((form) => form.length > 0).map((form) => form.toLowerCase());
}

/** Lower case with indexes unchanged (a few letters, e.g. U+0130, grow under toLowerCase). */
function lowerSameLength(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** Replaces secrets, in every form of formsOf and as long prefixes, by `[redacted]`. */
export class Redactor {
  readonly #forms: { form: string; head: string }[] = [];

  constructor(secrets: readonly string[]) {
    for (const secret of secrets) {
      if (!secret) continue;
      for (const form of formsOf(secret)) {
        this.#forms.push({ form, head: form.slice(0, Math.min(form.length, MIN_SECRET_PREFIX)) });
      }
    }
  }

  redact(text: string): string {
    const out = maskCallbackTokens(text);
    const lower = lowerSameLength(out);
    // Every match of every form, extended as far as the form goes, then merged: overlapping forms
    // (the plain key inside its percent-encoded form) leave nothing of the secret behind.
    const spans: [number, number][] = [];
    for (const { form, head } of this.#forms) {
      for (let from = lower.indexOf(head); from !== -1; from = lower.indexOf(head, from + 1)) {
        let end = from + head.length;
        while (end - from < form.length && lower[end] === form[end - from]) end++;
        spans.push([from, end]);
      }
    }
    if (!spans.length) return out;
    spans.sort((x, y) => x[0] - y[0]);
    let result = '';
    let at = 0;
    for (const [from, end] of spans) {
      if (end <= at) continue;
      result += from >= at ? `${out.slice(at, from)}[redacted]` : '';
      at = end;
    }
    return result + out.slice(at);
  }

  /** A parsed JSON value with every string (and key) redacted. */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item)) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.redact(key), this.redactValue(item)])) as T;
    }
    return value;
  }
}

const redactors = new Map<string, Redactor>();

/** Replaces each secret (in every form, see Redactor) and each callback token in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  const cacheKey = JSON.stringify(secrets);
  let redactor = redactors.get(cacheKey);
  if (!redactor) {
    if (redactors.size > 100) redactors.clear();
    redactors.set(cacheKey, (redactor = new Redactor(secrets)));
  }
  return redactor.redact(text);
}

/** A request id in the service's detail (`"request_id": "r-51f0"`, or requestId / request-id). */
const REQUEST_ID = /"request[_-]?id"\s*:\s*"([^"\\]{1,200})"/i;

/** The request line's upstream members, redacted like every other field. */
function upstreamFields(detail: string, redactor: Redactor): string {
  const id = REQUEST_ID.exec(detail)?.[1];
  const fields = `,"upstream_detail":${JSON.stringify(detail)}${id ? `,"upstream_request_id":${JSON.stringify(id)}` : ''}`;
  return redactor.redact(fields);
}

let pending = '';
let timer: ReturnType<typeof setTimeout> | undefined;
let flushOnExit = false;

function flushStderr() {
  timer = undefined;
  if (!pending) return;
  const text = pending;
  pending = '';
  process.stderr.write(text);
}

/**
 * JSON lines to stderr, written together every 10 ms at most: a write to a pipe or file is a
 * synchronous system call, and one per request (or per turn of the event loop, a few requests)
 * costs the relay a large part of its throughput. What is still buffered is written when the
 * process exits.
 */
export const stderrSink: LogSink = (line) => {
  pending += line + '\n';
  if (timer) return;
  if (!flushOnExit) process.once('exit', flushStderr);
  flushOnExit = true;
  timer = setTimeout(flushStderr, 10);
  timer.unref();
};

function isFlatAndHarmless(fields: Record<string, unknown>): boolean {
  for (const key in fields) {
    const value = fields[key];
    if ((typeof value === 'object' && value !== null) || SENSITIVE_KEYS.test(key)) return false;
  }
  return true;
}

let timeMs = -1;
let timeText = '';

/** The ISO time of now, formatted once per millisecond (Date#toISOString costs about a microsecond). */
function timestamp(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeText = new Date(now).toISOString();
  }
  return timeText;
}

export function createLogger(sink: LogSink, secrets: readonly string[]): Logger {
  const redactor = new Redactor(secrets);
  const write = (level: string, event: string, fields: Record<string, unknown> = {}) => {
    const entry = { time: timestamp(), level, event, ...fields };
    // The replacer is for nested values and credential fields; a flat line of harmless fields (the
    // request line, written for every request) is serialized without it.
    const line = isFlatAndHarmless(fields)
      ? JSON.stringify(entry)
      : JSON.stringify(entry, (key, value) => {
          if (SENSITIVE_KEYS.test(key) && value !== null && typeof value !== 'object') return '[redacted]';
          if (value instanceof Error) return { name: value.name, message: value.message };
          return value;
        });
    try {
      sink(redactor.redact(line));
    } catch {
      // a broken log sink must not break request handling
    }
  };
  // The request line is written for every request, the cached embed's included, where building and
  // redacting a whole line costs the relay a large part of its throughput. It is put together by
  // hand; its only texts, the method and the path, are redacted in their JSON form (as they would
  // be inside the line; callback tokens are masked there too) once, and remembered for the next
  // request that has the same ones.
  const texts = new Map<string, string>();
  const clean = (text: string) => {
    let json = texts.get(text);
    if (json === undefined) {
      if (texts.size >= 1000) texts.clear();
      texts.set(text, (json = redactor.redact(JSON.stringify(text))));
    }
    return json;
  };
  return {
    request: (method, path, status, ms, upstreamDetail) => {
      const shown = path.length > 300 ? path.slice(0, 300) : path;
      const upstream = upstreamDetail ? upstreamFields(upstreamDetail, redactor) : '';
      const line = `{"time":"${timestamp()}","level":"info","event":"request","method":${clean(method)},"path":${clean(shown)},"status":${status},"ms":${ms}${upstream}}`;
      try {
        sink(line);
      } catch {
        // as in write
      }
    },
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}
