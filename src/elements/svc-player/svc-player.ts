import { html, nothing, unsafeCSS, type PropertyValues, type PropertyDeclarations } from 'lit';
import type { ErrorCode, SvcError } from '../../core/errors.js';
import type { RelayClient } from '../../core/relay-client.js';
import type { EmbedKind, EmbedVariant } from '../../service/types.js';
import type { PartModule } from '../shared/part-styles.js';
import type { ElementPort } from '../shared/port.js';
import type { Localized } from '../shared/strings.js';
import { SvcElementCore } from '../shared/svc-element-core.js';
import type { Facade } from './facade.js';
import type { PlayerTask, Shown, SvcPlayerReadyDetail } from './load.js';
import type { MediaBridge, MediaPreset, PendingPlay, SvcPlaybackDetail } from './media-bridge.js';
import { firstStrings } from './first-strings.js';
import type { SvcPlayerStrings } from './strings.js';
import { facadeChunk, loadChunk } from './parts.js';
import { overlayCss } from './overlay.styles.js';
import { playerCss } from './svc-player.styles.js';

export type { SvcPlaybackDetail, SvcPlaybackType } from './media-bridge.js';

export type SvcPlayerState = 'idle' | 'loading' | 'ready' | 'error';

export type { SvcPlayerReadyDetail } from './load.js';

/** Properties whose change means another player. */
const SOURCE = ['kind', 'contentId', 'variant', 'code', 'relay', 'playerOrigin', 'iframeOrigins', 'loading'] as const;


/** `16/9`, `16 / 9`, `16:9` or `1.78` as a CSS `aspect-ratio` value; undefined when not a ratio. */
export function parseAspectRatio(value: string | null | undefined): string | undefined {
  const [width, height = 1, rest] = (value ?? '').split(/[/:]/).map(Number);
  return width! > 0 && height > 0 && rest === undefined ? `${width} / ${height}` : undefined;
}

/** The element's `state` by the load's TaskStatus (INITIAL, PENDING, COMPLETE, ERROR). */
const STATES = ['loading', 'loading', 'ready', 'error'] as const;

/** The media properties the element answers, as a media element; the first SETTABLE ones can be set. */
const MEDIA = ['currentTime', 'muted', 'volume', 'playbackRate', 'duration', 'paused', 'ended', 'readyState', 'buffered', 'seekable'] as const;
const SETTABLE = 4;

/** What the media properties answer before the player's `<video>` exists: a detached, empty one's. */
let empty: HTMLVideoElement | undefined;

/** How `play()` fails, as a media element's: `AbortError` (cancelled), `NotSupportedError` (an iframe player, on another origin). */
const refusal = (message: string, name = 'AbortError') => new DOMException(message, name);
const unsupported = () => refusal('An iframe is out of reach.', 'NotSupportedError');

