// The second half of <svc-player>, loaded lazily (like `he`, when the player is to load) so that
// the first-paint chunk stays small: asks the relay for the code and its config, validates the code, then builds the player
// element fresh from `createElement`, with only validated attributes, the script URL through a
// Trusted Types policy (which checks it again) and the page's CSP nonce. The caller puts it in
// light DOM, where the vendor player.js looks for it.
import { checkScriptSrc, parseEmbedCode, type Embed, type EmbedPolicy, type EntityDecoder } from '../../core/embed-code.js';
import { SvcError, toSvcError } from '../../core/errors.js';
import { explainFetchFailure } from '../../core/fetch-failure.js';
import type { RelayConfig } from '../../core/relay-client.js';
import { EMBED_KINDS, EMBED_VARIANTS, type EmbedKind, type EmbedVariant } from '../../service/types.js';


/**
 * A GET on one of the relay's public routes (config and embed codes need no identity, so this is a
 * simple, cacheable request with no credentials or custom headers); `{error: {code, message}}`
 * answers become SvcErrors.
 */
async function relayGet<T>(url: string, signal?: AbortSignal): Promise<T> {
  try {
    const response = await fetch(url, { signal });
    const data = await response.json().catch(() => undefined);
    if (response.ok) return data as T;
    const error = data?.error;
    throw new SvcError(
      // The relay's codes are snake_case words (src/core/errors.ts); the list itself is not shipped in this chunk.
      /^[a-z_]{1,40}$/.test(error?.code) ? error.code : 'upstream_unavailable',
      typeof error?.message == 'string' ? error.message : `The relay answered ${response.status}.`,
      response.status,
    );
  } catch (error) {
    // No answer at all: the relay is down, or refused this page's origin.
    if (error instanceof TypeError && !signal?.aborted) throw await explainFetchFailure(url, error);
    throw toSvcError(error);
  }
}

/** `GET /svc/config`, once per relay. */
const configs = new Map<string, Promise<RelayConfig>>();

/** Refuses an unknown kind or variant before anything is asked of the relay. */
export function checkSource(kind: string, variant: string): void {
  if (!(EMBED_KINDS as readonly string[]).includes(kind)) throw new SvcError('validation_failed', `Unknown kind "${kind}".`);
  if (!(EMBED_VARIANTS as readonly string[]).includes(variant)) throw new SvcError('validation_failed', `Unknown variant "${variant}".`);
}

/** The embed code of `GET <relay>/embed/<kind>/<id>/<variant>`. */
export function fetchCode(relay: string, kind: EmbedKind, contentId: string, variant: EmbedVariant, signal: AbortSignal): Promise<unknown> {
  const path = [kind, contentId, variant].map(encodeURIComponent).join('/');
  return relayGet<{ code: unknown }>(`${relay}/embed/${path}`, signal).then((body) => body?.code);
}

/** `GET <relay>/config`, once per relay for every player of the page. */
export function fetchConfig(relay: string): Promise<RelayConfig> {
  let config = configs.get(relay);
  if (!config) {
    config = relayGet<RelayConfig>(`${relay}/config`);
    configs.set(relay, config);
    config.catch(() => configs.delete(relay));
  }
  return config;
}

/** The Trusted Types policy name a page must allow: `trusted-types svc-player`. */
export const POLICY_NAME = 'svc-player';

interface ScriptUrlPolicy {
  createScriptURL(input: string, playerOrigin: unknown): unknown;
}

let policy: ScriptUrlPolicy | null | undefined;

/**
 * The page's Trusted Types policy (created once, on first use), null where the browser has none,
 * undefined when the page's CSP does not allow its name (then no script URL can be set).
 */
function scriptUrlPolicy(): ScriptUrlPolicy | null | undefined {
  const factory = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } })
    .trustedTypes;
  try {
    return (policy ??= factory
      ? factory.createPolicy(POLICY_NAME, {
          createScriptURL(input: string, playerOrigin: unknown) {
            const checked = checkScriptSrc(input, playerOrigin as string);
            if (!checked.ok) throw new TypeError(`svc-player: refused script URL (${checked.reason})`);
            return input;
          },
        })
      : null);
  } catch {
    return undefined;
  }
}

/** The player element built, or why it was refused (an EmbedRejectionReason or `trusted_types`). */
export type BuiltPlayer =
  | { embed: Embed; element: HTMLScriptElement | HTMLIFrameElement }
  | { reason: string; message: string };

/** Validates `code` (decoded once with `decode`) against `policy` and builds the player element, not yet in the document. */
export function buildPlayer(
  doc: Document,
  code: unknown,
  decode: EntityDecoder,
  policy: EmbedPolicy,
  options: { nonce?: string; title: string },
): BuiltPlayer {
  const result = parseEmbedCode(code, decode, policy);
  if (!result.ok) return { reason: result.reason, message: `The embed code was refused (${result.reason}).` };
  const { embed } = result;
  const element = doc.createElement(embed.tag);
  for (const [name, value] of Object.entries(embed.attributes)) element.setAttribute(name, value);
  if (element instanceof HTMLScriptElement) {
    // The player script sizes its player from these: it fills the element's box (a code's fixed
    // pixel size would crop or overflow it).
    element.setAttribute('width', '100%');
    element.setAttribute('height', '100%');
    const tt = scriptUrlPolicy();
    if (tt === undefined) {
      const message = `The page's Trusted Types policy (CSP trusted-types) does not allow "${POLICY_NAME}".`;
      return { reason: 'trusted_types', message };
    }
    // Typed as string for the DOM lib; at run time a TrustedScriptURL where the browser has them.
    element.src = (tt ? tt.createScriptURL(embed.src, policy.playerOrigin) : embed.src) as string;
    if (options.nonce) element.nonce = options.nonce;
  } else {
    if (!element.title) element.title = options.title;
    element.src = embed.src;
    // Fills the element's box (its nearest positioned ancestor); the code's own styles are dropped.
    Object.assign(element.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', border: '0' });
  }
  return { embed, element };
}

/**
 * Calls `report` with the video's ratio (`width / height`) whenever the player learns it: `loadedmetadata`/`resize` of
 * a `<video>` a script player renders in `container`, or a `svc-player-aspect-ratio` message from
 * the iframe player (checked to come from that iframe and its origin).
 */
export function watchRatio(
  container: HTMLElement,
  player: HTMLScriptElement | HTMLIFrameElement,
  signal: AbortSignal,
  report: (ratio: string) => void,
): void {
  const size = (width: unknown, height: unknown) => {
    if (typeof width == 'number' && typeof height == 'number' && width > 0 && height > 0) report(`${width} / ${height}`);
  };
  const onMedia = ({ target }: Event) => {
    if (target instanceof HTMLVideoElement) size(target.videoWidth, target.videoHeight);
  };
  for (const type of ['loadedmetadata', 'resize']) container.addEventListener(type, onMedia, { capture: true, signal });
  if (player instanceof HTMLIFrameElement) {
    const origin = new URL(player.src).origin;
    const onMessage = ({ source, origin: from, data }: MessageEvent) => {
      if (source === player.contentWindow && from === origin && data?.type === 'svc-player-aspect-ratio') {
        size(data.width, data.height);
      }
    };
    window.addEventListener('message', onMessage, { signal });
  }
}
