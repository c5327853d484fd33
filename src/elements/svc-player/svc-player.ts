import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ErrorCode } from '../../core/errors.js';
import type { RelayClient, RelayClientOptions } from '../../core/relay-client.js';
import type { EmbedKind, EmbedVariant } from '../../service/types.js';
import { emit, type SvcErrorDetail } from '../shared/events.js';
import type { Localized, StringsOverride } from '../shared/strings.js';
import type { Facade } from './facade.js';
import type { PlayerTask, Shown, ViewerMessage } from './inject.js';
import { defaultStrings, type SvcPlayerStrings } from './strings.js';
import { styles } from './svc-player.styles.js';

export type SvcPlayerState = 'idle' | 'loading' | 'ready' | 'error';

export interface SvcPlayerReadyDetail {
  kind: EmbedKind;
  contentId: string;
  variant: EmbedVariant;
  /** The injected `<script>` or `<iframe>` (in the element's light DOM). */
  element: HTMLScriptElement | HTMLIFrameElement;
}

/** Properties whose change means another player. */
const SOURCE = ['kind', 'contentId', 'variant', 'code', 'relay', 'playerOrigin', 'iframeOrigins', 'loading'] as const;


/** `16/9`, `16 / 9`, `16:9` or `1.78` as a CSS `aspect-ratio` value; undefined when not a ratio. */
export function parseAspectRatio(value: string | null | undefined): string | undefined {
  const [width, height = 1, rest] = (value ?? '').split(/[/:]/).map(Number);
  return width! > 0 && height > 0 && rest === undefined ? `${width} / ${height}` : undefined;
}

/** A lazy chunk of the element that could not be downloaded: the network failed. */
class Undownloaded extends Error {}

const chunk = <T>(loading: Promise<T>): Promise<T> =>
  loading.catch((error: unknown) => {
    throw new Undownloaded(`A part of <svc-player> could not be downloaded (${error}).`);
  });

/** The play button of `loading="click"`, loaded only by pages that use it. */
let facadeChunk: Promise<typeof import('./facade.js')> | undefined;

/**
 * The second half (inject.ts): the load, the relay client, the viewer's language, error codes, the
 * validator and the builder, loaded when a player is to load (`builder` once it is).
 */
let builder: typeof import('./inject.js') | undefined;
const loadBuilder = () => chunk(import('./inject.js')).then((module) => (builder = module));

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
export class SvcPlayer extends LitElement {
  static override styles = styles;

  /** Page-wide default CSP nonce, used when neither `nonce` nor `<meta name="svc-nonce">` (in the head) is set. */
  static nonce: string | undefined;