/**
 * Embeds a VOD, a live channel or a playlist of the service. It asks the relay for the embed code
 * (or takes the one in `code`), decodes it once, accepts only the service's script or iframe form
 * on the player's origin, and builds the player itself: nothing from the code is ever parsed into
 * the page. The box keeps its size from the start, so the page does not shift.
 *
 * @summary A safe, lazy video player for any page: `<svc-player content-id="…">`.
 * @tagname svc-player
 *
 * @attr kind - What to play: `vod` (default), `channel` or `playlist`.
 * @attr content-id - The identifier of the VOD, channel or playlist (as the service assigned it).
 * @attr variant - `javascript` (default: the service's player script) or `iframe`.
 * @attr loading - `lazy` (default: nothing is fetched until the element nears the viewport), `eager`, or `click` (a poster and a play button; nothing is fetched until the viewer activates it, then the player loads and is asked to play).
 * @attr poster - With `loading="click"`: URL of the image shown before the viewer plays (or use the `poster` slot).
 * @attr title - Names the content: the play button of `loading="click"` reads "Play <title>" (else "Play video").
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">` in the head, else `/svc`. Another origin than that relay's is refused (`origin_not_trusted`) unless the head lists it in `<meta name="svc-relay-origins">`.
 * @attr code - An embed code already in hand (entity-escaped, as the service returns it): no embed request to the relay; it is still checked against the origins of the page's relay (`GET /svc/config`).
 * @attr nonce - CSP nonce for the injected script; default `<meta name="svc-nonce">` in the head, else `SvcPlayer.nonce`.
 * @attr player-origin - Narrows the player script's origin: it must be `player_origin` of the page's relay (`GET /svc/config`), else the player is refused (`origin_not_trusted`).
 * @attr iframe-origins - Narrows the iframe's origins (space-separated) to some of `iframe_origins` of the page's relay (`GET /svc/config`; `player-origin` alone narrows them to that one); an origin outside them is refused (`origin_not_trusted`).
 * @attr aspect-ratio - The content's aspect ratio (`16/9`, `4:3`, `9/16`, `1.5`): the box has it from the first paint and keeps it; the video is letterboxed or pillarboxed inside. Without it the box starts at 16:9 and adopts the video's ratio once the player reports it.
 * @attr state - Set by the element (read-only): `idle`, `loading`, `ready` or `error`, for styling.
 * @attr has-video - Set by the element (read-only) once the player reports a video (its size): for a live channel, once the stream plays.
 *
 * @event svc-player-ready - The player was injected and loaded; `detail` is `{kind, contentId, variant, element}`.
 * @event svc-playback - What a site counts, for analytics (`variant="javascript"`): `type` is `play`, `pause`, `ended`, `seeked`, or `progress` at 25, 50, 75 and 100 % of the duration (each once per load, `percent` says which); `detail` is `{type, kind, contentId, currentTime, duration, percent?}`. Bubbling and composed: one document listener hears every player.
 * @event loadedmetadata - Media event of the player's `<video>`, re-dispatched on the element (not bubbling, as a media element fires it), like all that follow; `variant="javascript"` only.
 * @event durationchange - Media event (see `loadedmetadata`).
 * @event play - Media event (see `loadedmetadata`).
 * @event playing - Media event (see `loadedmetadata`).
 * @event pause - Media event (see `loadedmetadata`).
 * @event seeking - Media event (see `loadedmetadata`).
 * @event seeked - Media event (see `loadedmetadata`).
 * @event waiting - Media event (see `loadedmetadata`).
 * @event timeupdate - Media event (see `loadedmetadata`): once per the `<video>`'s own.
 * @event ratechange - Media event (see `loadedmetadata`).
 * @event volumechange - Media event (see `loadedmetadata`).
 * @event ended - Media event (see `loadedmetadata`).
 * @event error - Media event (see `loadedmetadata`): the `<video>` failed; the load's own failures are `svc-error`.
 * @event emptied - Media event (see `loadedmetadata`); also fired when the followed `<video>` goes (the player was removed or replaced it).
 * @event svc-error - The embed code was refused (`embed_rejected`), an attribute named an origin the page does not trust (`origin_not_trusted`) or could not be loaded (relay codes, `network_error`); `detail` is `{code, message}` with the technical detail (also logged to the console); viewers see only a short message.
 *
 * @slot poster - With `loading="click"`: what to show before the viewer plays (e.g. an `<img>`), instead of the `poster` attribute.
 * @slot loading - Replaces the loading indicator.
 * @slot error - Replaces the viewer's error message (inside the `role="alert"` region; the technical message is in the `svc-error` event).
 * @slot player - Internal: the light-DOM container of the injected player. Do not use.
 *
 * @csspart box - The box with the reserved aspect ratio.
 * @csspart play - With `loading="click"`: the play button covering the box.
 * @csspart poster - With `loading="click"`: the poster image of the `poster` attribute.
 * @csspart caption - With `loading="click"`: the content's `title`, shown under the play button.
 * @csspart stage - Where the player is shown.
 * @csspart loading - The loading indicator.
 * @csspart error - The error message.
 *
 * @cssproperty --svc-player-aspect-ratio - Aspect ratio of the box when no `aspect-ratio` attribute is given (default: the video's reported ratio, else `16 / 9`).
 * @cssproperty --svc-player-max-height - Largest height of the box (default `90svh`: a portrait video never grows taller than the screen); the video is pillarboxed inside. `none` lifts the cap.
 * @cssproperty --svc-player-background - Background of the box before the player shows (default `#000`).
 * @cssproperty --svc-player-color - Text colour of the loading and error states (default `#fff`).
 * @cssproperty --svc-player-error-background - Background of the error state (default `#3b0d0c`).
 * @cssproperty --svc-player-play-background - Background of the round play button of `loading="click"`.
 * @cssproperty --svc-player-play-color - Colour of its play symbol and ring (default `#fff`).
 * @cssproperty --svc-player-caption-background - Background of the title under the play button (default `rgb(0 0 0 / .75)`).
 * @cssproperty --svc-player-focus-color - Focus ring of the play button (default `#fff`).
 */
