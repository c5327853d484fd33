// Events are fired like `<img>`'s: bubbling and composed, so a page can listen on any ancestor.
// DOM only (no error module), so the player's first paint can take it.
import type { ErrorCode } from '../../core/errors.js';

export interface SvcErrorDetail {
  code: ErrorCode;
  message: string;
}

/** Dispatches `name` from `host`; returns false when a listener called `preventDefault()`. */
export function emit<T>(host: EventTarget, name: string, detail: T, options?: { cancelable?: boolean }): boolean {
  return host.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true, ...options }));
}

declare global {
  interface HTMLElementEventMap {
    'svc-error': CustomEvent<SvcErrorDetail>;
  }
}
