// The second half of <svc-player>, loaded lazily (like `he`, when the player is to load) so that
// the first-paint chunk stays small: the load (a Task of @lit/task), the relay client (its shared
// `GET /config` and the embed code), the viewer's language, the validator and the builder. The
// player element is built fresh from `createElement`, with only validated attributes, the script
// URL through a Trusted Types policy (which checks it again) and the page's CSP nonce; the load puts
// it in the element's light DOM, where the vendor player.js looks for it.
import type { ReactiveControllerHost } from 'lit';
import { Task } from '@lit/task';
import { checkScriptSrc, parseEmbedCode, type Embed, type EmbedPolicy, type EntityDecoder } from '../../core/embed-code.js';
import { SvcError, networkError } from '../../core/errors.js';
import { RelayClient } from '../../core/relay-client.js';
import { chooseRelay, narrowOrigins, rememberPlayerOrigin } from '../../core/relay-url.js';
export { headMeta } from '../../core/relay-url.js';
import { EMBED_KINDS, EMBED_VARIANTS } from '../../service/types.js';
import type { SvcPlayer, SvcPlayerReadyDetail } from './svc-player.js';
import type { MediaBridge } from './media-bridge.js';
export { MediaBridge } from './media-bridge.js';

export { toSvcError } from '../../core/errors.js';

/** Which of the viewer's short messages an error code shows (in this lazy chunk: the first paint needs none). */
export type ViewerMessage = 'notHere' | 'failed' | 'unavailable';

/** Codes after which trying again later may help. */
const TRANSIENT = /^(network_error|upstream_unavailable|upstream_timeout|rate_limited|internal)$/;
/** Failures the site's owner must fix (the page's origin, the relay's address, identity or key), not the viewer. */
const SITE = /^(origin_not_allowed|relay_unreachable|unauthorized|upstream_credentials)$/;

/** "This video cannot be shown here." for a setting to fix, "try again later" for a passing failure, else "not available". */
export function viewerMessage(code: string): ViewerMessage {
  return SITE.test(code) ? 'notHere' : TRANSIENT.test(code) ? 'failed' : 'unavailable';
}
export { relayClient } from '../shared/client.js';
export { localize } from './localize.js';

/** `he` is large: loaded once, on first need, in parallel with the embed-code request. */
let decoder: Promise<EntityDecoder> | undefined;
const loadDecoder = () =>
  (decoder ??= import('he').then(
    (module) => (text: string) => module.default.decode(text),
    (error: unknown) => {
      decoder = undefined;
      throw networkError(error);
    },
  ));

/** What names the player to build: the element's source attributes. */
export type PlayerSource = Pick<SvcPlayer, 'kind' | 'contentId' | 'variant' | 'code' | 'relay' | 'playerOrigin' | 'iframeOrigins'>;

/**
 * The player of `source`, built and not yet in the document: the embed code (given, or the relay's)
 * and the allowed origins at once, with `he`; the code validated. The origins come only from the
 * `GET /config` of the relay the page's owner trusts (core/relay-url.ts): the `player-origin` and
 * `iframe-origins` attributes can narrow them, never add one. Throws an SvcError when the source or
 * the code is refused or the relay fails.
 */
async function preparePlayer(
  source: PlayerSource,
  client: () => RelayClient,
  options: { nonce?: string; title: string },
  signal: AbortSignal,
): Promise<{ embed: Embed; element: HTMLScriptElement | HTMLIFrameElement }> {
  const { kind, contentId, variant, code } = source;
  // An unknown kind or variant, or a relay the page does not trust, is refused before anything is asked of a relay.
  if (!(EMBED_KINDS as readonly string[]).includes(kind)) throw new SvcError('validation_failed', `Unknown kind "${kind}".`);
  if (!(EMBED_VARIANTS as readonly string[]).includes(variant)) throw new SvcError('validation_failed', `Unknown variant "${variant}".`);
  const relay = chooseRelay(source.relay, document, location.href);
  if ('refused' in relay) throw new SvcError('origin_not_trusted', relay.refused);
  // A relay path on the owner relay's origin gives embed codes; the origins are still the owner relay's.
  const trusted = relay.trustedUrl === relay.baseUrl ? client() : new RelayClient({ baseUrl: relay.trustedUrl });
  const [decode, markup, policy] = await Promise.all([
    loadDecoder(),
    code != null ? code : client().embed(kind, contentId ?? '', variant, signal).then((answer) => answer.code),
    trusted.config(signal).then((config): EmbedPolicy => {
      rememberPlayerOrigin(relay.trustedUrl, config.player_origin); // for the click-to-load facade's preconnect
      const narrowed = narrowOrigins(config, source);
      if ('refused' in narrowed) throw new SvcError('origin_not_trusted', narrowed.refused);
      return narrowed;
    }),
  ]);
  const built = buildPlayer(document, markup, decode, policy, options);
  if ('reason' in built) throw new SvcError('embed_rejected', built.message);
  return built;
}

