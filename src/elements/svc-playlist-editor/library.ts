// Two ways to add an item, loaded with `import()` once a playlist is shown: the caller's library
// (ready VODs and channels, filtered by title or id; an item already in the list is marked "In
// playlist") and a form that adds an item by id and type.
import { html, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { Task, TaskStatus } from '@lit/task';
import { toSvcError } from '../../core/errors.js';
import type { LibraryItem } from '../../core/relay-client.js';
import type { ContentType } from '../../service/types.js';
import type { ElementPort } from '../shared/part.js';
import { format } from '../shared/intl.js';
import { badge, titleOf } from './items.js';
import type { SvcPlaylistEditorStrings } from './strings.js';

/** What the pickers need from the playlist being edited. */
export interface PickedList {
  inList(id: string): boolean;
  /** The ids in the list (the same set while they are the same ids). */
  ids(): ReadonlySet<string>;
  /** Adds an item to the list; false when it was refused. */
  add(entry: { id: string; type: ContentType; title: string; typeFixed: boolean }): boolean;
}

const isContent = (item: LibraryItem) => item.type === 'vod' || item.type === 'channel';

/** Matches listed before "show all": a keystroke in the filter then lays out a hundred rows, not thousands. */
export const LIBRARY_PAGE_ROWS = 100;

/** The items of `items` whose title or id contains `filter` (ignoring case and outer spaces). */
export function matching(items: readonly LibraryItem[], filter: string): LibraryItem[] {
  const needle = filter.trim().toLowerCase();
  return items.filter((item) => !needle || item.title.toLowerCase().includes(needle) || item.id.toLowerCase().includes(needle));
}

export class Pickers {
  /** The caller's ready VODs and channels: loaded now, and again by `refresh()`. */
  readonly library = new Task(this.host, {
    autoRun: false,
    task: async (_: [], { signal }) => (await this.port.client().library(signal)).items.filter(isContent),
    onError: (error) => void this.port.emitError(error),
  });
  #filter = '';
  /** The whole library is listed (the "show all" button), until the filter changes. */
  #all = false;
  #errors: { id?: string; type?: string } = {};

  constructor(
    private readonly host: ReactiveElement,
    private readonly port: ElementPort<SvcPlaylistEditorStrings>,
    private readonly list: PickedList,
  ) {
    this.refresh();
  }

  refresh = (): void => void this.library.run([]);

  #add(item: LibraryItem): void {
    if (!this.list.inList(item.id) && isContent(item)) {
      this.list.add({ id: item.id, type: item.type as ContentType, title: item.title, typeFixed: true });
    }
  }

  #addById = (event: SubmitEvent): void => {
    event.preventDefault();
    const s = this.port.strings;
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const id = String(data.get('id') ?? '').trim();
    const type = String(data.get('type') ?? '');
    const errors: { id?: string; type?: string } = {};
    if (!id) errors.id = s.idRequired;
    else if (this.list.inList(id)) errors.id = s.idDuplicate;
    if (type !== 'vod' && type !== 'channel') errors.type = s.typeRequired;
    this.#errors = errors;
    this.host.requestUpdate();
    if (errors.id || errors.type) return this.port.focus(errors.id ? '#add-id' : '#add-type');
    const title = this.library.value?.find((item) => item.id === id)?.title ?? '';
    if (this.list.add({ id, type: type as ContentType, title, typeFixed: false })) form.reset();
  };

  render(s: SvcPlaylistEditorStrings): TemplateResult {
    return html`${this.#renderLibrary(s)}${this.#renderAddById(s)}`;
  }

  #renderLibrary(s: SvcPlaylistEditorStrings): TemplateResult {
    const { status, value: items, error } = this.library;
    const filter = this.#filter;
    const matches = matching(items ?? [], filter);
    const shown = this.#all ? matches : matches.slice(0, LIBRARY_PAGE_ROWS);
    const showAll = () => {
      this.#all = true;
      this.host.requestUpdate();
      this.port.focus(`li[part~="library-item"]:nth-child(${LIBRARY_PAGE_ROWS + 1}) button`, '#filter');
    };
    const partial =
      shown.length < matches.length
        ? html`<p part="library-more" class="hint">
            ${format(s.libraryPartial, { shown: shown.length, count: matches.length })}
            <button type="button" part="library-show-all" @click=${showAll}>${format(s.libraryShowAll, { count: matches.length })}</button>
          </p>`
        : nothing;
    const body =
      status === TaskStatus.ERROR
        ? html`<p part="error">${format(s.libraryFailed, { message: this.port.errorText(toSvcError(error).code) })}</p>`
        : !items
          ? html`<p class="hint">${s.libraryLoading}</p>`
          : !items.length
            ? html`<p class="hint">${s.libraryEmpty}</p>`
            : !shown.length
              ? html`<p class="hint">${format(s.libraryNoMatch, { filter })}</p>`
              : html`${guard([items, filter, this.#all, s, this.list.ids()], () => html`<ul part="library-list" aria-label=${s.libraryLabel}>
                  ${shown.map((item) => {
                    const inList = this.list.inList(item.id);
                    return html`<li part="library-item" data-id=${item.id} data-type=${item.type}>
                      <span class="what"><span class="title">${item.title || s.untitled}</span><code>${item.id}</code></span>
                      ${badge(s, item.type)}
                      <button type="button" aria-disabled=${inList ? 'true' : 'false'} @click=${() => this.#add(item)}>
                        ${inList ? s.inPlaylist : s.add}<span class="visually-hidden">: ${titleOf(s, item)}</span>
                      </button>
                    </li>`;
                  })}
                </ul>`)}${partial}`;
    const onFilter = (event: Event) => {
      this.#filter = (event.target as HTMLInputElement).value;
      this.#all = false;
      this.host.requestUpdate();
    };
    return html`
      <section part="library" class="stack" aria-labelledby="library-heading">
        <h3 id="library-heading">${s.libraryHeading}</h3>
        <div class="row">
          <div class="field">
            <label for="filter">${s.filterLabel}</label>
            <input id="filter" part="filter" type="search" autocomplete="off" .value=${filter} @input=${onFilter} />
          </div>
          <button type="button" ?disabled=${status === TaskStatus.PENDING} @click=${this.refresh}>${s.refresh}</button>
        </div>
        <div role="status" class="hint">${status === TaskStatus.PENDING && items ? s.libraryLoading : ''}</div>
        ${body}
      </section>
    `;
  }

  #renderAddById(s: SvcPlaylistEditorStrings): TemplateResult {
    const errors = this.#errors;
    const invalid = (error?: string) => (error ? 'true' : 'false');
    return html`
      <form part="add-by-id" class="stack" novalidate aria-labelledby="by-id-heading" @submit=${this.#addById}>
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
}
