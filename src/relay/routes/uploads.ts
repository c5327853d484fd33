// Signed uploads: POST /uploads, GET /uploads/{id}, POST /uploads/{id}/uploaded. The relay never
// sees the file: the size it checks is the one the browser claims. The hard limit on bytes is the
// service's signed policy (its content-length-range), which the relay reads and holds claims to.
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { paths, schemas } from '../../service/index.js';
import type { UploadCreated } from '../../core/wire.js';
import { HttpError, forbidden, notFound } from '../http-error.js';
import { uploadState, type UploadRecord } from '../store/store.js';
import { jsonBody, parse, pathId, uploadCreate } from '../validate.js';
import { callsService, type Deps } from '../deps.js';
import type { AppEnv } from '../request.js';
import { callbackExpired, failExpiredUploads, hashToken, newCallbackToken } from '../upload-tokens.js';

function gib(bytes: number) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB`;
  return bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MiB` : `${bytes} bytes`;
}

/** The largest file the signed policy allows (its content-length-range), when it says. */
function policyMaxBytes(policy: unknown): number | undefined {
  if (typeof policy !== 'string') return undefined;
  try {
    const { conditions } = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as { conditions?: unknown };
    if (!Array.isArray(conditions)) return undefined;
    const range = conditions.find((c): c is unknown[] => Array.isArray(c) && String(c[0]).toLowerCase() === 'content-length-range');
    const max = Number(range?.[2]);
    return range && Number.isSafeInteger(max) ? max : undefined;
  } catch {
    return undefined;
  }
}

const tooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The file is larger than the upload limit of ${gib(limit)}.`, {
    fields: { size: `must be at most ${limit}` },
  });

async function ownedUpload(deps: Deps, id: string, user: string): Promise<UploadRecord> {
  const upload = await deps.store.getUpload(id);
  if (!upload) throw notFound(`No upload ${id}.`);
  if (upload.owner !== user) throw forbidden(`Upload ${id} belongs to another user.`);
  return upload;
}

export function registerUploads(app: Hono<AppEnv>, deps: Deps) {
  const { config, store, upstream } = deps;

  app.post('/uploads', callsService(deps), async (c) => {
    const user = c.get('user');
    const body = parse(uploadCreate, await jsonBody(c));
    if (body.size > config.maxUploadBytes) throw tooLarge(config.maxUploadBytes);
    if (body.type && !/^video\/[A-Za-z0-9.+-]+$/.test(body.type)) {
      throw new HttpError(415, 'unsupported_media_type', `Only video files can be uploaded (got type "${body.type.slice(0, 100)}").`, {
        fields: { type: 'must be a video/* type' },
      });
    }
    deps.createLimiter.hit(`upload:${user}`);
    const token = newCallbackToken();
    const callbackUrl = `${config.publicUrl}${config.basePath}/callbacks/upload/${token}`;
    const signature = await upstream.json<Record<string, unknown>>(
      'POST',
      paths.vod(),
      { source: body.source, upload_type: 'ajax', callback_url: callbackUrl },
      schemas.uploadSignature,
      { secrets: [token] },
    );
    const policyMax = policyMaxBytes(signature.policy);
    if (policyMax !== undefined && body.size > policyMax) throw tooLarge(policyMax);
    const id = `up_${randomBytes(16).toString('base64url')}`;
    await store.createUpload({ id, owner: user, source: body.source, tokenHash: hashToken(token) });
    deps.log.info('upload_signed', { upload_id: id, user });
    // JSON objects keep their key order: the fields go out in the order the service sent them.
    const fields = Object.entries(signature).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return c.json({ upload_id: id, upload_url: config.uploadUrl, fields } satisfies UploadCreated, 201);
  });

  app.get('/uploads/:upload_id', callsService(deps), async (c) => {
    let upload = await ownedUpload(deps, pathId(c, 'upload_id'), c.get('user'));
    if ((upload.state === 'signed' || upload.state === 'processing') && callbackExpired(deps, upload)) {
      await failExpiredUploads(deps);
      upload = await ownedUpload(deps, upload.id, upload.owner);
    }
    return c.json(uploadState(upload));
  });

  app.post('/uploads/:upload_id/uploaded', async (c) => {
    const id = pathId(c, 'upload_id');
    await ownedUpload(deps, id, c.get('user'));
    const { upload } = await store.markUploaded(id);
    return c.json(uploadState(upload));
  });
}
