// The form shown without `playlist-id`, loaded with `import()` only then: a title (required) and a
// description, each with its hint and, when refused, its error tied to the field. It creates the
// playlist through the relay and hands it to the element.
import { html, nothing, type TemplateResult } from 'lit';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import type { ElementPort } from '../shared/part.js';
import { format } from '../shared/intl.js';
import type { LoadingStrings } from './strings.js';

export class CreateForm {
  #errors: { title?: string; description?: string } = {};
  #creating = false;
  #error = '';

  constructor(
    private readonly port: ElementPort<LoadingStrings>,
    /** Shows the created playlist (resolves once it is shown). */
    private readonly created: (playlist: AnnotatedPlaylist) => Promise<void>,
  ) {}

  #submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    if (this.#creating) return;
    const s = this.port.strings;
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const title = String(data.get('title') ?? '').trim();
    const description = String(data.get('description') ?? '').trim();
    this.#errors = title ? {} : { title: s.titleRequired };
    this.#error = '';
    if (!title) return this.#update('#title');
    this.#creating = true;
    this.#update();
    try {
      await this.created(await this.port.client().createPlaylist({ title, description }));
    } catch (error) {
      const { code, fields } = this.port.emitError(error);
      const message = this.port.errorText(code);
      // The relay's field errors (400 validation_failed) mark the fields they are about.
      if (fields?.title || fields?.description) this.#errors = { title: fields.title && message, description: fields.description && message };
      this.#error = format(s.createFailed, { message });
    } finally {
      this.#creating = false;
      this.#update();
    }
  };

  #update(focus?: string): void {
    this.port.requestUpdate();
    if (focus) this.port.focus(focus);
  }

  render(s: LoadingStrings): TemplateResult {
    const errors = this.#errors;
    const creating = this.#creating;
    const field = (name: 'title' | 'description', label: string, hint: string, control: (invalid: string, describedBy: string) => TemplateResult) => html`
      <div class="field">
        <label for=${name}>${label}</label>
        ${control(errors[name] ? 'true' : 'false', `${name}-hint${errors[name] ? ` ${name}-error` : ''}`)}
        <span id="${name}-hint" class="hint">${hint}</span>
        ${errors[name] ? html`<span id="${name}-error" class="error">${errors[name]}</span>` : nothing}
      </div>
    `;
    return html`
      <form part="form" class="stack" novalidate aria-labelledby="form-heading" @submit=${this.#submit}>
        <h2 id="form-heading">${s.formHeading}</h2>
        ${field('title', s.titleLabel, s.titleHint, (invalid, describedBy) =>
          html`<input id="title" name="title" autocomplete="off" required maxlength="255" aria-invalid=${invalid}
            aria-describedby=${describedBy} ?disabled=${creating} />`)}
        ${field('description', s.descriptionLabel, s.descriptionHint, (invalid, describedBy) =>
          html`<textarea id="description" name="description" rows="2" maxlength="5000" aria-invalid=${invalid}
            aria-describedby=${describedBy} ?disabled=${creating}></textarea>`)}
        <div><button class="primary" type="submit" ?disabled=${creating}>${s.create}</button></div>
        <p part="status" role="status">${creating ? s.creating : ''}</p>
        ${this.#error ? html`<p part="error" role="alert">${this.#error}</p>` : nothing}
      </form>
    `;
  }
}
