// The kernel (svc-element-core.ts) with what the uploader, the playlist editor and the channel setup
// take from their first download: the relay client of the signed-in site (shared/client.ts), the
// stable error codes (core/errors.ts) and the port of their parts (port.ts). The player takes them
// from its lazy chunks instead.
import { toSvcError, type SvcError } from '../../core/errors.js';
import type { RelayClient } from '../../core/relay-client.js';
import { relayClient } from './client.js';
import { elementPort, type ElementPort } from './port.js';
import { SvcElementCore } from './svc-element-core.js';

export abstract class SvcElement<S extends object> extends SvcElementCore<S> {
  /** What the element's parts loaded with `import()` may use of it, made with the element. */
  protected readonly port: ElementPort<S> = elementPort<S>(this);

  /** The relay client: the one network seam. Override it to reach the relay another way (tests, custom auth). */
  protected client(): RelayClient {
    return relayClient(this);
  }

  /** `error` as a failure with a stable code: a cancellation is `aborted`, anything not already an SvcError `internal`. */
  protected toError(error: unknown): SvcError {
    return toSvcError(error);
  }
}
