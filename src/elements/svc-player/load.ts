// The load chunk of <svc-player>, loaded lazily (when the player is to load) so that the
// first-paint chunk stays small: the load (a Task of @lit/task) with the relay client (its shared
// `GET /config` and the embed code), the viewer's language and error codes; the builder
// (build.ts), the ratio watcher (ratio.ts) and the media bridge (media-bridge.ts) come with it. The
// load puts the built player in the element's light DOM, where the vendor player.js looks for it.
import type { ReactiveControllerHost } from 'lit';
import { decoderFor } from '../shared/entities.js';
import type { ElementPort } from '../shared/port.js';
import { Task, initialState } from '@lit/task';
// Lit whole, as the element has it: @lit/task imports a part of it (@lit/reactive-element), and a
// bundler that makes a file of each set of importers (esbuild) would make that part a file of its
// own in every first paint (bench, esbuild: 0.06 KB more for a player, 0.21 KB for all four).
import 'lit';
import type { Embed } from '../../core/embed-code.js';
import { SvcError, toSvcError as svcError } from '../../core/errors.js';
import type { RelayClient } from '../../core/relay-client.js';
import { headMeta } from '../../core/relay-url.js';
import type { EmbedKind, EmbedVariant } from '../../service/types.js';
import { buildPlayer } from './build.js';
import type { Facade } from './facade.js';
import { ask } from './requests.js';
import { watchRatio } from './ratio.js';
import type { MediaBridge } from './media-bridge.js';
import type { SvcPlayerStrings } from './strings.js';
export { MediaBridge } from './media-bridge.js';

/**
 * The player's failure for what its load threw. Its own cancelled loads never get here (the task
 * drops them), so a cancellation that does (a `client()` override's request cancelled by someone
 * else) is a load that could not be done: `network_error`, which the element reports (the kernel's
 * `emitError` fires nothing for `aborted`, and the viewer would see an error no event explained).
 */
export function toSvcError(error: unknown): SvcError {
  const failure = svcError(error);
  return failure.code == 'aborted' ? new SvcError('network_error', failure.message) : failure;
}
export { elementPort } from '../shared/port.js';
export { adoptPartStyles } from '../shared/part-styles.js';

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
export { decoderFor } from '../shared/entities.js';
export { localize } from './localize.js';

/** What names the player to build: the element's source attributes. */
export interface PlayerSource {
  kind: EmbedKind;
  contentId?: string | null;
  variant: EmbedVariant;
  code?: string | null;
  relay?: string | null;
  playerOrigin?: string | null;
  iframeOrigins?: string | null;
}

/** `detail` of `svc-player-ready`: what a load injected. */
export interface SvcPlayerReadyDetail {
  kind: EmbedKind;
  contentId: string;
  variant: EmbedVariant;
  /** The injected `<script>` or `<iframe>` (in the element's light DOM). */
  element: HTMLScriptElement | HTMLIFrameElement;
}

/**
 * The player of `source`, built and not yet in the document: the embed code and the allowed origins
 * at once (`ask`), then its decoder (shared/entities.ts: `he` for a few codes); the code validated.
 * Throws an SvcError when the source or the code is refused or the relay fails.
 */
async function preparePlayer(
  source: PlayerSource,
  client: () => RelayClient,
  options: { nonce?: string; title: string },
  signal: AbortSignal,
): Promise<{ embed: Embed; element: HTMLScriptElement | HTMLIFrameElement }> {
  const [markup, policy] = ask(source, client, signal);
  const [code, origins] = await Promise.all([markup, policy]);
  const built = buildPlayer(document, code, await decoderFor(typeof code == 'string' ? code : ''), origins, options);
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
  /** An iframe player: out of the page's reach (`play()` rejects). */
  iframe: boolean;
  /** The injected iframe that had no title: it carries the viewer's `title` string. */
  titled?: HTMLIFrameElement;
  /** Takes the player out of the page and ends what it listens to. */
  remove(): void;
}

/** The element the load runs for: its source attributes, its `state` (the task's status) and `SvcPlayer.nonce`. */
export type PlayerHost = ReactiveControllerHost & HTMLElement & PlayerSource & { readonly state: string; constructor: { nonce?: string } };

