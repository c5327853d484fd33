// The two requests of a player's load (its embed code, the relay's config), in a module of their own
// with what they need only (the relay client, the origins' rules): load.ts makes them, and the
// script-tag loader's play button starts them ahead of the element when the viewer presses it
// (loader-preview.ts), while the rest of the player's code is still on its way.
import type { EmbedPolicy } from '../../core/embed-code.js';
import { SvcError } from '../../core/errors.js';
import { RelayClient } from '../../core/relay-client.js';
import { chooseRelay, narrowOrigins, rememberPlayerOrigin } from '../../core/relay-url.js';
import { EMBED_KINDS, EMBED_VARIANTS, type EmbedKind, type EmbedVariant } from '../../service/types.js';
import { relayClient } from '../shared/client.js';
import type { PlayerSource } from './load.js';

/**
 * Embed codes asked for ahead of a load (`prefetch`), by relay and content, for a minute: the next
 * load of that content takes the request instead of sending its own.
 */
const early = new Map<string, Promise<string>>();

/** `promise`, or the reason `signal` gives when it is aborted first. */
const abortable = <T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> =>
  signal
    ? Promise.race([promise, new Promise<never>((_, reject) => (signal.throwIfAborted(), signal.addEventListener('abort', () => reject(signal.reason), { once: true })))])
    : promise;

/**
 * The two requests of a load of `source`, started: its embed code (the given one, else the relay's)
 * and the allowed origins. The origins come only from the `GET /config` of the relay the page's
 * owner trusts (core/relay-url.ts): the `player-origin` and `iframe-origins` attributes can narrow
 * them, never add one. Throws an SvcError when the source is refused: nothing is asked of a relay then.
 */
export function ask(source: PlayerSource, client: () => RelayClient, signal?: AbortSignal, ahead = false): [Promise<string>, Promise<EmbedPolicy>] {
  const { kind, contentId, variant, code } = source;
  // An unknown kind or variant, or a relay the page does not trust, is refused before anything is asked of a relay.
  if (!(EMBED_KINDS as readonly string[]).includes(kind)) throw new SvcError('validation_failed', `Unknown kind "${kind}".`);
  if (!(EMBED_VARIANTS as readonly string[]).includes(variant)) throw new SvcError('validation_failed', `Unknown variant "${variant}".`);
  const relay = chooseRelay(source.relay, document, location.href);
  if ('refused' in relay) throw new SvcError('origin_not_trusted', relay.refused);
  // A relay path on the owner relay's origin gives embed codes; the origins are still the owner relay's.
  const trusted = relay.trustedUrl === relay.baseUrl ? client() : new RelayClient({ baseUrl: relay.trustedUrl });
  // An embed code asked for ahead (`prefetch`) is taken by the next load of that content.
  const key = `${relay.baseUrl} ${kind} ${contentId} ${variant}`;
  const taken = ahead ? undefined : early.get(key);
  early.delete(key);
  const markup = code != null ? Promise.resolve(code) : taken ? abortable(taken, signal) : client().embed(kind, contentId ?? '', variant, signal).then((answer) => answer.code);
  if (ahead && code == null) {
    early.set(key, markup);
    const forget = () => early.get(key) === markup && early.delete(key);
    markup.catch(forget);
    setTimeout(forget, 60_000);
  }
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

/**
 * Starts the requests of a load of `player` (a `<svc-player>` whose code is still on its way) ahead
 * of the element: the script-tag loader's play button calls it when the viewer presses it
 * (loader-preview.ts). The element's load then takes them: the relay's config, shared by the page
 * (core/relay-client.ts), and this embed request (`early`). A refused source asks nothing; every
 * failure is the load's to report.
 */
export function prefetch(player: Element): void {
  const attribute = (name: string) => player.getAttribute(name);
  const source = {
    kind: (attribute('kind') ?? 'vod') as EmbedKind,
    contentId: attribute('content-id'),
    variant: (attribute('variant') ?? 'javascript') as EmbedVariant,
    code: attribute('code'),
    relay: attribute('relay'),
    playerOrigin: attribute('player-origin'),
    iframeOrigins: attribute('iframe-origins'),
  };
  try {
    for (const request of ask(source, () => relayClient(source, 'embed'), undefined, true)) request.catch(() => {});
  } catch {
    // refused: the load says why
  }
}
