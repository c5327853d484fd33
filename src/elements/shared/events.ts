// Events are fired like `<img>`'s: bubbling and composed, so a page can listen on any ancestor.
import { toSvcError, type ErrorCode } from '../../core/errors.js';

export interface SvcErrorDetail {
  code: ErrorCode;
  message: string;
}

/** Dispatches `name` from `host`; returns false when a listener called `preventDefault()`. */
export function emit<T>(host: EventTarget, name: string, detail: T, options: { cancelable?: boolean } = {}): boolean {
  return host.dispatchEvent(
    new CustomEvent<T>(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }),
  );
}

/** Fires `svc-error` with a stable code and a readable message; returns the detail. */
export function emitError(host: EventTarget, error: unknown): SvcErrorDetail {
  const { code, message } = toSvcError(error);
  const detail = { code, message };
  emit(host, 'svc-error', detail);
  return detail;
}

declare global {
  interface HTMLElementEventMap {
    'svc-error': CustomEvent<SvcErrorDetail>;
  }
}