export class SvcPlayer extends SvcElementCore<SvcPlayerStrings> {
  static override styles = unsafeCSS(playerCss + overlayCss);
  // Lit's static properties rather than decorators: lit/decorators.js would add about 0.5 KB (gzip) to
  // the first paint, the budget the media API needed (bench: svc-player before visibility).
  static override properties: PropertyDeclarations = {
    kind: { reflect: true },
    contentId: { attribute: 'content-id' },
    variant: { reflect: true },
    loading: {},
    poster: {},
    code: {},
    playerOrigin: { attribute: 'player-origin' },
    iframeOrigins: { attribute: 'iframe-origins' },
    aspectRatio: { attribute: 'aspect-ratio' },
    wanted: { state: true },
    undownloaded: { state: true },
    failure: { state: true },
  };

  /** Page-wide default CSP nonce, used when neither `nonce` nor `<meta name="svc-nonce">` (in the head) is set. */
  static nonce: string | undefined;

  protected static override readonly tag = 'svc-player';

  /** What to play: `vod`, `channel` or `playlist`. */
  kind: EmbedKind = 'vod';

  /** The identifier of the content, as the service assigned it. */
  contentId?: string | null;

  /** `javascript` (the player script) or `iframe`. */
  variant: EmbedVariant = 'javascript';

  /** `lazy`: fetch only when near the viewport; `eager`: at once; `click`: when the viewer plays. */
  loading: 'lazy' | 'eager' | 'click' = 'lazy';

  /** With `loading="click"`: the image shown until the viewer plays. */
  poster?: string | null;

  /** Base URL of the relay API (on the page relay's origin, or one the head lists in `<meta name="svc-relay-origins">`). */
  declare relay?: string | null;

  /**
   * Returns a bearer token, like every element's; the player's requests (`GET /config`, the embed
   * code) are public and do not carry it, but a `client()` override may use it.
   */
  declare token?: SvcElementCore<SvcPlayerStrings>['token'];

  /** An embed code in hand (entity-escaped); when set, no embed request goes to the relay. */
  code?: string | null;

  /** Narrows the player script's origin; it must be the relay config's `player_origin`. */
  playerOrigin?: string | null;

  /** Narrows the iframe's origins (space-separated) to some of the relay config's `iframe_origins`. */
  iframeOrigins?: string | null;

  /**
   * The content's aspect ratio (`16/9`, `4:3`, `9/16`, `1.5`): the box has it from the first paint and
   * keeps it. Without it the box starts at `--svc-player-aspect-ratio` (16:9) and adopts the video's
   * ratio once the player reports it.
   */
  aspectRatio?: string | null;

  /**
   * Replacement viewer strings (see `strings.ts`), over the viewer's language; `errors: {code: '…'}`
   * replaces the message shown for one error code.
   */
  declare strings: SvcElementCore<SvcPlayerStrings>['strings'];

