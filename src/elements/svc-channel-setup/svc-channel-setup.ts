import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { SvcError, toSvcError } from '../../core/errors.js';
import { RelayClient, relayBaseUrl, type RelayConfig } from '../../core/relay-client.js';
import type { Channel, ChannelCreateRequest, Region } from '../../service/types.js';
import { emit, emitError } from '../shared/events.js';
import { baseStyles } from '../shared/styles.js';
import { copyText } from './clipboard.js';
import { decodeEntities } from './decode-entities.js';
import { publicChannel, type PublicChannel } from './public-channel.js';
import { format } from '../shared/strings.js';
import { defaultStrings, type SvcChannelSetupStrings } from './strings.js';
import { styles } from './svc-channel-setup.styles.js';

export type { PublicChannel, PublicChannelConfig } from './public-channel.js';
export type { SvcChannelSetupStrings } from './strings.js';

type Field = 'title' | 'description' | 'region' | 'rendition_count';
type Secret = 'login' | 'password';
type Limits = Pick<RelayConfig, 'regions' | 'rendition_count'>;

/** What the form shows until (or unless) `GET /svc/config` answers: the seed's values. */
const DEFAULT_LIMITS: Limits = {
  regions: ['north_america', 'asia_pacific', 'europe'],
  rendition_count: { min: 1, max: 5 },
};

const FIELDS: readonly Field[] = ['title', 'description', 'region', 'rendition_count'];

interface Setting {
  key: string;
  label: string;
  value: string;
  secret?: Secret;
  href?: string;
}

export type SvcChannelSetupState = 'editing' | 'creating' | 'created';

/**
 * Creates a live channel through the relay and hands the encoder everything it needs: ingest
 * addresses, stream key, login and password (masked, with reveal and copy), the player link, a live
 * preview and the embed code. The credentials live only in memory, only while the panel is shown.
 *
 * @tagname svc-channel-setup
 * @summary A calm form to create a live channel, then one panel with the encoder settings.
 *
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`.
 * @attr channel-title - The channel's title (the form's title field).
 * @attr description - The channel's description (the form's description field).
 * @attr region - The ingest region: `north_america` (default), `asia_pacific` or `europe`.
 * @attr rendition-count - The number of renditions, a whole number from 1 (default) to 5.
 * @attr novalidate - Skips the form's own checks and lets the relay judge the values (its field messages are shown inline).
 * @attr state - Reflected, read-only: `editing`, `creating` or `created`, for styling.
 *
 * @event svc-channel-create - The channel was created; `detail` is the channel without its credentials (no `config.login`, `config.password`, `config.stream_name` nor `password`).
 * @event svc-error - Loading the settings, creating the channel or loading its embed code failed; `detail` is `{code, message}`.
 *
 * @slot - Introductory content shown under the form's heading.
 * @slot created - Extra content shown at the end of the panel, e.g. the next steps on your site.
 *
 * @csspart form - The form.
 * @csspart heading - The heading of the form and of the panel.
 * @csspart field - Each form field (label, control, hint, message).
 * @csspart label - Each field's label or legend.
 * @csspart input - The title, description and rendition count controls.
 * @csspart radio - Each region radio button.
 * @csspart hint - Each explanation under a field.
 * @csspart field-error - A field's validation message.
 * @csspart error - The message when the channel could not be created.
 * @csspart submit - The create button.
 * @csspart panel - The panel shown after creation.
 * @csspart notice - The notice to copy the credentials now.
 * @csspart summary - The line naming the channel, region and renditions.
 * @csspart settings - The list of encoder settings.
 * @csspart setting - One setting (name, value, buttons).
 * @csspart value - A setting's value.
 * @csspart reveal-button - The show toggle of the login and of the password.
 * @csspart copy-button - Every copy button.
 * @csspart copied - The visible "Copied" confirmation.
 * @csspart copy-error - The message when copying failed.
 * @csspart note - The note about the encoder's authentication option.
 * @csspart player-link - The link to the channel player.
 * @csspart preview - The `<svc-player>` preview.
 * @csspart embed-code - The read-only text area holding the embed code.
 * @csspart another-button - The "Create another channel" button.
 * @csspart status - The polite live region (visually hidden).
 *
 * @cssproperty --svc-channel-setup-max-width - Maximum width of the element (default 42rem).
 * @cssproperty --svc-channel-setup-gap - Space between fields and sections (default 1rem).
 * @cssproperty --svc-channel-setup-border-color - Border colour of inputs and values.
 * @cssproperty --svc-channel-setup-hint-color - Colour of explanations.
 * @cssproperty --svc-channel-setup-error-color - Colour of validation and error messages.
 * @cssproperty --svc-channel-setup-accent-color - Colour of links and of the main buttons.
 * @cssproperty --svc-channel-setup-button-background - Background of the main buttons.
 * @cssproperty --svc-channel-setup-button-color - Text colour of the main buttons.
 * @cssproperty --svc-channel-setup-surface - Background of inputs.
 * @cssproperty --svc-channel-setup-value-background - Background of setting values.
 * @cssproperty --svc-channel-setup-notice-background - Background of the copy-now notice.
 * @cssproperty --svc-channel-setup-notice-color - Text colour of the copy-now notice.
 * @cssproperty --svc-channel-setup-notice-border-color - Accent border of the copy-now notice.
 * @cssproperty --svc-channel-setup-success-color - Colour of the "Copied" confirmation.
 * @cssproperty --svc-channel-setup-mono-font - Font of values and of the embed code.
 */
