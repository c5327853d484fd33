// The kernel every element extends (Shoelace's base element is the model): registering the tag, the
// `relay` and `token` every element reaches the relay with, the `strings` property, the reflected
// read-only `state` attribute, the one way to fire `svc-error` and the one port its lazy parts get.
// It imports no network, error or port code, so the player's first paint can take it: the relay
// client, the stable error codes (core/) and the port (port.ts) come with SvcElement
// (svc-element.ts), or with the player's lazy chunks.
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { SvcError } from '../../core/errors.js';
import type { RelayClient, RelayClientOptions } from '../../core/relay-client.js';
import { emit } from './events.js';
import type { ElementPort } from './port.js';
import type { Localized, StringsOverride } from './strings.js';

export abstract class SvcElementCore<S extends object> extends LitElement {
  // Lit's static properties rather than decorators: lit/decorators.js would weigh on the player's
  // first paint. Lit merges them with each element's own.
  static override properties: PropertyDeclarations = { relay: {}, token: { attribute: false }, strings: { attribute: false } };

  /** The tag `define()` registers when it is given none. */
  protected static readonly tag: string;

  /** Registers the element under `tag` in `registry` (once); the `define.js` module does it for the default tag. */
  static define<T extends CustomElementConstructor>(this: T, tag = (this as unknown as typeof SvcElementCore).tag, registry = customElements): T {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`. */
  relay?: string | null;

  /** Returns a bearer token for the relay, when the host page authenticates by header (called before each request). */
  token?: RelayClientOptions['token'];

  /** Replacement strings (any of the element's strings, and error messages under `errors`); a key left out keeps the viewer's language. */
  strings: StringsOverride<S> = {};

  /** The element's strings: English defaults, the viewer's language, then `strings`, merged in one place (the player's come with its first lazy chunk). */
  protected abstract readonly l10n?: Localized<S>;

  /** What the element is doing; reflected as the read-only `state` attribute, for styling. */
  abstract get state(): string;

  /** The relay client: the one network seam. Override it to reach the relay another way (tests, custom auth). */
  protected abstract client(): RelayClient;

  /** `error` as a failure with a stable code (core/errors.ts `toSvcError`). */
  protected abstract toError(error: unknown): SvcError;

  /** Says `text` in the element's polite live region (a player has none: its parts say nothing). */
  protected announce?(text: string): void;

  /**
   * What the element's parts loaded with `import()` may use of it: one port, the same in every element
   * (`elementPort`, shared/port.ts), made with the element or, in the player, with its first lazy chunk.
   */
  protected abstract readonly port?: ElementPort<S>;

  /** Fires `name` from the element, bubbling and composed (shared/events.ts); its parts fire through here too (the port). */
  protected emit<T>(name: string, detail: T): void {
    emit(this, name, detail);
  }

  /**
   * Fires `svc-error` with the stable code, the technical message and `detail`'s own fields; a
   * cancelled request (`aborted`) is no error and fires nothing. Returns the failure.
   */
  protected emitError(error: unknown, detail: object = {}): SvcError {
    const failure = this.toError(error);
    if (failure.code != 'aborted') this.emit('svc-error', { code: failure.code, message: failure.message, ...detail });
    return failure;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const state = this.state;
    if (this.getAttribute('state') != state) this.setAttribute('state', state);
  }
}
