// `svc-error` from any thrown value, with its stable code (src/core/errors.ts).
import { toSvcError } from '../../core/errors.js';
import { emit, type SvcErrorDetail } from './events.js';

/** Fires `svc-error` with a stable code and the technical message; returns the detail. */
export function emitError(host: EventTarget, error: unknown): SvcErrorDetail {
  const { code, message } = toSvcError(error);
  const detail = { code, message };
  emit(host, 'svc-error', detail);
  return detail;
}