export class SvcChannelSetup extends LitElement {
  static override styles = [baseStyles, styles];

  /** Registers the element under `tag` in `registry` (once). */
  static define(tag = 'svc-channel-setup', registry: CustomElementRegistry = customElements): typeof SvcChannelSetup {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** Base URL of the relay API; default from `<meta name="svc-relay">`, else `/svc`. */
  @property() relay?: string;

  /** The channel's title (named so because `title` is the global tooltip attribute). */
  @property({ attribute: 'channel-title' }) channelTitle = '';

  /** The channel's description. */
  @property() description = '';

  /** The ingest region. */
  @property() region: string = 'north_america';

  /** The number of renditions; `NaN` while the field is empty or not a number. */
  @property({ attribute: 'rendition-count', type: Number }) renditionCount = 1;

  /** Skips the form's own checks, so the relay judges the values. */
  @property({ type: Boolean }) novalidate = false;

  /** Replacement strings; any key left out keeps its default (see `SvcChannelSetup.defaultStrings`). */
  @property({ attribute: false }) strings: Partial<SvcChannelSetupStrings> = {};

  /** Returns a bearer token for the relay, when the host page authenticates by header. */
  @property({ attribute: false }) token?: () => string | undefined | Promise<string | undefined>;

  static readonly defaultStrings = defaultStrings;

  @state() private _limits: Limits = DEFAULT_LIMITS;
  @state() private _configError = '';
  @state() private _creating = false;
  @state() private _fieldErrors: Partial<Record<Field, string>> = {};
  @state() private _formError = '';
  /** The created channel, credentials included; kept in memory only, dropped by `reset()`. */
  @state() private _channel?: Channel;
  @state() private _created?: { region: string; renditions: number };
  @state() private _revealed: Partial<Record<Secret, boolean>> = {};
  @state() private _copied?: string;
  @state() private _copyError?: { key: string; message: string };
  @state() private _embedCode?: string;
  @state() private _embedError = '';
  @state() private _announcement = '';

  #configAbort?: AbortController;
  #embedAbort?: AbortController;
  #configLoaded = false;

  /** `editing`, `creating` or `created`; reflected as the `state` attribute. */
  get state(): SvcChannelSetupState {
    return this._channel ? 'created' : this._creating ? 'creating' : 'editing';
  }

  /** The created channel without its credentials, or undefined while the form is shown. */
  get channel(): PublicChannel | undefined {
    return this._channel && publicChannel(this._channel);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.#configLoaded) void this.#loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#configAbort?.abort();
  }

  /** The relay client; override to change how the element reaches the relay. */
  protected client(): RelayClient {
    return new RelayClient({ baseUrl: relayBaseUrl(this.relay, document), token: this.token });
  }

  /**
   * Checks the values (unless `novalidate`) and creates the channel. Resolves with the channel
   * without credentials, or undefined when it was not created (the reason is shown).
   */
  async create(): Promise<PublicChannel | undefined> {
    if (this._creating || this._channel) return undefined;
    this._formError = '';
    this._fieldErrors = this.novalidate ? {} : this.#validate();
    if (Object.keys(this._fieldErrors).length > 0) {
      await this.updateComplete;
      this.#focusFirstProblem();
      return undefined;
    }
    const request = {
      title: this.channelTitle.trim(),
      description: this.description,
      region: this.region as Region,
      rendition_count: this.renditionCount,
    } satisfies ChannelCreateRequest;
    this._creating = true;
    void this.#announce(this.#strings.creating);
    let channel: Channel;
    try {
      channel = checkChannel(await this.client().createChannel(request));
    } catch (error) {
      this._creating = false;
      this.#showCreateError(error);
      await this.updateComplete;
      this.#focusFirstProblem();
      return undefined;
    }
    this._creating = false;
    this._channel = channel;
    this._created = { region: request.region, renditions: request.rendition_count };
    this._announcement = '';
    void this.#loadEmbed(channel.id);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#created-heading')?.focus();
    const detail = publicChannel(channel);
    emit(this, 'svc-channel-create', detail);
    return detail;
  }

  /** Forgets the created channel and its credentials and shows an empty form again. */
  async reset(): Promise<void> {
    this.#embedAbort?.abort();
    this._channel = undefined;
    this._created = undefined;
    this._revealed = {};
    this._copied = undefined;
    this._copyError = undefined;
    this._embedCode = undefined;
    this._embedError = '';
    this._fieldErrors = {};
    this._formError = '';
    this._announcement = '';
    this.channelTitle = '';
    this.description = '';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#title')?.focus();
  }

  override updated(): void {
    if (this.getAttribute('state') !== this.state) this.setAttribute('state', this.state);
  }

  override render(): TemplateResult {
    return html`
      ${this._channel && this._created ? this.#renderPanel(this._channel, this._created) : this.#renderForm()}
      <div class="visually-hidden" role="status" aria-live="polite" part="status">${this._announcement}</div>
    `;
  }

  get #strings(): SvcChannelSetupStrings {
    return { ...defaultStrings, ...this.strings };
  }

