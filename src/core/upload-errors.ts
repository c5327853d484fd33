// What the upload address answers when it does not accept a file (S3-style XML errors, 429, 503,
// a lost connection), as the SvcError with its stable code. DOM-free.
import { SvcError } from './errors.js';

/** S3's default when a form names no `success_action_status`. */
export const DEFAULT_SUCCESS_STATUS = 204;

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML text, not HTML: its five named entities and numeric references (`he` would also decode HTML's names, and is large). */
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