/** What only a player gives its load, beside the port every element gives its parts. */
export interface PlayerHooks {
  /** The player is injected (and loading). */
  show(shown: Shown): void;
  /** The video's ratio, whenever the player learns it. */
  ratio(ratio: string): void;
  /** The play button of `loading="click"`, if shown: asked to play once the player has loaded. */
  facade(): Facade | undefined;
  /** The run failed (the element's `state` is `error`): the element shows why and fires `svc-error`. */
  fail(error: unknown): void;
  /** Follows the `<video>` of each script player (the element's media properties and events, its waiting plays). */
  media: MediaBridge;
}

/** The element's load: each run injects a player; the element's `state` is its status. */
export type PlayerTask = Task<[], SvcPlayerReadyDetail>;

/**
 * The element's load, a Task made here so that the task module stays out of the first paint. Each
 * run prepares the player, injects it (`show`) and completes on its `load` event (fails on its
 * `error`): `svc-player-ready` means the player loaded. A newer run or `abort()` ends the one under
 * way; removing what it injected is the element's. An aborted run ends in the task's initial
 * status (nothing to report), a replaced one is dropped by the task.
 *
 * A run's end is reported in a microtask, once the task has recorded it (@lit/task calls
 * `onComplete`/`onError` before), unless the element moved on meanwhile: its `state` already says
 * so, and a listener of `svc-player-ready` or `svc-error` that starts another run (an element moved
 * in the document) finds no run pending.
 */
export function playerTask(host: PlayerHost, port: ElementPort<SvcPlayerStrings>, hooks: PlayerHooks): PlayerTask {
  const { ratio, show, media } = hooks;
  /** The player the last run injected. */
  let shown: Shown;
  const task: PlayerTask = new Task<[], SvcPlayerReadyDetail>(host, {
    autoRun: false,
    task: async (_, { signal }) => {
      try {
        return await inject(signal);
      } catch (error) {
        if (signal.aborted) return initialState; // the element was reset (or a newer run began)
        throw error;
      }
    },
    onComplete: (detail) =>
      queueMicrotask(() => {
        if (host.state != 'ready' || task.value !== detail) return;
        hooks.facade()?.loaded(shown.container, shown.signal);
        port.emit('svc-player-ready', detail);
      }),
    onError: (error) => queueMicrotask(() => host.state == 'error' && task.error === error && hooks.fail(error)),
  });
  return task;

  async function inject(signal: AbortSignal): Promise<SvcPlayerReadyDetail> {
    const { kind } = host;
    const contentId = host.contentId ?? '';
    // `host.nonce` is the built-in property: it keeps the value after the browser hides the attribute.
    // The meta counts only in the head (core/relay-url.ts): one in a post's body is an author's. Then
    // the page-wide default, `SvcPlayer.nonce`.
    const nonce = host.nonce || headMeta(document, 'svc-nonce') || host.constructor.nonce || undefined;
    const { embed, element } = await preparePlayer(host, port.client, { nonce, title: port.strings.title }, signal);
    signal.throwIfAborted();
    const life = new AbortController();
    const container = document.createElement('div');
    watchRatio(container, element, life.signal, ratio);
    container.slot = 'player';
    container.append(element);
    const titled = element instanceof HTMLIFrameElement && !embed.attributes.title ? element : undefined;
    const source = { kind, contentId: contentId || (embed.contentId ?? '') };
    if (embed.tag == 'script') media.follow(container, source, life.signal);
    // Settles on the player's load or error, or when the player is removed (every reset removes it).
    const loaded = new Promise((resolve, reject) => {
      const removed = life.signal;
      removed.addEventListener('abort', () => reject(removed.reason), { once: true });
      element.addEventListener('load', resolve, { once: true, signal: removed });
      const failed = () => reject(new SvcError('network_error', 'The player could not be loaded.'));
      element.addEventListener('error', failed, { once: true, signal: removed });
    });
    show((shown = { container, signal: life.signal, iframe: embed.tag != 'script', titled, remove: () => (life.abort(), container.remove()) }));
    host.append(container);
    await loaded;
    signal.throwIfAborted();
    return {
      ...source,
      variant: embed.tag == 'script' ? 'javascript' : 'iframe',
      element,
    };
  }
}

