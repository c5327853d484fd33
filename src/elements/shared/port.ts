// The one port an element hands the parts it loads with `import()` (the lazy-part seam, part.ts),
// made from the kernel's members. In a module of its own so that a first paint may go without it:
// the uploader, the editor and the channel setup make theirs with the element (SvcElement), the
// player with its first lazy chunk.
import type { SvcError } from '../../core/errors.js';
import type { RelayClient } from '../../core/relay-client.js';
import { focusAfterUpdate } from './focus.js';
import type { Localized } from './strings.js';
import type { SvcElementCore } from './svc-element-core.js';

/** What an element hands every part it loads: the same few things, the same way, in every element. */
export interface ElementPort<S> {
  /** The relay client (the element's `client()`, so tests that override it reach the parts too). */
  client(): RelayClient;
  /** The element's strings in the viewer's language, with the page's overrides (the same object while they do not change). */
  readonly strings: S;
  /** The language tag for `Intl` formatters. */
  readonly locale: string;
  /** What the viewer reads for a failure (an error or a stable code), in their language. */
  errorText(error: unknown): string;
  /** Says `text` in the element's polite live region. */
  announce(text: string): void;
  /** After the next render, focuses the first of `selectors` found in the element. */
  focus(...selectors: string[]): void;
  /** Fires `name` from the element (bubbling and composed, as every event of the elements). */
  emit<T>(name: string, detail: T): void;
  /** Fires `svc-error` (not for a cancelled request) with `detail`'s own fields beside the code and message; returns the failure. */
  emitError(error: unknown, detail?: object): SvcError;
  /** Renders the element again (a part's own state changed). */
  requestUpdate(): void;
}

/** The kernel's members a port reaches: protected there, so that a page does not call them. */
interface Reachable<S extends object> {
  readonly l10n?: Localized<S>;
  client(): RelayClient;
  toError(error: unknown): SvcError;
  announce?(text: string): void;
  emit<T>(name: string, detail: T): void;
  emitError(error: unknown, detail?: object): SvcError;
}

/** The port of `element`: the same few things, the same way, in every element. */
export function elementPort<S extends object>(element: SvcElementCore<S>): ElementPort<S> {
  const host = element as unknown as Reachable<S> & SvcElementCore<S>;
  return {
    client: () => host.client(),
    get strings() {
      return host.l10n!.strings;
    },
    get locale() {
      return host.l10n!.locale;
    },
    errorText: (error) => host.l10n!.error(typeof error == 'string' ? error : host.toError(error).code),
    announce: (text) => host.announce?.(text),
    focus: (...selectors) => void focusAfterUpdate(host, ...selectors),
    emit: (name, detail) => host.emit(name, detail),
    emitError: (error, detail) => host.emitError(error, detail),
    requestUpdate: () => host.requestUpdate(),
  };
}