  #regionLabel(region: string): string {
    const s = this.#strings;
    const labels: Record<string, string> = {
      north_america: s.regionNorthAmerica,
      asia_pacific: s.regionAsiaPacific,
      europe: s.regionEurope,
    };
    return labels[region] ?? region;
  }

  #validate(): Partial<Record<Field, string>> {
    const s = this.#strings;
    const { min, max } = this._limits.rendition_count;
    const errors: Partial<Record<Field, string>> = {};
    if (!this.channelTitle.trim()) errors.title = s.titleRequired;
    if (!this._limits.regions.includes(this.region as Region)) errors.region = s.regionRequired;
    const count = this.renditionCount;
    if (!Number.isInteger(count) || count < min || count > max) {
      errors.rendition_count = format(s.renditionInvalid, { min, max });
    }
    return errors;
  }

  #showCreateError(error: unknown): void {
    const failure = toSvcError(error);
    const fields: Partial<Record<Field, string>> = {};
    const others: string[] = [];
    for (const [name, message] of Object.entries(failure.fields ?? {})) {
      if ((FIELDS as readonly string[]).includes(name)) fields[name as Field] = message;
      else others.push(message);
    }
    this._fieldErrors = fields;
    const message = [failure.message, ...others].join(' ');
    this._formError = format(this.#strings.createFailed, { message });
    this._announcement = '';
    emitError(this, failure);
  }

  #focusFirstProblem(): void {
    const invalid = this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? this.renderRoot.querySelector<HTMLElement>('button[type="submit"]'))?.focus();
  }

  async #announce(text: string): Promise<void> {
    // Emptied first so that the same words are announced again.
    this._announcement = '';
    await this.updateComplete;
    this._announcement = text;
  }

  async #loadConfig(): Promise<void> {
    this.#configAbort?.abort();
    const abort = (this.#configAbort = new AbortController());
    try {
      const config = await this.client().config(abort.signal);
      this._limits = checkLimits(config);
      this._configError = '';
      this.#configLoaded = true;
    } catch (error) {
      if (abort.signal.aborted) return;
      const { message } = emitError(this, error);
      this._configError = format(this.#strings.configFailed, { message });
    }
  }

  async #loadEmbed(id: string): Promise<void> {
    this.#embedAbort?.abort();
    const abort = (this.#embedAbort = new AbortController());
    try {
      const { code } = await this.client().embed('channel', id, 'javascript', abort.signal);
      if (typeof code !== 'string') throw new SvcError('embed_rejected', 'The embed code is not text.');
      if (!abort.signal.aborted) this._embedCode = decodeEntities(code);
    } catch (error) {
      if (abort.signal.aborted) return;
      const { message } = emitError(this, error);
      this._embedError = format(this.#strings.embedFailed, { message });
    }
  }

  async #copy(setting: Setting, button: HTMLElement): Promise<void> {
    const s = this.#strings;
    const copied = await copyText(setting.value, this.renderRoot, button);
    if (copied) {
      this._copied = setting.key;
      this._copyError = undefined;
      await this.#announce(format(s.copiedAnnouncement, { label: setting.label }));
    } else {
      this._copied = undefined;
      this._copyError = { key: setting.key, message: format(s.copyFailed, { label: setting.label }) };
      await this.#announce(this._copyError.message);
    }
  }

  #describedBy(id: string, field: Field): string {
    return this._fieldErrors[field] ? `${id}-hint ${id}-error` : `${id}-hint`;
  }

  #fieldError(id: string, field: Field): TemplateResult | typeof nothing {
    const message = this._fieldErrors[field];
    return message
      ? html`<p id="${id}-error" class="field-error" part="field-error">${message}</p>`
      : nothing;
  }

  #clearFieldError(field: Field): void {
    if (this._fieldErrors[field]) this._fieldErrors = { ...this._fieldErrors, [field]: undefined };
  }

  #renderForm(): TemplateResult {
    const s = this.#strings;
    const { min, max } = this._limits.rendition_count;
    const errors = this._fieldErrors;
    const count = Number.isNaN(this.renditionCount) ? '' : String(this.renditionCount);
    return html`
      <form part="form" novalidate aria-labelledby="form-heading" aria-busy=${this._creating ? 'true' : 'false'}
        @submit=${this.#onSubmit}>
        <h2 id="form-heading" part="heading">${s.formHeading}</h2>
        <slot></slot>
        ${this._configError ? html`<p class="hint" part="hint">${this._configError}</p>` : nothing}
        <div class="field" part="field">
          <label for="title" part="label">${s.titleLabel}</label>
          <input id="title" name="title" type="text" part="input" required autocomplete="off"
            aria-describedby=${this.#describedBy('title', 'title')}
            aria-invalid=${errors.title ? 'true' : 'false'}
            .value=${this.channelTitle}
            @input=${(event: Event) => {
              this.channelTitle = (event.target as HTMLInputElement).value;
              this.#clearFieldError('title');
            }} />
          <p id="title-hint" class="hint" part="hint">${s.titleHint}</p>
          ${this.#fieldError('title', 'title')}
        </div>
        <div class="field" part="field">
          <label for="description" part="label">${s.descriptionLabel}</label>
          <textarea id="description" name="description" rows="2" part="input"
            aria-describedby=${this.#describedBy('description', 'description')}
            aria-invalid=${errors.description ? 'true' : 'false'}
            .value=${this.description}
            @input=${(event: Event) => {
              this.description = (event.target as HTMLTextAreaElement).value;
              this.#clearFieldError('description');
            }}></textarea>
          <p id="description-hint" class="hint" part="hint">${s.descriptionHint}</p>
          ${this.#fieldError('description', 'description')}
        </div>
        <fieldset class="field" part="field" aria-describedby=${this.#describedBy('region', 'region')}>
          <legend part="label">${s.regionLegend}</legend>
          <div class="choices">
            ${this._limits.regions.map(
              (region, index) => html`
                <label>
                  <input type="radio" name="region" part="radio" value=${region}
                    id=${ifDefined(index === 0 ? 'region' : undefined)}
                    aria-invalid=${errors.region ? 'true' : 'false'}
                    .checked=${this.region === region}
                    @change=${() => {
                      this.region = region;
                      this.#clearFieldError('region');
                    }} />
                  ${this.#regionLabel(region)}
                </label>
              `,
            )}
          </div>
          <p id="region-hint" class="hint" part="hint">${s.regionHint}</p>
          ${this.#fieldError('region', 'region')}
        </fieldset>
        <div class="field" part="field">
          <label for="renditions" part="label">${s.renditionLabel}</label>
          <input id="renditions" name="rendition_count" type="number" inputmode="numeric" part="input" required
            min=${min} max=${max} step="1"
            aria-describedby=${this.#describedBy('renditions', 'rendition_count')}
            aria-invalid=${errors.rendition_count ? 'true' : 'false'}
            .value=${count}
            @input=${(event: Event) => {
              this.renditionCount = (event.target as HTMLInputElement).valueAsNumber;
              this.#clearFieldError('rendition_count');
            }} />
          <p id="renditions-hint" class="hint" part="hint">${s.renditionHint}</p>
          ${this.#fieldError('renditions', 'rendition_count')}
        </div>
        <div class="actions">
          <button type="submit" part="submit" ?disabled=${this._creating}>
            ${this._creating ? s.creating : s.submit}
          </button>
        </div>
        <p class="error" part="error" role="alert">${this._formError}</p>
      </form>
    `;
  }

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.create();
  };

  #settings(channel: Channel): Setting[] {
    const s = this.#strings;
    const { config } = channel;
    const share = channel.share_code;
    const playerLink = [share?.facebook, share?.twitter, share?.gplus].find(isWebUrl) ?? '';
    return [
      { key: 'id', label: s.channelIdLabel, value: channel.id },
      { key: 'primary', label: s.primaryLabel, value: config.publishing_point_primary },
      // The service can answer null for the backup address (docs/real-service.md): no row then.
      ...(config.publishing_point_backup ? [{ key: 'backup', label: s.backupLabel, value: config.publishing_point_backup }] : []),
      { key: 'stream-key', label: s.streamKeyLabel, value: config.stream_name },
      { key: 'login', label: s.loginLabel, value: config.login, secret: 'login' },
      { key: 'password', label: s.passwordLabel, value: config.password, secret: 'password' },
      ...(playerLink ? [{ key: 'player-link', label: s.playerLinkLabel, value: playerLink, href: playerLink }] : []),
    ];
  }

  #renderValue(setting: Setting): TemplateResult {
    const s = this.#strings;
    if (setting.secret && !this._revealed[setting.secret]) {
      return html`<span aria-hidden="true">••••••••</span><span class="visually-hidden">${s.hidden}</span>`;
    }
    if (setting.href) {
      return html`<a href=${setting.href} target="_blank" rel="noopener noreferrer" part="player-link">${setting.value}</a>`;
    }
    return html`${setting.value}`;
  }

  #copyButton(setting: Setting): TemplateResult {
    const s = this.#strings;
    return html`
      <button type="button" part="copy-button" data-copy=${setting.key}
        aria-label=${format(s.copyLabel, { label: setting.label })}
        @click=${(event: Event) => this.#copy(setting, event.currentTarget as HTMLElement)}>${s.copy}</button>
      ${
        // Always there, hidden until used, so that the confirmation never moves the layout.
        html`<span class="copied" part=${this._copied === setting.key ? 'copied' : nothing}
          ?hidden=${this._copied !== setting.key}>${s.copied}</span>`
      }
      ${this._copyError?.key === setting.key
        ? html`<span class="field-error" part="copy-error">${this._copyError.message}</span>`
        : nothing}
    `;
  }

  #renderSetting(setting: Setting): TemplateResult {
    const s = this.#strings;
    const secret = setting.secret;
    return html`
      <div part="setting" data-setting=${setting.key}>
        <dt id="label-${setting.key}">${setting.label}</dt>
        <dd>
          <code class="value" part="value" id="value-${setting.key}">${this.#renderValue(setting)}</code>
          ${secret
            ? html`<button type="button" part="reveal-button" data-reveal=${secret}
                aria-label=${format(this._revealed[secret] ? s.concealLabel : s.revealLabel, { label: setting.label })}
                aria-pressed=${this._revealed[secret] ? 'true' : 'false'}
                @click=${() => (this._revealed = { ...this._revealed, [secret]: !this._revealed[secret] })}>
                ${this._revealed[secret] ? s.conceal : s.reveal}
              </button>`
            : nothing}
          ${this.#copyButton(setting)}
        </dd>
      </div>
    `;
  }

  #renderPanel(channel: Channel, created: { region: string; renditions: number }): TemplateResult {
    const s = this.#strings;
    const embed: Setting = { key: 'embed', label: s.embedLabel, value: this._embedCode ?? '' };
    return html`
      <section part="panel" aria-labelledby="created-heading">
        <h2 id="created-heading" part="heading" tabindex="-1">${s.createdHeading}</h2>
        <p class="notice" part="notice">${s.copyNow}</p>
        <p part="summary">
          ${format(s.summary, {
            title: channel.title,
            region: this.#regionLabel(created.region),
            count: created.renditions,
          })}
        </p>
        <dl part="settings">${this.#settings(channel).map((setting) => this.#renderSetting(setting))}</dl>
        <p class="hint" part="note">${s.authNote}</p>
        <section class="preview-section" aria-labelledby="preview-heading">
          <h3 id="preview-heading">${s.previewHeading}</h3>
          <p class="hint" part="hint">${s.previewHint}</p>
          ${/* The iframe variant: a vendor player.js cannot find its script inside this shadow root. */ ''}
          <svc-player class="preview" part="preview" kind="channel" variant="iframe" content-id=${channel.id}
            loading="eager" relay=${ifDefined(this.relay || undefined)}></svc-player>
        </section>
        <div class="field embed" part="field">
          <label for="embed-code" part="label">${s.embedLabel}</label>
          ${this._embedError
            ? html`<p class="field-error" part="field-error" role="alert">${this._embedError}</p>`
            : this._embedCode === undefined
              ? html`<p class="hint" part="hint">${s.embedLoading}</p>`
              : nothing}
          <textarea id="embed-code" part="embed-code" readonly rows="4" spellcheck="false" aria-describedby="embed-hint"
            .value=${this._embedCode ?? ''}></textarea>
          <p id="embed-hint" class="hint" part="hint">${s.embedHint}</p>
          <div class="actions">${this._embedCode ? this.#copyButton(embed) : nothing}</div>
        </div>
        <slot name="created"></slot>
        <div class="actions">
          <button type="button" class="primary" part="another-button" @click=${() => this.reset()}>
            ${s.createAnother}
          </button>
        </div>
      </section>
    `;
  }
}

