// The one way an element reaches the relay: `protected client(): RelayClient` returns this.
import { RelayClient, type RelayClientOptions } from '../../core/relay-client.js';
import { relayBaseUrl } from '../../core/relay-url.js';

/** What every element has to reach the relay: its `relay` attribute and its `token` property. */
export interface RelayHost {
  relay?: string | null;
  token?: RelayClientOptions['token'];
}

/** A client of the relay named by `host.relay` (else `<meta name="svc-relay">`, else `/svc`). */
export function relayClient(host: RelayHost): RelayClient {
  return new RelayClient({ baseUrl: relayBaseUrl(host.relay, document), token: host.token });
}