  /** What the element is doing: `idle`, `loading`, `ready` or `error` (read-only; reflected as `state`). */
  override get state(): SvcPlayerState {
    if (this.undownloaded) return 'error';
    if (!this.wanted) return 'idle';
    // The load's status (TaskStatus INITIAL, PENDING, COMPLETE, ERROR); no task yet: its chunk is on its way.
    return STATES[this.#task?.status ?? 1]!;
  }

  /** A player is to be shown (content, and near the viewport or asked for); the load is the task's. */
  private wanted = false;
  /** A lazy chunk (the play button's or the load's) could not be downloaded: the task never ran. */
  private undownloaded = false;
  /** Why the player is not shown, when `state` is `error`. */
  private failure: ErrorCode = 'internal';

  /** The load, a Task made by load.ts with the first one: each run injects a player. */
  #task?: PlayerTask;
  /** The injected player, until it is removed. */
  #shown?: Shown;
  #observer?: IntersectionObserver;
  #near = false;
  /** The viewer asked for the video (loading="click"); reset when the content changes. */
  #activated = false;
  /** The viewer asked for it (activate(), play()) since the last update and the last content change: that update loads it. */
  #asked = false;
  /** The play button of `loading="click"`, once its chunk is loaded. */
  #facade?: Facade;
  /** Follows the player's `<video>` (media-bridge.ts), made with the first load. */
  #media?: MediaBridge;
  /** What the page set of the media properties before the player's `<video>` existed; applied to it. */
  #preset: MediaPreset = {};
  /** The `play()` calls waiting for the player's `<video>`; the bridge plays them once it follows one. */
  #plays: PendingPlay[] = [];
  /** The viewer's language, from the first lazy chunk that arrives (English until then). */
  protected l10n?: Localized<SvcPlayerStrings>;
  /** What the parts get of the element (shared/port.ts), from the first lazy chunk that arrives. */
  protected port?: ElementPort<SvcPlayerStrings>;

  constructor() {
    super();
    // What the page set before the tag was defined (the script-tag loader defines it when first seen)
    // shadows the accessors: taken over as if set now (a value a media element refuses is dropped);
    // stand-ins of play() and pause() give way to the methods.
    for (const name of MEDIA.slice(0, SETTABLE) as (keyof MediaPreset)[]) {
      if (!Object.hasOwn(this, name)) continue;
      const value = this[name];
      delete (this as Partial<this>)[name];
      try {
        this.#set(name, value as never);
      } catch {
        // as a media element would have refused it
      }
    }
    delete (this as Partial<this>).play;
    delete (this as Partial<this>).pause;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the document: the first update schedules the load, later reconnections do it here.
    if (this.hasUpdated) this.#schedule();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A play() waiting is refused, even for a load still to start (asked while an update was to come).
    this.#cancel();
    this.#reset();
    this.#unobserve();
    this.#near = false;
    this.wanted = false;
  }

  override requestUpdate(...args: Parameters<SvcElementCore<SvcPlayerStrings>['requestUpdate']>): void {
    const [name, old] = args;
    // Other content: what the viewer asked for before is not it (an activate() or play() after this asks anew).
    if (SOURCE.includes(name as never) && !Object.is(this[name as keyof this], old)) this.#asked = false;
    super.requestUpdate(...args);
  }

  // Before rendering, so the state the load sets is rendered in the same update.
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('aspectRatio')) this.#setRatio('--_svc-pg', parseAspectRatio(this.aspectRatio));
    const asked = this.#asked;
    this.#asked = false;
    if (SOURCE.some((name) => changed.has(name)) || (asked && (this.state == 'idle' || this.state == 'error'))) {
      // Other content: the viewer has not asked for it yet, and a play() waiting was for the other.
      if (this.hasUpdated && !asked) {
        this.#activated = false;
        this.#cancel();
      }
      this.#schedule();
    }
    // After the load is scheduled (which forgets a failed download): not again after it failed,
    // until the next load, or every update would report the failure anew. Not for a player asked
    // for before it showed its button (the script-tag loader's, clicked): until its content changes.
    if (this.loading === 'click' && !this.#activated && !this.#facade && !this.undownloaded) void this.#loadFacade();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const titled = this.#shown?.titled;
    if (titled) titled.title = this.#s.title;
  }

  async #loadFacade(): Promise<void> {
    try {
      const part = await facadeChunk();
      if (this.#facade) return;
      this.#take(part);
      this.#facade = part.playerFacade(this);
      this.requestUpdate();
    } catch (error) {
      // Reported by another update that waited for the same download, or no longer needed.
      if (this.undownloaded || this.loading !== 'click') return;
      // Nothing failed for the viewer (the next update tries the download again) when the player
      // was activated (it needs no button; its load reports its own failures), or when the
      // script-tag loader's play button (loader-preview.ts) is still in the render root: that
      // button activates this player without this one's.
      if (this.#activated || this.renderRoot.querySelector('[part=play]')) return;
      this.undownloaded = true;
      this.#fail(error);
    }
  }

  /**
   * A lazy chunk arrived: the first brings the viewer's strings and the port the parts get; its
   * styles join the element's (the seam's one way, shared/part-styles.ts).
   */
  #take(part: PartModule & Pick<typeof import('./facade.js'), 'localize' | 'elementPort' | 'adoptPartStyles'>): void {
    this.l10n ??= part.localize(this, firstStrings);
    this.port ??= part.elementPort(this);
    part.adoptPartStyles(this, part);
  }

  /** Loads the player now, as the viewer's click on the play button of `loading="click"` does. */
  activate(): void {
    if (!this.#activated || this.isUpdatePending) this.#ask();
  }

  /**
   * The viewer asked for the video: loaded now, or by the update to come (a load started before it
   * would be reset by a content change it renders: asked after that change, the new content loads).
   */
  #ask(): void {
    this.#activated = true;
    if (this.isUpdatePending) this.#asked = true;
    else this.#schedule();
  }

