// POST /callbacks/upload/{token}: the service's upload-complete callback (multipart file_id and
// title). Public, so it trusts nothing: the token (never stored in clear, valid for
// SVC_CALLBACK_TTL_S) is the only proof and is checked before the body is read; then a bounded
// body, strict parsing, the API's title rule, and the VOD committed to the store before the 200.
import busboy from 'busboy';
import type { Hono } from 'hono';
import { HttpError, badRequest, notFound } from '../http-error.js';
import { callbackFields, parse, readLimitedBytes } from '../validate.js';
import type { ClientAddress } from '../client-address.js';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../request.js';
import { callbackExpired, failExpiredUploads, hashToken, isCallbackToken } from '../upload-tokens.js';

const CALLBACK_MAX_BYTES = 64 * 1024;

/** The text parts of a multipart/form-data body (file parts are refused). */
export function parseMultipart(contentType: string, body: Uint8Array): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fields: 20, fieldSize: 8 * 1024, files: 0, parts: 20 },
      });
    } catch {
      reject(badRequest('The callback body is not valid multipart/form-data (missing boundary).'));
      return;
    }
    const fields = new Map<string, string>();
    let problem: string | undefined;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) problem = `part ${name.slice(0, 50)} is too long`;
      if (!fields.has(name)) fields.set(name, value);
    });
    parser.on('file', (_name, stream) => {
      problem = 'file parts are not accepted';
      stream.resume();
    });
    parser.on('filesLimit', () => (problem = 'file parts are not accepted'));
    parser.on('fieldsLimit', () => (problem = 'too many parts'));
    parser.on('partsLimit', () => (problem = 'too many parts'));
    parser.on('error', (error: Error) => reject(badRequest(`The callback body is not valid multipart/form-data (${error.message}).`)));
    parser.on('close', () => (problem ? reject(badRequest(`Invalid callback body: ${problem}.`)) : resolve(fields)));
    parser.end(Buffer.from(body));
  });
}

export function registerCallbacks(app: Hono<AppEnv>, deps: Deps, clientAddress: ClientAddress) {
  app.post('/callbacks/upload/:token', async (c) => {
    // The token first: a forged callback costs one indexed lookup, its body is never read (the
    // connection is closed instead), and forgeries count against the sender's address.
    const token = c.req.param('token');
    const upload = isCallbackToken(token) ? await deps.store.uploadByToken(hashToken(token)) : undefined;
    if (!upload || callbackExpired(deps, upload)) {
      if (upload) await failExpiredUploads(deps);
      deps.log.warn(upload ? 'callback_expired_token' : 'callback_unknown_token', upload ? { upload_id: upload.id } : {});
      const address = clientAddress(c.env, c.req.raw);
      if (address) deps.publicLimiter.hit(`callback:${address}`);
      throw new HttpError(404, 'not_found', 'Unknown or expired callback token.', { headers: { Connection: 'close' } });
    }
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new HttpError(415, 'unsupported_media_type', 'The upload callback must be multipart/form-data.');
    }
    const parts = await parseMultipart(contentType, await readLimitedBytes(c.req.raw, CALLBACK_MAX_BYTES, deps.config.bodyTimeoutMs));
    const { file_id: fileId, title } = parse(callbackFields, Object.fromEntries(parts));
    const outcome = await deps.store.completeUpload(hashToken(token), { id: fileId, title });
    switch (outcome.status) {
      case 'unknown':
        throw notFound('Unknown callback token.');
      case 'conflict':
        deps.log.warn('callback_conflict', { upload_id: outcome.upload.id, vod_id: fileId });
        throw new HttpError(409, 'conflict', 'This upload already completed with a different file_id.');
      case 'duplicate':
        deps.log.info('callback_duplicate', { upload_id: outcome.upload.id, vod_id: fileId });
        return c.json({ ok: true, duplicate: true });
      case 'stored':
        deps.log.info('callback_stored', { upload_id: outcome.upload.id, vod_id: fileId, user: outcome.upload.owner });
        return c.json({ ok: true });
    }
  });
}
