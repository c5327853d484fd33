import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { EmbedPolicy, EntityDecoder } from '../../core/embed-code.js';
import { SvcError } from '../../core/errors.js';
import type { RelayConfig } from '../../core/relay-client.js';
import { relayBaseUrl } from '../../core/relay-url.js';
import type { EmbedKind, EmbedVariant } from '../../service/types.js';
import { emit, emitError } from '../shared/events.js';
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

/** Codes after which trying again later may help; any other failure means "not available". */
const TRANSIENT = /^(network_error|relay_unreachable|upstream_unavailable|upstream_timeout|rate_limited|internal)$/;

/** `16/9`, `16 / 9`, `16:9` or `1.78` as a CSS `aspect-ratio` value; undefined when not a ratio. */
export function parseAspectRatio(value: string | null | undefined): string | undefined {
  const [width, height = 1, rest] = (value ?? '').split(/[/:]/).map(Number);
  return width! > 0 && height > 0 && rest === undefined ? `${width} / ${height}` : undefined;
}

/** `he` is large: loaded once, on first need, in parallel with the embed-code request. */
let decoder: Promise<EntityDecoder> | undefined;
const loadDecoder = () =>
  (decoder ??= import('he').then(
    (module) => (text: string) => module.default.decode(text),
    (error: unknown) => {
      decoder = undefined;
      throw error;
    },
  ));

/** The play button of `loading="click"`, loaded only by pages that use it. */
let facadeChunk: Promise<typeof import('./facade.js')> | undefined;

/** The relay's public GETs, the validator and the builder: loaded with `he` on first need (see inject.ts). */
const loadBuilder = () => import('./inject.js');

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
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`.
 * @attr code - An embed code already in hand (entity-escaped, as the service returns it): no embed request to the relay.
 * @attr nonce - CSP nonce for the injected script; default `<meta name="svc-nonce">` or `SvcPlayer.nonce`.
 * @attr player-origin - Origin allowed for the player script; default `player_origin` of `GET /svc/config`.
 * @attr iframe-origins - Space-separated origins allowed for the iframe; default `iframe_origins` of `GET /svc/config` (or `player-origin` when only that is set).
 * @attr aspect-ratio - The content's aspect ratio (`16/9`, `4:3`, `9/16`, `1.5`): the box has it from the first paint and keeps it; the video is letterboxed or pillarboxed inside. Without it the box starts at 16:9 and adopts the video's ratio once the player reports it.
 * @attr state - Reflected, read-only: `idle`, `loading`, `ready` or `error`, for styling.
 *
 * @event svc-player-ready - The player was injected and loaded; `detail` is `{kind, contentId, variant, element}`.
 * @event svc-error - The embed code was refused (`embed_rejected`) or could not be loaded (relay codes, `network_error`); `detail` is `{code, message}` with the technical detail (also logged to the console); viewers see only a short message.
 *
 * @slot poster - With `loading="click"`: what to show before the viewer plays (e.g. an `<img>`), instead of the `poster` attribute.
 * @slot loading - Replaces the loading indicator.
 * @slot error - Replaces the viewer's error message (inside the `role="alert"` region; the technical message is in the `svc-error` event).
 * @slot player - Internal: the light-DOM container of the injected player. Do not use.
 *
 * @csspart box - The box with the reserved aspect ratio.
 * @csspart play - With `loading="click"`: the play button covering the box.
 * @csspart poster - With `loading="click"`: the poster image of the `poster` attribute.
 * @csspart stage - Where the player is shown.
 * @csspart loading - The loading indicator.
 * @csspart error - The error message.
 *
 * @cssproperty --svc-player-aspect-ratio - Aspect ratio of the box when no `aspect-ratio` attribute is given (default: the video's reported ratio, else `16 / 9`).
 * @cssproperty --svc-player-max-height - Largest height of the box (default `none`), e.g. `80vh` for portrait videos; the video is pillarboxed inside.
 * @cssproperty --svc-player-background - Background of the box before the player shows (default `#000`).
 * @cssproperty --svc-player-color - Text colour of the loading and error states (default `#fff`).
 * @cssproperty --svc-player-error-background - Background of the error state (default `#3b0d0c`).
 * @cssproperty --svc-player-play-background - Background of the round play button of `loading="click"`.
 * @cssproperty --svc-player-play-color - Colour of its play symbol (default `#fff`).
 * @cssproperty --svc-player-focus-color - Focus ring of the play button (default `#fff`).
 */