  /**
   * Plays the video, as `HTMLMediaElement.play()` (the promise settles as the `<video>`'s); a player
   * not loaded yet (`loading="click"`, not yet near the viewport, failed) loads first; `pause()`, a
   * removal or other content before the video plays reject it (`AbortError`). With `variant="iframe"`
   * (or a `code` that is an iframe) it rejects with a `NotSupportedError`: that player is out of the page's reach.
   */
  play(): Promise<void> {
    if (this.variant == 'iframe' || this.#shown?.iframe) return Promise.reject(unsupported());
    const video = this.#media?.video;
    if (video) return video.play();
    if (this.state == 'idle' || this.state == 'error') {
      this.#near = true;
      this.#ask();
    }
    // Queued at once, so that a pause() right after cancels it.
    return new Promise((resolve, reject) => this.#plays.push({ resolve, reject }));
  }

  /** Pauses the video; a `play()` still waiting for it rejects (`AbortError`), as a media element's. */
  pause(): void {
    this.#media?.video?.pause();
    this.#cancel(refusal('The play() request was interrupted by a call to pause().'));
  }

  /** Rejects the `play()` calls still waiting for a video. */
  #cancel(reason: unknown = refusal('The play() request was interrupted.')): void {
    for (const play of this.#plays.splice(0)) play.reject(reason);
  }

  /** Where the video is, in seconds; setting it seeks (set before the video exists, it applies once it does). */
  declare currentTime: number;
  /** Whether the video is muted (set before the video exists, it applies once it does). */
  declare muted: boolean;
  /** The video's volume, 0 to 1 (set before the video exists, it applies once it does). */
  declare volume: number;
  /** The video's speed, 1 is normal (set before the video exists, it applies once it does). */
  declare playbackRate: number;
  /** The video's length in seconds (read-only): `NaN` until known, `Infinity` for a live stream. */
  declare readonly duration: number;
  /** Whether the video is paused (read-only; `true` before it exists). */
  declare readonly paused: boolean;
  /** Whether the video played to its end (read-only). */
  declare readonly ended: boolean;
  /** The video's `readyState` (read-only; 0 before it exists). */
  declare readonly readyState: number;
  /** The time ranges of the video downloaded (read-only; empty before it exists). */
  declare readonly buffered: TimeRanges;
  /** The time ranges the video can seek to (read-only; empty before it exists). */
  declare readonly seekable: TimeRanges;

  // The media properties' accessors, made in a loop (fewer bytes in the first paint): the first
  // SETTABLE ones also take a value.
  static {
    MEDIA.forEach((name, i) =>
      Object.defineProperty(this.prototype, name, {
        get(this: SvcPlayer) {
          return this.#get(name);
        },
        set: i < SETTABLE ? function (this: SvcPlayer, value: never) { this.#set(name as keyof MediaPreset, value); } : undefined,
        configurable: true,
      }),
    );
  }

  /** The followed `<video>`'s property, else what the page set before it existed, else an empty media element's. */
  #get<K extends keyof HTMLMediaElement>(name: K): HTMLMediaElement[K] {
    const video = this.#media?.video;
    return video ? video[name] : ((this.#preset as Partial<HTMLMediaElement>)[name] ?? (empty ??= document.createElement('video'))[name]);
  }

  #set<K extends keyof MediaPreset>(name: K, value: MediaPreset[K]): void {
    const video = this.#media?.video;
    // No video yet: a detached one takes it first, so a value is refused as a media element refuses it (IndexSizeError…).
    Object.assign(video ?? document.createElement('video'), { [name]: value });
    if (!video) this.#preset[name] = value;
  }

  /**
   * The relay, as every element reaches it; override to reach it differently (tests, special
   * hosting). The player asks it for `config()` and `embed()` only, once a load has started: the
   * default client comes with the player's lazy chunk, so it may not be called before.
   */
  protected client(): RelayClient {
    return loadChunk.value!.relayClient(this, 'embed');
  }

  /** Stable codes come with the load chunk (core/errors.ts); a chunk that did not come is a download failure. */
  protected toError(error: unknown): SvcError {
    return (!this.undownloaded && loadChunk.value?.toSvcError(error)) || ({ code: 'network_error', message: String(error) } as SvcError);
  }

  /** The box's ratio as given (attribute) or reported (by the player); private custom properties on the host. */
  #setRatio(name: '--_svc-pg' | '--_svc-pr', ratio: string | undefined): void {
    if (ratio) this.style.setProperty(name, ratio);
    else this.style.removeProperty(name);
    // A reported ratio means a video plays (a live channel's stream has started).
    if (name == '--_svc-pr') this.toggleAttribute('has-video', !!ratio);
  }

  /** Removes the injected player and ends any load under way (and the plays waiting for it). */
  #reset(): void {
    if (this.wanted) this.#cancel();
    this.#task?.abort();
    this.#shown?.remove();
    this.#shown = undefined;
    this.#setRatio('--_svc-pr', undefined);
  }

  #schedule(): void {
    this.#reset();
    this.wanted = this.undownloaded = false;
    if (!this.isConnected || (this.code == null && !this.contentId)) return;
    if (this.loading === 'click' && !this.#activated) return this.#unobserve();
    if (this.loading === 'lazy' && !this.#near) return this.#observe();
    this.#unobserve();
    this.wanted = true;
    void this.#load();
  }

  #observe(): void {
    if (this.#observer) return;
    this.#observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.#near = true;
        this.#schedule();
      },
      { rootMargin: '200px' },
    );
    this.#observer.observe(this);
  }

