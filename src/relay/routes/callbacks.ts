// POST /callbacks/upload/{token}: the service's upload-complete callback (multipart file_id and
// title). Public, so it trusts nothing: bounded body, strict parsing, the token (never stored in
// clear) is the only proof, and the VOD is committed to the store before the 200.
import busboy from 'busboy';
import type { Hono } from 'hono';
import { HttpError, badRequest, notFound } from '../http-error.js';
import { ID_PATTERN, readLimitedBytes } from '../validate.js';
import { hashToken } from './uploads.js';
import type { AppEnv, Deps } from '../deps.js';

export const CALLBACK_MAX_BYTES = 64 * 1024;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

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

export function registerCallbacks(app: Hono<AppEnv>, deps: Deps) {
  app.post('/callbacks/upload/:token', async (c) => {
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new HttpError(415, 'unsupported_media_type', 'The upload callback must be multipart/form-data.');
    }
    const fields = await parseMultipart(contentType, await readLimitedBytes(c.req.raw, CALLBACK_MAX_BYTES, deps.config.bodyTimeoutMs));
    const fileId = fields.get('file_id');
    const title = fields.get('title');
    const problems: Record<string, string> = {};
    if (fileId === undefined) problems.file_id = 'is required';
    else if (!ID_PATTERN.test(fileId)) problems.file_id = 'must be 1 to 128 letters, digits, "-" or "_"';
    if (title === undefined) problems.title = 'is required';
    else if (title.length > 1000) problems.title = 'must be at most 1000 characters';
    if (Object.keys(problems).length) {
      throw badRequest(`Invalid callback: ${Object.entries(problems).map(([k, v]) => `${k} ${v}`).join('; ')}.`, problems);
    }
    const token = c.req.param('token');
    if (!TOKEN_PATTERN.test(token)) throw notFound('Unknown callback token.');
    const outcome = await deps.store.completeUpload(hashToken(token), { id: fileId!, title: title! });
    switch (outcome.status) {
      case 'unknown':
        deps.log.warn('callback_unknown_token', {});
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