export class SvcPlayer extends LitElement {
  static override styles = styles;

  /** Page-wide default CSP nonce, used when neither `nonce` nor `<meta name="svc-nonce">` is set. */
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

  /** Base URL of the relay API. */
  @property() relay?: string | null;

  /** An embed code in hand (entity-escaped); when set, no embed request goes to the relay. */
  @property() code?: string | null;

  /** Origin allowed for the player script (overrides the relay's config). */
  @property({ attribute: 'player-origin' }) playerOrigin?: string | null;

  /** Space-separated origins allowed for the iframe (overrides the relay's config). */
  @property({ attribute: 'iframe-origins' }) iframeOrigins?: string | null;

  /**
   * The content's aspect ratio (`16/9`, `4:3`, `9/16`, `1.5`): the box has it from the first paint and
   * keeps it. Without it the box starts at `--svc-player-aspect-ratio` (16:9) and adopts the video's
   * ratio once the player reports it.
   */
  @property({ attribute: 'aspect-ratio' }) aspectRatio?: string | null;

  /** Replacement viewer strings; any key left out keeps its default (see `SvcPlayer.defaultStrings`). */
  @property({ attribute: false }) strings: Partial<SvcPlayerStrings> = {};

  /** Reflected, read-only: what the element is doing. */
  @property({ reflect: true }) state: SvcPlayerState = 'idle';

  @state() private message = '';


  #controller?: AbortController;
  #observer?: IntersectionObserver;
  #near = false;
  /** The viewer asked for the video (loading="click"); reset when the content changes. */
  #activated = false;
  /** The play button of `loading="click"`, once its chunk is loaded. */
  #facade?: import('./facade.js').Facade;

  #container?: HTMLElement;

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
    this.state = 'idle';
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

  async #loadFacade(): Promise<void> {
    try {
      const { createFacade, facadeSheet } = await (facadeChunk ??= import('./facade.js'));
      if (this.#facade) return;
      const root = this.renderRoot as ShadowRoot;
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, facadeSheet];
      this.#facade = createFacade(() => this.activate(), () => this.playerOrigin);
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

  /** The box's ratio as given (attribute) or reported (by the player); private custom properties on the host. */
  #setRatio(name: '--_svc-pg' | '--_svc-pr', ratio: string | undefined): void {
    if (ratio) this.style.setProperty(name, ratio);
    else this.style.removeProperty(name);
  }