  static define(tag = 'svc-player', registry: CustomElementRegistry = customElements): typeof SvcPlayer {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** What to play: `vod`, `channel` or `playlist`. */
  @property({ reflect: true }) kind: EmbedKind = 'vod';

  /** The identifier of the content, as the service assigned it. */
  @property({ attribute: 'content-id' }) contentId?: string | null;

  /** `javascript` (the player script) or `iframe`. */
  @property({ reflect: true }) variant: EmbedVariant = 'javascript';

  /** `lazy`: fetch only when near the viewport; `eager`: at once; `click`: when the viewer plays. */
  @property() loading: 'lazy' | 'eager' | 'click' = 'lazy';

  /** With `loading="click"`: the image shown until the viewer plays. */
  @property() poster?: string | null;

  /** Base URL of the relay API (on the page relay's origin, or one the head lists in `<meta name="svc-relay-origins">`). */
  @property() relay?: string | null;

  /**
   * Returns a bearer token, like every element's; the player's requests (`GET /config`, the embed
   * code) are public and do not carry it, but a `client()` override may use it.
   */
  @property({ attribute: false }) token?: RelayClientOptions['token'];

  /** An embed code in hand (entity-escaped); when set, no embed request goes to the relay. */
  @property() code?: string | null;

  /** Narrows the player script's origin; it must be the relay config's `player_origin`. */
  @property({ attribute: 'player-origin' }) playerOrigin?: string | null;

  /** Narrows the iframe's origins (space-separated) to some of the relay config's `iframe_origins`. */
  @property({ attribute: 'iframe-origins' }) iframeOrigins?: string | null;

  /**
   * The content's aspect ratio (`16/9`, `4:3`, `9/16`, `1.5`): the box has it from the first paint and
   * keeps it. Without it the box starts at `--svc-player-aspect-ratio` (16:9) and adopts the video's
   * ratio once the player reports it.
   */
  @property({ attribute: 'aspect-ratio' }) aspectRatio?: string | null;

  /**
   * Replacement viewer strings (see `strings.ts`), over the viewer's language; `errors: {code: '…'}`
   * replaces the message shown for one error code.
   */
  @property({ attribute: false }) strings: StringsOverride<SvcPlayerStrings> = {};

  /** What the element is doing: `idle`, `loading`, `ready` or `error` (read-only; reflected as `state`). */
  get state(): SvcPlayerState {
    return this.status;
  }

  /**
   * Set here rather than read from the task: it also covers the wait for the lazy chunk (and its
   * failure), and the task calls `onComplete` before it records its own status, while `state` must be
   * `ready` when `svc-player-ready` fires.
   */
  @state() private status: SvcPlayerState = 'idle';
  /** Why the player is not shown, when `status` is `error`. */
  @state() private failure: ErrorCode = 'internal';

  /** The viewer's message for `failure` (inject.ts's viewerMessage; a failed download: try again later). */
  #says: ViewerMessage = 'failed';

  /** The load, a Task made by inject.ts with the first one: each run injects a player. */
  #task?: PlayerTask;
  /** The injected player, until it is removed. */
  #shown?: Shown;
  /** Counts resets: a run started before the last one is stale (see `playerTask`). */
  #generation = 0;
  #observer?: IntersectionObserver;
  #near = false;
  /** The viewer asked for the video (loading="click"); reset when the content changes. */
  #activated = false;
  /** The play button of `loading="click"`, once its chunk is loaded. */
  #facade?: Facade;
  /** The viewer's language, from the first lazy chunk that loads (English until then). */
  #l10n?: Localized<SvcPlayerStrings>;

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the document: the first update schedules the load, later reconnections do it here.
    if (this.hasUpdated) this.#schedule();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#reset();
    this.#unobserve();
    this.#near = false;
    this.status = 'idle';
  }

