import { html, nothing, type TemplateResult, type PropertyDeclarations } from 'lit';
import { Task, initialState } from '@lit/task';
import { networkError, toSvcError } from '../../core/errors.js';
import type { Channel } from '../../service/types.js';
import { emit } from '../shared/events.js';
import { focusAfterUpdate } from '../shared/focus.js';
import { LazyPart, lazyChunk } from '../shared/part.js';
import { format, numberFormat } from '../shared/intl.js';
import { Localized } from '../shared/strings.js';
import { baseStyles, formStyles } from '../shared/styles.js';
import { SvcElement } from '../shared/svc-element.js';
import { loadChunk } from '../svc-player/parts.js';
import { SvcPlayer } from '../svc-player/svc-player.js';
import { firstStrings } from './first-strings.js';
import { DEFAULT_LIMITS, MAX_LENGTH, problems, refusedFields, request } from './form-rules.js';
import type { Field, Limits, Problem } from './form-rules.js';
import { publicChannel, type PublicChannel } from './public-channel.js';
import type { Session } from './session.js';
import { settings } from './settings.js';
import type { SvcChannelSetupStrings } from './strings.js';
import { styles } from './svc-channel-setup.styles.js';

export type { PublicChannel, PublicChannelConfig } from './public-channel.js';
export type { Session } from './session.js';
export type { SvcChannelSetupStrings } from './strings.js';

export type SvcChannelSetupState = 'editing' | 'creating' | 'created';

/**
 * The panel, loaded once per page, when the first channel is being created; its preview's
 * <svc-player> is registered then. The player's class comes with this module, not with the panel:
 * a bundler (esbuild) makes a file of its own of any module that both a first paint and a part
 * loaded with `import()` reach, and on a page of several elements the player's is a first paint.
 */
const panelChunk = lazyChunk(() => import('./created-panel.js').then((panel) => (SvcPlayer.define(), panel)));