  /** Fetches the embed code from the relay; override to get it elsewhere. */
  protected fetchCode(kind: EmbedKind, contentId: string, variant: EmbedVariant, signal: AbortSignal): Promise<unknown> {
    return loadBuilder().then((m) => m.fetchCode(this.#relayUrl(), kind, contentId, variant, signal));
  }

  /** `GET /svc/config` of the relay, fetched once per relay and shared by every player. */
  protected fetchConfig(): Promise<RelayConfig> {
    return loadBuilder().then((m) => m.fetchConfig(this.#relayUrl()));
  }

  #relayUrl(): string {
    return relayBaseUrl(this.relay, document);
  }

  /** Removes the injected player and forgets any load under way. */
  #reset(): void {
    this.#controller?.abort();
    this.#controller = undefined;
    this.#container?.remove();
    this.#container = undefined;
    this.#setRatio('--_svc-pr', undefined);
  }

  #schedule(): void {
    this.#reset();
    this.message = '';
    if (!this.isConnected) return;
    if (this.code == null && !this.contentId) {
      this.state = 'idle';
      return;
    }
    if (this.loading === 'click' && !this.#activated) {
      this.state = 'idle';
      this.#unobserve();
      return;
    }
    if (this.loading === 'lazy' && !this.#near) {
      this.state = 'idle';
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

  async #load(): Promise<void> {
    const controller = new AbortController();
    this.#controller = controller;
    const { signal } = controller;
    const { kind, variant, code } = this;
    const contentId = this.contentId ?? '';
    this.state = 'loading';
    try {
      const { buildPlayer, watchRatio, checkSource } = await loadBuilder();
      checkSource(kind, variant);
      // Then at once: he, the embed code and the allowed origins.
      const [decode, markup, policy] = await Promise.all([
        loadDecoder(),
        code != null ? code : this.fetchCode(kind, contentId, variant, signal),
        this.#policy(),
      ]);
      if (signal.aborted) return;
      const title = this.#s.title;
      const built = buildPlayer(document, markup, decode, policy, { nonce: this.#nonce(), title });
      if ('reason' in built) throw new SvcError('embed_rejected', built.message);
      const { embed, element: player } = built;
      const ready = () => {
        this.state = 'ready';
        this.#facade?.loaded(container, signal);
        const detail: SvcPlayerReadyDetail = {
          kind,
          contentId: contentId || (embed.contentId ?? ''),
          variant: embed.tag == 'script' ? 'javascript' : 'iframe',
          element: player,
        };
        emit(this, 'svc-player-ready', detail);
      };
      player.addEventListener('load', ready, { once: true, signal });
      player.addEventListener(
        'error',
        () => this.#fail(new SvcError('network_error', 'The player could not be loaded.')),
        { once: true, signal },
      );
      const container = document.createElement('div');
      watchRatio(container, player, signal, (ratio) => this.#setRatio('--_svc-pr', ratio));
      container.slot = 'player';
      container.append(player);
      this.#container = container;
      this.append(container);
    } catch (error) {
      if (!signal.aborted) this.#fail(error);
    }
  }

  async #policy(): Promise<EmbedPolicy> {
    const own = this.playerOrigin;
    const frames = this.iframeOrigins?.split(/\s+/).filter(Boolean);
    if (own) return { playerOrigin: own, iframeOrigins: frames ?? [own] };
    const config = await this.fetchConfig();
    return { playerOrigin: config?.player_origin, iframeOrigins: frames ?? config?.iframe_origins };
  }

  #nonce(): string | undefined {
    // `this.nonce` is the built-in property: it keeps the value after the browser hides the attribute.
    const meta = document.querySelector('meta[name="svc-nonce"]')?.getAttribute('content');
    return this.nonce || meta || SvcPlayer.nonce || undefined;
  }

  get #s(): SvcPlayerStrings {
    return { ...defaultStrings, ...this.strings };
  }

  /** Viewers read a short message; the code and the technical message go to `svc-error` and the console. */
  #fail(error: unknown): void {
    this.#reset();
    this.state = 'error';
    const { code, message } = emitError(this, error);
    console.warn('<svc-player>', code, message);
    this.message = TRANSIENT.test(code) ? this.#s.failed : this.#s.unavailable;
  }

  protected override render() {
    const current = this.state;
    const waiting = this.loading == 'click' && !this.#activated && current == 'idle' && (this.code != null || !!this.contentId);
    return html`<div part="box">
      <div part="stage" aria-busy=${current == 'loading'}><slot name="player"></slot></div>
      ${waiting && this.#facade
        ? (this.#facade.set(this.title, this.poster), this.#facade.button)
        : nothing}
      ${current == 'loading'
        ? html`<div part="loading" class="overlay" role="status">
            <slot name="loading"><div class="spinner"></div>${this.#s.loading}</slot>
          </div>`
        : nothing}
      ${current == 'error'
        ? html`<div part="error" class="overlay error" role="alert">
            <slot name="error"><p>${this.message}</p></slot>
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