  #unobserve(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  /** Runs the load; the first one waits for the lazy chunk, which makes the task. */
  async #load(): Promise<void> {
    let builder = loadChunk.value;
    if (!builder) {
      try {
        builder = await loadChunk();
      } catch (error) {
        if (!this.wanted || this.undownloaded) return; // not wanted any more, or failed already
        this.undownloaded = true;
        this.#fail(error);
        return;
      }
      // Another load made the task meanwhile (and runs it), or none is wanted any more.
      if (this.#task || !this.wanted) return;
    }
    this.#take(builder);
    this.#task ??= builder.playerTask(this, this.port!, {
      show: (shown) => {
        this.#shown = shown;
        if (shown.iframe) this.#cancel(unsupported());
      },
      ratio: (ratio) => this.#setRatio('--_svc-pr', ratio),
      facade: () => this.#facade,
      fail: (error) => this.#fail(error),
      media: (this.#media ??= new builder.MediaBridge(this, this.port!, this.#preset, this.#plays)),
    });
    void this.#task.run([]);
  }

  /**
   * The viewer's strings: once a lazy chunk brought them, in the viewer's language; before, the two
   * the first paint may show (first-strings.ts), in English, with the `strings` property.
   */
  get #s(): SvcPlayerStrings {
    return this.l10n?.strings ?? ({ ...firstStrings, ...this.strings } as SvcPlayerStrings);
  }

  /** Viewers read a short message by the code; the code and the technical message go to `svc-error` and the console. */
  #fail(error: unknown): void {
    const { code, message } = this.emitError(error);
    // A chunk that could not be downloaded: the plays waiting get what the event says (the
    // browser's import error has no code), as the script-tag loader's stand-in play() does.
    this.#cancel(this.undownloaded ? Object.assign(new Error(message), { code }) : error);
    this.#reset();
    console.warn('<svc-player>', code, message);
    this.failure = code;
  }

  protected override render() {
    const { state } = this;
    const s = this.#s;
    const waiting = this.loading == 'click' && !this.#activated && state == 'idle' && (this.code != null || !!this.contentId);
    // Written compactly: template literals are not minified, and this is in the first paint.
    return html`<div part="box" dir=${this.l10n?.dir ?? nothing}><div part="stage" aria-busy=${state == 'loading'}><slot name="player"></slot></div>${
      waiting && this.#facade ? (this.#facade.set(s, this.title, this.poster), this.#facade.button) : nothing}${
      state == 'loading'
        ? html`<div part="loading" class="overlay" role="status"><slot name="loading"><div class="spinner"></div>${s.loading}</slot></div>`
        : nothing}${
      state == 'error'
        ? html`<div part="error" class="overlay error" role="alert"><slot name="error"><p>${this.strings?.errors?.[this.failure] ?? s[loadChunk.value?.viewerMessage(this.failure) ?? 'failed']}</p></slot></div>`
        : nothing}</div>`;
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-player-ready': CustomEvent<SvcPlayerReadyDetail>;
    'svc-playback': CustomEvent<SvcPlaybackDetail>;
  }
  // Bubbling and composed: one listener on the document hears every player (for analytics).
  interface DocumentEventMap {
    'svc-playback': CustomEvent<SvcPlaybackDetail>;
  }
}
