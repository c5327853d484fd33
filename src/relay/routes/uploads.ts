// Signed uploads: POST /uploads, GET /uploads/{id}, POST /uploads/{id}/uploaded.
import { createHash, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { paths, schemas } from '../../service/index.js';
import type { UploadCreated } from '../../core/relay-client.js';
import { HttpError, forbidden, notFound } from '../http-error.js';
import { uploadState, type UploadRecord } from '../store/store.js';
import { jsonBody, parse, pathId, uploadCreate } from '../validate.js';
import type { AppEnv, Deps } from '../deps.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest();

function gib(bytes: number) {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

export async function ownedUpload(deps: Deps, id: string, user: string): Promise<UploadRecord> {
  const upload = await deps.store.getUpload(id);
  if (!upload) throw notFound(`No upload ${id}.`);
  if (upload.owner !== user) throw forbidden(`Upload ${id} belongs to another user.`);
  return upload;
}

export function registerUploads(app: Hono<AppEnv>, deps: Deps) {
  const { config, store, upstream } = deps;

  app.post('/uploads', async (c) => {
    const user = c.get('user');
    const body = parse(uploadCreate, await jsonBody(c));
    if (body.size !== undefined && body.size > config.maxUploadBytes) {
      throw new HttpError(413, 'payload_too_large', `The file is larger than the upload limit of ${gib(config.maxUploadBytes)}.`, {
        fields: { size: `must be at most ${config.maxUploadBytes}` },
      });
    }
    if (body.type && !/^video\/[A-Za-z0-9.+-]+$/.test(body.type)) {
      throw new HttpError(415, 'unsupported_media_type', `Only video files can be uploaded (got type "${body.type.slice(0, 100)}").`, {
        fields: { type: 'must be a video/* type' },
      });
    }
    deps.createLimiter.hit(`upload:${user}`);
    const token = randomBytes(32).toString('base64url');
    const callbackUrl = `${config.publicUrl}${config.basePath}/callbacks/upload/${token}`;
    const signature = await upstream.json<Record<string, unknown>>(
      'POST',
      paths.vod(),
      { source: body.source, upload_type: 'ajax', callback_url: callbackUrl },
      schemas.uploadSignature,
    );
    const id = `up_${randomBytes(16).toString('base64url')}`;
    await store.createUpload({ id, owner: user, source: body.source, tokenHash: hashToken(token) });
    deps.log.info('upload_signed', { upload_id: id, user });
    // JSON objects keep their key order: the fields go out in the order the service sent them.
    const fields = Object.entries(signature).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return c.json({ upload_id: id, upload_url: config.uploadUrl, fields } satisfies UploadCreated, 201);
  });

  app.get('/uploads/:upload_id', async (c) => {
    const upload = await ownedUpload(deps, pathId(c, 'upload_id'), c.get('user'));
    return c.json(uploadState(upload));
  });

  app.post('/uploads/:upload_id/uploaded', async (c) => {
    const id = pathId(c, 'upload_id');
    await ownedUpload(deps, id, c.get('user'));
    const { upload } = await store.markUploaded(id);
    return c.json(uploadState(upload));
  });
}