  // Before rendering, so the state the load sets is rendered in the same update.
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('aspectRatio')) this.#setRatio('--_svc-pg', parseAspectRatio(this.aspectRatio));
    if (this.loading === 'click' && !this.#facade) void this.#loadFacade();
    if (SOURCE.some((name) => changed.has(name))) {
      if (this.hasUpdated) this.#activated = false; // other content: the viewer has not asked for it yet
      this.#schedule();
    }
  }

  protected override updated(): void {
    if (this.getAttribute('state') !== this.status) this.setAttribute('state', this.status);
    const titled = this.#shown?.titled;
    if (titled) titled.title = this.#s.title;
  }

  async #loadFacade(): Promise<void> {
    try {
      const { createFacade, facadeSheet, localize } = await (facadeChunk ??= chunk(import('./facade.js')));
      if (this.#facade) return;
      this.#l10n ??= localize(this, defaultStrings);
      const root = this.renderRoot as ShadowRoot;
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, facadeSheet];
      this.#facade = createFacade(() => this.activate(), this);
      this.requestUpdate();
    } catch (error) {
      facadeChunk = undefined;
      this.#fail(error);
    }
  }

  /** Loads the player now, as the viewer's click on the play button of `loading="click"` does. */
  activate(): void {
    if (this.#activated) return;
    this.#activated = true;
    this.#schedule();
  }

  /**
   * The relay, as every element reaches it; override to reach it differently (tests, special
   * hosting). The player asks it for `config()` and `embed()` only, once a load has started: the
   * default client comes with the player's lazy chunk, so it may not be called before.
   */
  protected client(): RelayClient {
    if (!builder) throw new Error('<svc-player>: client() is available once a player loads.');
    return builder.relayClient(this, 'embed');
  }

  /** The box's ratio as given (attribute) or reported (by the player); private custom properties on the host. */
  #setRatio(name: '--_svc-pg' | '--_svc-pr', ratio: string | undefined): void {
    if (ratio) this.style.setProperty(name, ratio);
    else this.style.removeProperty(name);
    // A reported ratio means a video plays (a live channel's stream has started).
    if (name == '--_svc-pr') this.toggleAttribute('has-video', !!ratio);
  }

  /** Removes the injected player and forgets any load under way. */
  #reset(): void {
    this.#generation++;
    this.#task?.abort();
    this.#shown?.remove();
    this.#shown = undefined;
    this.#setRatio('--_svc-pr', undefined);
  }

  #schedule(): void {
    this.#reset();
    if (!this.isConnected) return;
    if (this.code == null && !this.contentId) {
      this.status = 'idle';
      return;
    }
    if (this.loading === 'click' && !this.#activated) {
      this.status = 'idle';
      this.#unobserve();
      return;
    }
    if (this.loading === 'lazy' && !this.#near) {
      this.status = 'idle';
      this.#observe();
      return;
    }
    this.#unobserve();
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
    this.status = 'loading';
    if (!builder) {
      try {
        await loadBuilder();
      } catch (error) {
        if (this.status == 'loading') this.#fail(error);
        return;
      }
      // Another load made the task meanwhile (and runs it), or none is wanted any more.
      if (this.#task || this.status != 'loading') return;
    }
    const { localize, playerTask } = builder!;
    this.#l10n ??= localize(this, defaultStrings);
    this.#task ??= playerTask(this, {
      generation: () => this.#generation,
      client: () => this.client(),
      options: () => ({ nonce: this.#nonce(), title: this.#s.title }),
      show: (shown) => (this.#shown = shown),
      ratio: (ratio) => this.#setRatio('--_svc-pr', ratio),
      // The task drops a run that a newer one replaced; one aborted without a newer one (the element
      // went idle or failed) still settles here, and has nothing to report.
      onComplete: (detail) => {
        if (this.status != 'loading') return;
        this.#facade?.loaded(this.#shown!.container, this.#shown!.signal);
        this.status = 'ready';
        emit(this, 'svc-player-ready', detail);
      },
      onError: (error) => this.status == 'loading' && this.#fail(error),
    });
    void this.#task.run([this.#generation]);
  }

  #nonce(): string | undefined {
    // `this.nonce` is the built-in property: it keeps the value after the browser hides the attribute.
    // The meta counts only in the head (core/relay-url.ts): one in a post's body is an author's.
    return this.nonce || builder?.headMeta(document, 'svc-nonce') || SvcPlayer.nonce || undefined;
  }

  /** The viewer's strings (English, and the `strings` property, until the language is known). */
  get #s(): SvcPlayerStrings {
    return this.#l10n?.strings ?? { ...defaultStrings, ...this.strings };
  }

  /** Viewers read a short message by the code; the code and the technical message go to `svc-error` and the console. */
  #fail(error: unknown): void {
    this.#reset();
    this.status = 'error';
    // Stable codes come with the lazy chunk (core/errors.ts); what fails before it is a download.
    const { code, message }: SvcErrorDetail =
      error instanceof Undownloaded
        ? { code: 'network_error', message: error.message }
        : (builder?.toSvcError(error) ?? { code: 'internal', message: String(error) });
    emit(this, 'svc-error', { code, message });
    console.warn('<svc-player>', code, message);
    this.#says = builder?.viewerMessage(code) ?? 'failed';
    this.failure = code;
  }

  protected override render() {
    const { status } = this;
    const s = this.#s;
    const waiting = this.loading == 'click' && !this.#activated && status == 'idle' && (this.code != null || !!this.contentId);
    return html`<div part="box" dir=${this.#l10n?.dir ?? nothing}>
      <div part="stage" aria-busy=${status == 'loading'}><slot name="player"></slot></div>
      ${waiting && this.#facade ? (this.#facade.set(s, this.title, this.poster), this.#facade.button) : nothing}
      ${status == 'loading'
        ? html`<div part="loading" class="overlay" role="status">
            <slot name="loading"><div class="spinner"></div>${s.loading}</slot>
          </div>`
        : nothing}
      ${status == 'error'
        ? html`<div part="error" class="overlay error" role="alert">
            <slot name="error"><p>${this.strings?.errors?.[this.failure] ?? s[this.#says]}</p></slot>
          </div>`
        : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-player-ready': CustomEvent<SvcPlayerReadyDetail>;
  }
}
