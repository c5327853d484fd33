// The form shown without `playlist-id`, loaded with `import()` only then: a title (required) and a
// description, each with its hint and, when refused, its error tied to the field.
import { html, nothing, type TemplateResult } from 'lit';
import type { SvcPlaylistEditorStrings } from './strings.js';

export interface CreateFormView {
  errors: { title?: string; description?: string };
  creating: boolean;
  status: string;
  error: string;
}

function field(
  name: 'title' | 'description',
  label: string,
  hint: string,
  error: string | undefined,
  control: (invalid: string, describedBy: string) => TemplateResult,
): TemplateResult {
  return html`
    <div class="field">
      <label for=${name}>${label}</label>
      ${control(error ? 'true' : 'false', `${name}-hint${error ? ` ${name}-error` : ''}`)}
      <span id="${name}-hint" class="hint">${hint}</span>
      ${error ? html`<span id="${name}-error" class="error">${error}</span>` : nothing}
    </div>
  `;
}

export function createForm(s: SvcPlaylistEditorStrings, view: CreateFormView, onSubmit: (event: SubmitEvent) => void): TemplateResult {
  const { errors, creating } = view;
  return html`
    <form part="form" class="stack" novalidate aria-labelledby="form-heading" @submit=${onSubmit}>
      <h2 id="form-heading">${s.formHeading}</h2>
      ${field('title', s.titleLabel, s.titleHint, errors.title, (invalid, describedBy) =>
        html`<input id="title" name="title" autocomplete="off" required maxlength="255" aria-invalid=${invalid}
          aria-describedby=${describedBy} ?disabled=${creating} />`)}
      ${field('description', s.descriptionLabel, s.descriptionHint, errors.description, (invalid, describedBy) =>
        html`<textarea id="description" name="description" rows="2" maxlength="5000" aria-invalid=${invalid}
          aria-describedby=${describedBy} ?disabled=${creating}></textarea>`)}
      <div><button class="primary" type="submit" ?disabled=${creating}>${s.create}</button></div>
      <p part="status" role="status">${view.status}</p>
      ${view.error ? html`<p part="error" role="alert">${view.error}</p>` : nothing}
    </form>
  `;
}
