// The two requests of a player's load (its embed code, the relay's config), which load.ts makes. On
// the script-tag path the loader's play button has sent both when the viewer pressed it
// (loader-preview.ts, core/fetch-ahead.ts): the relay client takes those answers then.
import type { EmbedPolicy } from '../../core/embed-code.js';
import { SvcError } from '../../core/errors.js';
import { RelayClient } from '../../core/relay-client.js';
import { narrowOrigins } from '../../core/narrow-origins.js';
import { chooseRelay, rememberPlayerOrigin } from '../../core/relay-url.js';
import { EMBED_KINDS, EMBED_VARIANTS } from '../../service/types.js';
import type { PlayerSource } from './load.js';

/**
 * The two requests of a load of `source`, started: its embed code (the given one, else the relay's)
 * and the allowed origins. The origins come only from the `GET /config` of the relay the page's
 * owner trusts (core/relay-url.ts): the `player-origin` and `iframe-origins` attributes can narrow
 * them, never add one. Throws an SvcError when the source is refused: nothing is asked of a relay then.
 */
export function ask(source: PlayerSource, client: () => RelayClient, signal?: AbortSignal): [Promise<string>, Promise<EmbedPolicy>] {
  const { kind, contentId, variant, code } = source;
  // An unknown kind or variant, or a relay the page does not trust, is refused before anything is asked of a relay.
  if (!(EMBED_KINDS as readonly string[]).includes(kind)) throw new SvcError('validation_failed', `Unknown kind "${kind}".`);
  if (!(EMBED_VARIANTS as readonly string[]).includes(variant)) throw new SvcError('validation_failed', `Unknown variant "${variant}".`);
  const relay = chooseRelay(source.relay, document, location.href);
  if ('refused' in relay) throw new SvcError('origin_not_trusted', relay.refused);
  // A relay path on the owner relay's origin gives embed codes; the origins are still the owner relay's.
  const trusted = relay.trustedUrl === relay.baseUrl ? client() : new RelayClient({ baseUrl: relay.trustedUrl });
  const markup = code != null ? Promise.resolve(code) : client().embed(kind, contentId ?? '', variant, signal).then((answer) => answer.code);
  return [
    markup,
    trusted.config(signal).then((config): EmbedPolicy => {
      rememberPlayerOrigin(relay.trustedUrl, config.player_origin); // for the click-to-load facade's preconnect
      const narrowed = narrowOrigins(config, source);
      if ('refused' in narrowed) throw new SvcError('origin_not_trusted', narrowed.refused);
      return narrowed;
    }),
  ];
}