/**
 * Creates a live channel through the relay and hands the encoder everything it needs: ingest
 * addresses, stream key, login and password (masked, with reveal and copy), the player link, a live
 * preview and the embed code. The credentials live only in memory, only while the panel is shown.
 *
 * @tagname svc-channel-setup
 * @summary A calm form to create a live channel, then one panel with the encoder settings.
 *
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">` (in the head), else `/svc`; any other relay (another path on that origin, or another origin) is refused (`origin_not_trusted`, no token asked) unless the head lists it (its URL, or its origin) in `<meta name="svc-relay-origins">`.
 * @attr channel-title - The channel's title (the form's title field).
 * @attr description - The channel's description (the form's description field).
 * @attr region - The ingest region: `north_america` (default), `asia_pacific` or `europe`.
 * @attr rendition-count - The number of renditions, a whole number from 1 (default) to 5.
 * @attr novalidate - Skips the form's own checks and lets the relay judge the values (the fields it refuses are marked inline).
 * @attr state - Reflected, read-only: `editing`, `creating` or `created`, for styling.
 *
 * @event svc-channel-create - The channel was created; `detail` is the channel without its credentials (no `config.login`, `config.password`, `config.stream_name` nor `password`).
 * @event svc-error - Loading the settings, creating the channel, or loading its panel or embed code failed; `detail` is `{code, message}` (the viewer reads the code's message in their language).
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
 * @csspart waiting - "Waiting for the encoder…" over the preview, until the stream plays.
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
export class SvcChannelSetup extends SvcElement<SvcChannelSetupStrings> {
  static override styles = [baseStyles, formStyles, styles];
  protected static override readonly tag = 'svc-channel-setup';

  // Lit's static properties, as the player's: lit/decorators.js stays out of what a page downloads
  // first (bench: all four elements, with esbuild and Vite).
  static override properties: PropertyDeclarations = {
    channelTitle: { attribute: 'channel-title' },
    description: {},
    region: {},
    renditionCount: { attribute: 'rendition-count', type: Number },
    novalidate: { type: Boolean },
    session: { state: true },
  };

  /** The channel's title (named so because `title` is the global tooltip attribute). */
  channelTitle = '';

  /** The channel's description. */
  description = '';

  /** The ingest region. */
  region: string = 'north_america';

  /** The number of renditions; `NaN` while the field is empty or not a number. */
  renditionCount = 1;

  /** Skips the form's own checks, so the relay judges the values. */
  novalidate = false;

  private session: Session = {};

  // The panel's strings join the defaults when its part arrives (before anything shows them).
  protected readonly l10n = new Localized<SvcChannelSetupStrings>(this, 'svc-channel-setup', firstStrings as SvcChannelSetupStrings);

  /** The regions and rendition range of `GET /svc/config`; the seed's while they load or if they fail. */
  #config = new Task(this, {
    task: async (_relay: readonly [string | null | undefined], { signal }): Promise<Limits> => {
      const { regions, rendition_count } = await this.client().config(signal);
      return { regions: regions ?? DEFAULT_LIMITS.regions, rendition_count: rendition_count ?? DEFAULT_LIMITS.rendition_count };
    },
    args: () => [this.relay] as const,
    onError: (error) => void this.emitError(error),
  });

  /**
   * The created channel's embed code (script variant), decoded: the service sends it entity-escaped.
   * The decoder comes with the player's load chunk (shared/entities.ts), loaded meanwhile: the
   * panel's preview player needs that chunk too.
   */
  #embed = new Task(this, {
    task: async ([id]: readonly [string | undefined], { signal }) => {
      if (!id) return initialState;
      const [{ decoderFor }, { code }] = await Promise.all([
        loadChunk().catch((error: unknown) => {
          throw networkError(error);
        }),
        this.client().embed('channel', id, 'javascript', signal),
      ]);
      return (await decoderFor(code))(code);
    },
    args: () => [this.session.created?.channel.id] as const,
    onError: (error) => void this.emitError(error),
  });

  /** The panel, once there is a channel to show. */
  #panel = new LazyPart(this, panelChunk, {
    when: () => this.session.created !== undefined,
    onLoad: (panel) => this.l10n.extend(panel.strings),
    onError: (error) => this.emitError(error),
  });

  /** `editing`, `creating` or `created`; reflected as the `state` attribute. */
  override get state(): SvcChannelSetupState {
    return this.session.created ? 'created' : this.session.creating ? 'creating' : 'editing';
  }

  /** The created channel without its credentials, or undefined while the form is shown. */
  get channel(): PublicChannel | undefined {
    return this.session.created && publicChannel(this.session.created.channel);
  }

  /**
   * Checks the values (unless `novalidate`) and creates the channel. Resolves with the channel
   * without credentials, or undefined when it was not created (the reason is shown).
   */
  async create(): Promise<PublicChannel | undefined> {
    if (this.state !== 'editing') return undefined;
    const { channelTitle: title, description, region, renditionCount: renditions } = this;
    const body = request({ title, description, region, renditions });
    const found = this.novalidate ? {} : problems(body, this.#limits);
    if (Object.keys(found).length > 0) {
      this.session = { problems: found };
      await focusAfterUpdate(this, '[aria-invalid="true"]');
      return undefined;
    }
    this.session = { creating: true };
    this.announce(this.l10n.strings.creating);
    panelChunk().catch(() => {}); // fetched while the relay works; a failure shows once the channel exists
    let channel: Channel;
    try {
      channel = await this.client().createChannel(body);
    } catch (error) {
      const failure = toSvcError(error);
      this.session = { failure: failure.code, problems: refusedFields(failure.fields, body, this.#limits) };
      this.emitError(failure);
      await focusAfterUpdate(this, '[aria-invalid="true"]', 'button[type="submit"]');
      return undefined;
    }
    this.session = { created: { channel, region: body.region, renditions: body.rendition_count } };
    await this.updateComplete; // starts the panel's task
    await this.#panel.taskComplete.catch(() => undefined);
    await focusAfterUpdate(this, '#created-heading');
    const detail = publicChannel(channel);
    emit(this, 'svc-channel-create', detail);
    return detail;
  }

  /** Forgets the created channel and its credentials and shows an empty form again. */
  async reset(): Promise<void> {
    this.session = {};
    this.channelTitle = '';
    this.description = '';
    await focusAfterUpdate(this, '#title');
  }

  // The templates are written compactly (template literals are not minified): the element's first paint.
  override render(): TemplateResult {
    return html`<div dir=${this.l10n.dir}>${this.session.created ? this.#renderPanel(this.session.created) : this.#renderForm()}<div
      class="visually-hidden" role="status" aria-live="polite" part="status">${this.session.announcement}</div></div>`;
  }

  #renderForm(): TemplateResult {
    const s = this.l10n.strings;
    const { creating, failure } = this.session;
    const { min, max } = this.#limits.rendition_count;
    const region = this.#problem('region', 'region');
    return html`<form class="stack" part="form" novalidate aria-labelledby="form-heading" aria-busy=${creating ? 'true' : 'false'}
      @submit=${this.#onSubmit} @input=${this.#onEdit} @change=${this.#onEdit}><h2 id="form-heading" part="heading">${s.formHeading}</h2><slot></slot>${
      this.#config.render({
        error: (error) => html`<p class="hint" part="hint">${format(s.configFailed, { message: this.#errorText(error) })}</p>`,
      })}${
      this.#field('title', 'title', s.titleLabel, s.titleHint, (aria) => html`<input id="title" name="title" type="text" part="input" required
        autocomplete="off" maxlength=${MAX_LENGTH.title} aria-describedby=${aria.describedBy} aria-invalid=${aria.invalid} .value=${this.channelTitle} />`)}${
      this.#field('description', 'description', s.descriptionLabel, s.descriptionHint, (aria) => html`<textarea id="description" name="description" rows="2"
        part="input" maxlength=${MAX_LENGTH.description} aria-describedby=${aria.describedBy} aria-invalid=${aria.invalid} .value=${this.description}></textarea>`)}<fieldset
      class="field" part="field" aria-describedby=${region.describedBy}><legend part="label">${s.regionLegend}</legend><div class="choices">${
      this.#limits.regions.map((value, index) => html`<label><input type="radio" name="region" part="radio" value=${value} id=${index === 0 ? 'region' : nothing}
        aria-invalid=${region.invalid} .checked=${this.region === value} /> ${this.#regionLabel(value)}</label>`)}</div><p
      id="region-hint" class="hint" part="hint">${s.regionHint}</p>${region.message}</fieldset>${
      this.#field('renditions', 'rendition_count', s.renditionLabel, s.renditionHint, (aria) => html`<input id="renditions" name="rendition_count" type="number"
        inputmode="numeric" part="input" required min=${min} max=${max} step="1" aria-describedby=${aria.describedBy} aria-invalid=${aria.invalid}
        .value=${Number.isNaN(this.renditionCount) ? '' : String(this.renditionCount)} />`)}<div class="actions"><button type="submit" class="primary"
      part="submit" ?disabled=${creating}>${creating ? s.creating : s.submit}</button></div><p class="error" part="error" role="alert">${
      failure ? format(s.createFailed, { message: this.l10n.error(failure) }) : ''}</p></form>`;
  }

  /** One field: its label, its control (given the ARIA it needs), its hint, and its problem if any. */
  #field(id: string, field: Field, label: string, hint: string, control: (aria: FieldAria) => TemplateResult): TemplateResult {
    const aria = this.#problem(id, field);
    return html`<div class="field" part="field"><label for=${id} part="label">${label}</label>${control(aria)}<p id="${id}-hint" class="hint" part="hint">${
      hint}</p>${aria.message}</div>`;
  }

  #renderPanel(created: NonNullable<Session['created']>): unknown {
    return this.#panel.render({
      complete: (panel) =>
        panel.renderPanel(this.port, {
          created,
          settings: settings(created.channel, this.l10n.strings),
          session: this.session,
          regionLabel: (region) => this.#regionLabel(region),
          relay: this.relay,
          embed: this.#embed,
          root: this.renderRoot,
          patch: (change) => (this.session = { ...this.session, ...change }),
          reset: () => this.reset(),
        }),
      // Its code could not be downloaded: the credentials, shown once, must not be lost with it.
      error: (error) => html`<p class="error" part="error" role="alert">${this.#errorText(error)}</p><details><summary>${created.channel.title ?? created.channel.id}</summary><dl>${
        settings(created.channel, this.l10n.strings).map(({ label, value }) => html`<dt>${label}</dt><dd><code>${value}</code></dd>`)}</dl></details><div
        class="actions"><button type="button" @click=${() => void this.#panel.load().catch(() => undefined)}>${this.l10n.strings.retry}</button></div>`,
    });
  }

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.create();
  };

  /** An edit in the form: the value goes to its property, and the field's problem is no longer shown. */
  #onEdit = (event: Event): void => {
    const control = event.target as HTMLInputElement;
    if (control.getRootNode() !== this.renderRoot) return; // slotted content
    const field = control.name as Field;
    if (field === 'title') this.channelTitle = control.value;
    else if (field === 'description') this.description = control.value;
    else if (field === 'region') this.region = control.value;
    else if (field === 'rendition_count') this.renditionCount = control.valueAsNumber;
    const { problems } = this.session;
    if (problems?.[field]) this.session = { ...this.session, problems: { ...problems, [field]: undefined } };
  };

  get #limits(): Limits {
    return this.#config.value ?? DEFAULT_LIMITS;
  }

  /** A control's `aria-describedby` and `aria-invalid`, and the message under it when it has a problem. */
  #problem(id: string, field: Field): FieldAria {
    const problem = this.session.problems?.[field];
    return {
      describedBy: problem ? `${id}-hint ${id}-error` : `${id}-hint`,
      invalid: problem ? 'true' : 'false',
      message: problem ? html`<p id="${id}-error" class="error" part="field-error">${this.#message(field, problem)}</p>` : nothing,
    };
  }

  #message(field: Field, problem: Problem): string {
    const s = this.l10n.strings;
    const { min, max } = this.#limits.rendition_count;
    const n = (value: number) => numberFormat(this.l10n.locale).format(value);
    if (problem === 'required') return field === 'title' ? s.titleRequired : s.regionRequired;
    if (problem === 'too_long') return format(s.tooLong, { max: n(MAX_LENGTH[field as keyof typeof MAX_LENGTH]) });
    if (problem === 'out_of_range') return format(s.renditionInvalid, { min: n(min), max: n(max) });
    return s.fieldInvalid;
  }

  #regionLabel(region: string): string {
    const s = this.l10n.strings;
    const labels: Record<string, string> = { north_america: s.regionNorthAmerica, asia_pacific: s.regionAsiaPacific, europe: s.regionEurope };
    return labels[region] ?? region;
  }

  /** What the viewer reads for a failure: its code's message in their language, never the relay's sentence. */
  #errorText(error: unknown): string {
    return this.l10n.error(toSvcError(error).code);
  }

  /** Says `text` in the polite live region: emptied first so that the same words are said again; dropped if the view changed meanwhile. */
  protected override announce(text: string): void {
    this.session = { ...this.session, announcement: '' };
    const session = this.session;
    void this.updateComplete.then(() => {
      if (this.session === session) this.session = { ...session, announcement: text };
    });
  }
}

interface FieldAria {
  describedBy: string;
  invalid: 'true' | 'false';
  message: TemplateResult | typeof nothing;
}

declare global {
  interface HTMLElementEventMap {
    'svc-channel-create': CustomEvent<PublicChannel>;
  }
}