/** The relay's answer must carry what the panel shows; anything else is an error, not a blank panel. */
function checkChannel(value: unknown): Channel {
  const channel = value as Channel;
  const config = channel?.config;
  const strings = [
    channel?.id,
    config?.publishing_point_primary,
    config?.publishing_point_backup ?? '',
    config?.stream_name,
    config?.login,
    config?.password,
  ];
  if (!strings.every((item) => typeof item === 'string')) {
    throw new SvcError('upstream_rejected', 'The relay answered without the channel’s ingest settings.');
  }
  return channel;
}

/** Only http(s) URLs become links (a `javascript:` URL from anywhere must never be clickable). */
function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function checkLimits(config: RelayConfig): Limits {
  const { regions, rendition_count: range } = config ?? {};
  const valid =
    Array.isArray(regions) &&
    regions.length > 0 &&
    regions.every((region) => typeof region === 'string') &&
    Number.isInteger(range?.min) &&
    Number.isInteger(range?.max) &&
    range.min <= range.max;
  if (!valid) throw new SvcError('internal', 'The relay’s settings have no regions or rendition range.');
  return { regions, rendition_count: { min: range.min, max: range.max } };
}

declare global {
  interface HTMLElementEventMap {
    'svc-channel-create': CustomEvent<PublicChannel>;
  }
}
