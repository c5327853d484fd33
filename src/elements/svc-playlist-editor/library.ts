// Two ways to add an item, loaded with `import()` once a playlist is shown: the caller's library
// (filtered by title or id, an item already in the list marked "In playlist") and a form that adds
// an item by id and type.
import { html, nothing, type TemplateResult } from 'lit';
import type { LibraryItem } from '../../core/relay-client.js';
import { format } from '../shared/strings.js';
import { badge, titleOf } from './items.js';
import type { SvcPlaylistEditorStrings } from './strings.js';

export interface LibraryView {
  /** The library; undefined until it first loaded. */
  items: LibraryItem[] | undefined;
  loading: boolean;
  /** Why it could not be loaded; '' when it could. */
  error: string;
  filter: string;
  inList(id: string): boolean;
}

export interface LibraryActions {
  filter(value: string): void;
  refresh(): void;
  add(item: LibraryItem): void;
}

/** The items of `items` whose title or id contains `filter` (ignoring case and outer spaces). */
export function matching(items: readonly LibraryItem[], filter: string): LibraryItem[] {
  const needle = filter.trim().toLowerCase();
  return items.filter((item) => !needle || item.title.toLowerCase().includes(needle) || item.id.toLowerCase().includes(needle));
}

export function libraryPicker(s: SvcPlaylistEditorStrings, view: LibraryView, on: LibraryActions): TemplateResult {
  const { items, filter } = view;
  const shown = matching(items ?? [], filter);
  const body = view.error
    ? html`<p part="error">${view.error}</p>`
    : !items
      ? html`<p class="hint">${s.libraryLoading}</p>`
      : !items.length
        ? html`<p class="hint">${s.libraryEmpty}</p>`
        : !shown.length
          ? html`<p class="hint">${format(s.libraryNoMatch, { filter })}</p>`
          : html`<ul part="library-list" aria-label=${s.libraryLabel}>
              ${shown.map((item) => {
                const inList = view.inList(item.id);
                return html`<li part="library-item" data-id=${item.id} data-type=${item.type}>
                  <span class="what"><span class="title">${item.title || s.untitled}</span><code>${item.id}</code></span>
                  ${badge(s, item.type)}
                  <button type="button" aria-disabled=${inList ? 'true' : 'false'} @click=${() => on.add(item)}>
                    ${inList ? s.inPlaylist : s.add}<span class="visually-hidden">: ${titleOf(s, item)}</span>
                  </button>
                </li>`;
              })}
            </ul>`;
  return html`
    <section part="library" class="stack" aria-labelledby="library-heading">
      <h3 id="library-heading">${s.libraryHeading}</h3>
      <div class="row">
        <div class="field">
          <label for="filter">${s.filterLabel}</label>
          <input id="filter" part="filter" type="search" autocomplete="off" .value=${filter}
            @input=${(event: Event) => on.filter((event.target as HTMLInputElement).value)} />
        </div>
        <button type="button" ?disabled=${view.loading} @click=${on.refresh}>${s.refresh}</button>
      </div>
      <div role="status" class="hint">${view.loading && items ? s.libraryLoading : ''}</div>
      ${body}
    </section>
  `;
}

/** The "Add by id" form; `errors` are shown under their fields. */
export function addById(
  s: SvcPlaylistEditorStrings,
  errors: { id?: string; type?: string },
  onSubmit: (event: SubmitEvent) => void,
): TemplateResult {
  const invalid = (error?: string) => (error ? 'true' : 'false');
  return html`
    <form part="add-by-id" class="stack" novalidate aria-labelledby="by-id-heading" @submit=${onSubmit}>
      <h3 id="by-id-heading">${s.byIdHeading}</h3>
      <div class="row">
        <div class="field">
          <label for="add-id">${s.idLabel}</label>
          <input id="add-id" name="id" autocomplete="off" aria-invalid=${invalid(errors.id)}
            aria-describedby=${errors.id ? 'add-id-error' : nothing} />
        </div>
        <div class="field">
          <label for="add-type">${s.typeLabel}</label>
          <select id="add-type" name="type" aria-invalid=${invalid(errors.type)}
            aria-describedby=${errors.type ? 'add-type-error' : nothing}>
            <option value="">${s.chooseType}</option>
            <option value="vod">${s.vod}</option>
            <option value="channel">${s.channel}</option>
          </select>
        </div>
        <button type="submit">${s.addById}</button>
      </div>
      ${errors.id ? html`<span id="add-id-error" class="error">${errors.id}</span>` : nothing}
      ${errors.type ? html`<span id="add-type-error" class="error">${errors.type}</span>` : nothing}
    </form>
  `;
}
