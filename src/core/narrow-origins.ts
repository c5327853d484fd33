// Which origins a player may come from: the trusted relay's `GET /config`, narrowed by an element's
// attributes. Apart from core/relay-url.ts so that the click-to-load page, which needs only where
// the relay is, does not download it: the player's load does (svc-player/requests.ts).
import { allowsPlayerOrigin, originOf } from './relay-url.js';

/**
 * The origins a player may come from, given the trusted relay's `player_origin` and `iframe_origins`
 * and an element's `player-origin` and `iframe-origins` attributes, which can only narrow them; or
 * why an attribute was refused (it named an origin the relay does not trust).
 */
export function narrowOrigins(
  trusted: { player_origin?: string; iframe_origins?: readonly string[] },
  attributes: { playerOrigin?: string | null; iframeOrigins?: string | null },
): { playerOrigin?: string; iframeOrigins: string[] } | { refused: string } {
  const player = trusted.player_origin === undefined ? undefined : originOf(trusted.player_origin);
  const frames = (trusted.iframe_origins ?? []).map((origin) => originOf(origin)).filter((origin) => origin !== undefined);
  const asked = attributes.playerOrigin?.trim();
  if (!allowsPlayerOrigin(asked, player)) {
    return { refused: `player-origin "${asked}" is not the player origin of the page's relay.` };
  }
  const named = attributes.iframeOrigins?.split(/\s+/).filter(Boolean);
  const foreign = named?.find((origin) => !frames.includes(originOf(origin) ?? ''));
  if (foreign !== undefined) return { refused: `iframe-origins names "${foreign}", which the page's relay does not allow.` };
  const iframeOrigins = named ? named.map((origin) => originOf(origin)!) : asked ? frames.filter((origin) => origin === player) : frames;
  return { playerOrigin: player, iframeOrigins };
}