/** A player in the element's light DOM, from its injection until `remove()`. */
export interface Shown {
  container: HTMLElement;
  /**
   * Ends what the player listens to (its ratio, a play request); aborted by `remove()`. Not the
   * task's signal: that one is never aborted once its run has completed.
   */
  signal: AbortSignal;
  /** The injected iframe that had no title: it carries the viewer's `title` string. */
  titled?: HTMLIFrameElement;
  /** Takes the player out of the page and ends what it listens to. */
  remove(): void;
}

/** What the load needs of the element, besides its source attributes. */
export interface LoadContext {
  /** The element's load count: a run whose count is no longer the element's has been replaced or reset. */
  generation(): number;
  client(): RelayClient;
  /** The nonce and the title the player is built with. */
  options(): { nonce?: string; title: string };
  /** The player is injected (and loading). */
  show(shown: Shown): void;
  /** The video's ratio, whenever the player learns it. */
  ratio(ratio: string): void;
  onComplete(detail: SvcPlayerReadyDetail): void;
  onError(error: unknown): void;
  /** Follows the `<video>` of each script player (the element's media properties and events). */
  media: MediaBridge;
}

/** A run's argument: the element's `generation()` when it started. */
export type PlayerTask = Task<[number], SvcPlayerReadyDetail>;

/**
 * The element's load, a Task made here so that the task module stays out of the first paint. Each
 * run prepares the player, injects it (`show`) and completes on its `load` event (fails on its
 * `error`): `svc-player-ready` means the player loaded. A newer run or `abort()` ends the one under
 * way; removing what it injected is the element's.
 *
 * The element's generation decides too: @lit/task aborts only a run it still records as pending,
 * and a run started from a listener of `svc-player-ready` or `svc-error` (an element moved in the
 * document at that moment) is recorded as done once that listener returns.
 */
export function playerTask(host: ReactiveControllerHost & HTMLElement & PlayerSource, context: LoadContext): PlayerTask {
  const { client, ratio, show, onComplete, media } = context;
  const onError = (error: unknown) => {
    media.fail(error); // a play() waiting for this load's video
    context.onError(error);
  };
  return new Task(host, {
    autoRun: false,
    task: async ([generation], { signal }) => {
      const { kind } = host;
      const contentId = host.contentId ?? '';
      const { embed, element } = await preparePlayer(host, client, context.options(), signal);
      // Every abort follows a reset of the element, which counts a generation.
      if (generation !== context.generation()) throw new DOMException('A newer load replaced this one.', 'AbortError');
      const life = new AbortController();
      const container = document.createElement('div');
      watchRatio(container, element, life.signal, ratio);
      container.slot = 'player';
      container.append(element);
      const titled = element instanceof HTMLIFrameElement && !embed.attributes.title ? element : undefined;
      const source = { kind, contentId: contentId || (embed.contentId ?? '') };
      if (embed.tag == 'script') media.follow(container, source, life.signal);
      else media.fail(notSupported());
      // Settles on the player's load or error, or when the player is removed (every reset removes it).
      const loaded = new Promise((resolve, reject) => {
        const removed = life.signal;
        removed.addEventListener('abort', () => reject(removed.reason), { once: true });
        element.addEventListener('load', resolve, { once: true, signal: removed });
        const failed = () => reject(new SvcError('network_error', 'The player could not be loaded.'));
        element.addEventListener('error', failed, { once: true, signal: removed });
      });
      show({ container, signal: life.signal, titled, remove: () => (life.abort(), container.remove()) });
      host.append(container);
      await loaded;
      return {
        ...source,
        variant: embed.tag == 'script' ? 'javascript' : 'iframe',
        element,
      };
    },
    // @lit/task swallows what its callbacks throw: a failure while the player is being shown is the load's.
    onComplete: (detail) => {
      try {
        onComplete(detail);
      } catch (error) {
        onError(error);
      }
    },
    onError,
  });
}

/** What `play()` rejects with for an iframe player: it lives on another origin, out of the page's reach. */
export const notSupported = () => new DOMException('An iframe player cannot be played from the page.', 'NotSupportedError');

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
type BuiltPlayer =
  | { embed: Embed; element: HTMLScriptElement | HTMLIFrameElement }
  | { reason: string; message: string };

/** Validates `code` (decoded once with `decode`) against `policy` and builds the player element, not yet in the document. */
function buildPlayer(
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
function watchRatio(
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
