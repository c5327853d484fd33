// The one way an element reaches the relay: `protected client(): RelayClient` returns this.
import { SvcError } from '../../core/errors.js';
import { RelayClient, type RelayClientOptions, type UploadCreated } from '../../core/relay-client.js';
import { chooseRelay, type RelayChoice } from '../../core/relay-url.js';

/** What every element has to reach the relay: its `relay` attribute and its `token` property. */
export interface RelayHost {
  relay?: string | null;
  token?: RelayClientOptions['token'];
}

/**
 * The relay `host` may send requests with its token to: the page owner's (`<meta name="svc-relay">`,
 * else `/svc`) or one the head lists in `<meta name="svc-relay-origins">`; or why not. Another path
 * on the owner relay's origin is not one (a player may take an embed code from it, nothing more).
 */
function trustedRelay(host: RelayHost): RelayChoice {
  const choice = chooseRelay(host.relay, document, location.href);
  if ('refused' in choice || choice.baseUrl === choice.trustedUrl) return choice;
  return {
    refused:
      `The relay attribute "${host.relay}" is not the page's relay: the site owner lists further relays ` +
      `(origins or relay URLs) in <meta name="svc-relay-origins" content="…"> in the page's head.`,
  };
}

/** The absolute base URL of the relay `host` uses (`trustedRelay`), or undefined when it is refused. */
export function trustedRelayUrl(host: RelayHost): string | undefined {
  const choice = trustedRelay(host);
  return 'refused' in choice ? undefined : choice.baseUrl;
}

/** The origin of `url` resolved against `base`, or undefined when it is not a URL. */
function originOf(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).origin;
  } catch {
    return undefined;
  }
}

/**
 * A client of a relay the page trusts. The signed upload address it answers must be on the origin of
 * its `GET /config`'s `upload_url`: the file is posted nowhere else (`origin_not_trusted`).
 */
class TrustedRelayClient extends RelayClient {
  override async createUpload(body: { source: string; size: number; type?: string }, signal?: AbortSignal): Promise<UploadCreated> {
    const { upload_url: configured } = await this.config(signal);
    const created = await super.createUpload(body, signal);
    const expected = originOf(configured, this.baseUrl);
    if (expected === undefined || originOf(created.upload_url, this.baseUrl) !== expected) {
      throw new SvcError('origin_not_trusted', `The relay's upload address ${created.upload_url} is not on the origin of its configured upload_url (${configured}).`);
    }
    return created;
  }
}

/**
 * A client of the relay named by `host.relay` (else `<meta name="svc-relay">`, else `/svc`). A
 * `relay` attribute the page's owner does not allow (core/relay-url.ts, `chooseRelay`) gives a
 * client that sends nothing: each of its requests fails with `origin_not_trusted`, through the
 * element's usual error path, and the token is not even asked for.
 *
 * `use` is `embed` for a player, which only GETs `/config` and embed codes (public, no token): it may
 * take its embed code from another path on the owner relay's origin, with no token (its origins
 * still come from the owner's relay, svc-player/load.ts). Every other element (`account`, the
 * default) reaches only the owner's relay or a listed one.
 */
export function relayClient(host: RelayHost, use: 'account' | 'embed' = 'account'): RelayClient {
  const choice = use === 'embed' ? chooseRelay(host.relay, document, location.href) : trustedRelay(host);
  if ('refused' in choice) {
    const refuse = () => Promise.reject(new SvcError('origin_not_trusted', choice.refused));
    return new RelayClient({ baseUrl: host.relay ?? '', fetch: refuse }); // no token: nothing is sent
  }
  if (choice.baseUrl !== choice.trustedUrl) return new RelayClient({ baseUrl: choice.baseUrl }); // embed codes only: no token
  return new TrustedRelayClient({ baseUrl: choice.baseUrl, token: host.token });
}
