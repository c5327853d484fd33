// JSON-lines logger with redaction: every secret string the relay holds (the API key, the JWT
// secret) is replaced before a line leaves the process, and credential-like fields are masked.
export type LogSink = (line: string) => void;

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const SENSITIVE_KEYS = /^(password|login|stream_name|authorization|cookie|api_key|x-api-key|token|secret|jwt_secret)$/i;

let pending = '';
let scheduled = false;
let flushOnExit = false;

function flushStderr() {
  scheduled = false;
  if (!pending) return;
  const text = pending;
  pending = '';
  process.stderr.write(text);
}

/**
 * JSON lines to stderr, written once per turn of the event loop: a write to a pipe is a
 * synchronous system call on Linux, and one per request cost the relay a third of its throughput.
 * What is still buffered is written when the process exits.
 */
export const stderrSink: LogSink = (line) => {
  pending += line + '\n';
  if (scheduled) return;
  if (!flushOnExit) process.once('exit', flushStderr);
  flushOnExit = scheduled = true;
  setImmediate(flushStderr);
};

/** Replaces each secret (and its URL-encoded form) in `text` by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      out = out.split(form).join('[redacted]');
    }
  }
  return out;
}

export function createLogger(sink: LogSink, secrets: readonly string[]): Logger {
  const write = (level: string, event: string, fields: Record<string, unknown> = {}) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }, (key, value) => {
      if (SENSITIVE_KEYS.test(key) && value !== null && typeof value !== 'object') return '[redacted]';
      if (value instanceof Error) return { name: value.name, message: value.message };
      return value;
    });
    try {
      sink(redact(line, secrets));
    } catch {
      // a broken log sink must not break request handling
    }
  };
  return {
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}
