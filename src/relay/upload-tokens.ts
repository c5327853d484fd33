// The callback token of a signed upload: made fresh for each upload, sent to the service only
// inside the callback URL, stored only as its SHA-256 (the store finds an upload by the hash, so a
// lookup's timing tells nothing about the token), and valid SVC_CALLBACK_TTL_S from the signing.
// An upload whose token expired before its callback came can no longer complete: it becomes
// "failed", and its owner hears it (through the store's event feed).
import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from './deps.js';
import type { UploadRecord } from './store/store.js';

/** 32 random bytes, base64url: 43 characters. */
export const newCallbackToken = () => randomBytes(32).toString('base64url');

/** Whether `token` has the form newCallbackToken makes (anything else is refused unread). */
export const isCallbackToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** What the store keeps of a token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Whether the callback token of `upload` has outlived SVC_CALLBACK_TTL_S. */
export function callbackExpired(deps: Deps, upload: UploadRecord, now = Date.now()): boolean {
  return Date.parse(upload.createdAt) + deps.config.callbackTtlS * 1000 <= now;
}

/** Uploads whose callback can no longer arrive become "failed" (each logged once). */
export async function failExpiredUploads(deps: Deps): Promise<void> {
  const before = new Date(Date.now() - deps.config.callbackTtlS * 1000).toISOString();
  for (const event of await deps.store.failExpiredUploads(before)) {
    deps.log.warn('upload_callback_expired', { upload_id: event.data.upload_id, user: event.owner });
  }
}
