// The one way an element reaches the relay: `protected client(): RelayClient` returns this.
import { SvcError } from '../../core/errors.js';
import { RelayClient, type RelayClientOptions } from '../../core/relay-client.js';
import { chooseRelay } from '../../core/relay-url.js';

/** What every element has to reach the relay: its `relay` attribute and its `token` property. */
export interface RelayHost {
  relay?: string | null;
  token?: RelayClientOptions['token'];
}

/**
 * A client of the relay named by `host.relay` (else `<meta name="svc-relay">`, else `/svc`). A
 * `relay` attribute the page's owner does not allow (core/relay-url.ts, `chooseRelay`) gives a
 * client that sends nothing: each of its requests fails with `origin_not_trusted`, through the
 * element's usual error path, and the token is not even asked for.
 */
export function relayClient(host: RelayHost): RelayClient {
  const choice = chooseRelay(host.relay, document, location.href);
  if ('refused' in choice) {
    const refuse = () => Promise.reject(new SvcError('origin_not_trusted', choice.refused));
    return new RelayClient({ baseUrl: host.relay ?? '', fetch: refuse }); // no token: nothing is sent
  }
  return new RelayClient({ baseUrl: choice.baseUrl, token: host.token });
}
