// The kernel every element extends (Shoelace's base element is the model): registering the tag, the
// `relay` and `token` every element reaches the relay with, the `strings` property, the reflected
// read-only `state` attribute, the one network seam `client()` and the one way to fire `svc-error`.
// An element file then holds only what is its own.
import { LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { toSvcError, type SvcError } from '../../core/errors.js';
import type { RelayClient, RelayClientOptions } from '../../core/relay-client.js';
import { relayClient } from './client.js';
import { emit } from './events.js';
import { focusAfterUpdate } from './focus.js';
import type { ElementPort } from './part.js';
import type { Localized, StringsOverride } from './strings.js';

export abstract class SvcElement<S extends object> extends LitElement {
  /** The tag `define()` registers when it is given none. */
  protected static readonly tag: string;

  /** Registers the element under `tag` in `registry` (once); the `define.js` module does it for the default tag. */
  static define<T extends CustomElementConstructor>(this: T, tag = (this as unknown as typeof SvcElement).tag, registry: CustomElementRegistry = customElements): T {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`. */
  @property() relay?: string | null;

  /** Returns a bearer token for the relay, when the host page authenticates by header (called before each request). */
  @property({ attribute: false }) token?: RelayClientOptions['token'];

  /** Replacement strings (any of the element's strings, and error messages under `errors`); a key left out keeps the viewer's language. */
  @property({ attribute: false }) strings: StringsOverride<S> = {};

  /** The element's strings: English defaults, the viewer's language, then `strings`, merged in one place. */
  protected abstract readonly l10n: Localized<S>;

  /** Says `text` in the element's polite live region. */
  protected abstract announce(text: string): void;

  /** What the element's parts loaded with `import()` may use of it: one port, the same in every element (shared/part.ts). */
  protected readonly port: ElementPort<S> = (() => {
    const host = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the port's getters read the element
    return {
      client: () => host.client(),
      get strings() {
        return host.l10n.strings;
      },
      get locale() {
        return host.l10n.locale;
      },
      errorText: (error) => host.l10n.error(typeof error === 'string' ? error : toSvcError(error).code),
      announce: (text) => host.announce(text),
      focus: (...selectors) => void focusAfterUpdate(host, ...selectors),
      emit: (name, detail) => void emit(host, name, detail),
      emitError: (error, detail) => host.emitError(error, detail),
      requestUpdate: () => host.requestUpdate(),
    };
  })();

  /** What the element is doing; reflected as the read-only `state` attribute, for styling. */
  abstract get state(): string;

  /** The relay client: the one network seam. Override it to reach the relay another way (tests, custom auth). */
  protected client(): RelayClient {
    return relayClient(this);
  }

  /**
   * Fires `svc-error` with the stable code, the technical message and `detail`'s own fields; a
   * cancelled request (`aborted`) is no error and fires nothing. Returns the failure.
   */
  protected emitError(error: unknown, detail: object = {}): SvcError {
    const failure = toSvcError(error);
    if (failure.code !== 'aborted') emit(this, 'svc-error', { code: failure.code, message: failure.message, ...detail });
    return failure;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const state = this.state;
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
  }
}
