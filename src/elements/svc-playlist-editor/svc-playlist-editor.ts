// <svc-playlist-editor>: curate a playlist of VODs and live channels without ever losing an item.
// This class is what a page loads first: the attributes and properties, loading the playlist (a
// @lit/task), the element's state and the live region. What shows a playlist and edits it
// (editing.ts, with the toolbar, the items, the conflict panel and the library) and the creation
// form (create-form.ts) are loaded with `import()` when first needed; the edit rules themselves
// (order, types, undo, dirty) live in the DOM-free PlaylistModel.
import { html, type PropertyValues, type TemplateResult, type PropertyDeclarations } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import { toSvcError, type SvcError } from '../../core/errors.js';
import type { PlaylistEntry } from '../../core/playlist-model.js';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import { emit } from '../shared/events.js';
import { focusAfterUpdate } from '../shared/focus.js';
import { LazyPart, lazyChunk } from '../shared/part.js';
import { format } from '../shared/intl.js';
import { Localized } from '../shared/strings.js';
import { baseStyles, formStyles } from '../shared/styles.js';
import { SvcElement } from '../shared/svc-element.js';
import type { CreateForm } from './create-form.js';
import type { PlaylistEditing } from './editing.js';
import type { PlaylistEventDetail } from './events.js';
import { loadingStrings } from './loading.strings.js';
import type { LoadingStrings, SvcPlaylistEditorStrings } from './strings.js';
import { styles } from './styles.js';

export type * from './events.js';
export type { SvcPlaylistEditorStrings } from './strings.js';

const TEXT_ENTRY = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
/** The editing part and the creation form, loaded with `import()` when first shown. */
const editingChunk = lazyChunk(() => import('./editing.js'));
const formChunk = lazyChunk(() => import('./create-form.js'));

/**
 * Creates, loads and edits a playlist of VODs and live channels through the relay. Items keep their
 * order and type; an item whose type the relay does not know is flagged and must be given a type
 * before saving, never dropped. Saving sends the whole list with the loaded `save_date`; when
 * someone else saved in between, nothing is overwritten unless the user chooses to.
 *
 * @tagname svc-playlist-editor
 * @summary Curate a playlist: add from the library or by id, reorder by drag and drop or keyboard, save safely.
 *
 * @attr playlist-id - The playlist to edit. Without it the element shows a form that creates one, then sets this attribute.
 * @attr relay - Base URL of the relay API; default from `<meta name="svc-relay">` (in the head), else `/svc`; any other relay (another path on that origin, or another origin) is refused (`origin_not_trusted`, no token asked) unless the head lists it (its URL, or its origin) in `<meta name="svc-relay-origins">`.
 * @attr dirty - Reflected, read-only: present while there are unsaved changes.
 * @attr state - Reflected, read-only: `create`, `loading`, `ready`, `saving`, `conflict` or `error`.
 *
 * @event svc-playlist-load - A playlist was loaded (or their version reloaded after a conflict). `detail: {playlistId, playlist}`.
 * @event svc-playlist-create - The form created a playlist; `playlist-id` is already set. `detail: {playlistId, playlist}`.
 * @event svc-playlist-change - The edited list changed. `detail: {playlistId, kind, items, dirty}`; `kind` is `add`, `remove`, `move`, `type`, `undo`, `revert` or `reload`.
 * @event svc-playlist-save - The list was saved. `detail: {playlistId, playlist, items, overwrite}`.
 * @event svc-playlist-conflict - Saving found a newer version by someone else; nothing was overwritten. `detail: {playlistId, current, items}`.
 * @event svc-error - A request failed or saving was refused. `detail: {code, message, playlistId}`.
 *
 * @slot heading - Replaces the playlist title heading.
 * @slot empty - Shown instead of the default text when the playlist has no items.
 *
 * @csspart form - The creation form.
 * @csspart header - Title, description and dirty indicator.
 * @csspart title - The playlist title.
 * @csspart description - The playlist description.
 * @csspart toolbar - Save, Revert, Undo and the dirty indicator.
 * @csspart dirty - The dirty indicator.
 * @csspart save - The Save button.
 * @csspart revert - The Revert button.
 * @csspart undo - The Undo button.
 * @csspart reason - Why saving is blocked.
 * @csspart list - The ordered list of items.
 * @csspart item - One item row (draggable, focusable).
 * @csspart badge - A type badge; also `badge-vod`, `badge-channel`, `badge-unknown`.
 * @csspart type-select - The control that gives an unknown item its type.
 * @csspart conflict - The panel shown when someone else saved first.
 * @csspart library - The "add from your library" section.
 * @csspart filter - The library filter box.
 * @csspart library-list - The library items.
 * @csspart library-item - One library item.
 * @csspart library-more - The line under a library of more than 100 matches (the first 100 are listed), with its button.
 * @csspart library-show-all - The button that lists every match.
 * @csspart add-by-id - The "add by id" form.
 * @csspart status - Visible status messages.
 * @csspart error - Visible error messages.
 * @csspart live - The visually hidden polite live region that announces moves and other changes.
 *
 * @cssproperty --svc-playlist-editor-max-width - Maximum width (48rem).
 * @cssproperty --svc-playlist-editor-gap - Space between sections (1rem).
 * @cssproperty --svc-playlist-editor-border-color - Borders (#8a8f98).
 * @cssproperty --svc-playlist-editor-hint-color - Hints and muted text (#4b5260; dark #b4bac4).
 * @cssproperty --svc-playlist-editor-error-color - Errors and the conflict panel (#b3261e; dark #ffb4ab).
 * @cssproperty --svc-playlist-editor-accent-color - The Save button (#0b57d0; dark #a8c7fa).
 * @cssproperty --svc-playlist-editor-surface - Inputs' background (#fff; dark #24272c).
 * @cssproperty --svc-playlist-editor-item-background - Item rows (#f6f7f9; dark #23262b).
 * @cssproperty --svc-playlist-editor-drop-color - The drop marker while dragging (#0b57d0; dark #a8c7fa).
 * @cssproperty --svc-playlist-editor-vod-color - The VOD badge (#0b57d0; dark #a8c7fa).
 * @cssproperty --svc-playlist-editor-channel-color - The Channel badge (#6b2fa3; dark #d7b8f3).
 * @cssproperty --svc-playlist-editor-unknown-color - The Unknown type badge and row marker (#8a4b00; dark #ffb870).
 * @cssproperty --svc-playlist-editor-dirty-color - The dirty indicator while dirty (#8a4b00; dark #ffb870).
 * @cssproperty --svc-playlist-editor-mono-font - Ids.
 * @cssproperty --svc-playlist-editor-library-max-height - Height of the library list before it scrolls (18rem).
 */
export class SvcPlaylistEditor extends SvcElement<SvcPlaylistEditorStrings> {
  static override styles = [baseStyles, formStyles, styles];
  protected static override readonly tag = 'svc-playlist-editor';

  // Lit's static properties, as the player's: lit/decorators.js stays out of what a page downloads
  // first (bench: all four elements, with esbuild and Vite).
  static override properties: PropertyDeclarations = {
    playlistId: { attribute: 'playlist-id', reflect: true },
    editing: { state: true },
    announcement: { state: true },
  };

  /** The playlist to edit; set by the element after the form creates one. */
  playlistId: string | null = null;

  /** The playlist shown, with my edits; undefined while there is none. */
  private editing?: PlaylistEditing;
  /** What the polite live region says. */
  private announcement = '';

  // The editing strings join the defaults when their part arrives (before anything shows them).
  protected readonly l10n = new Localized<SvcPlaylistEditorStrings>(this, 'svc-playlist-editor', loadingStrings as SvcPlaylistEditorStrings);

  /** What shows and edits a playlist. */
  #editing = new LazyPart(this, editingChunk, { onLoad: (part) => this.l10n.extend(part.strings) });

  /** The creation form, loaded while the element has no `playlist-id`. */
  #form = new LazyPart(this, formChunk, { when: () => !this.playlistId, onError: (error) => this.emitError(error) });
  #createForm?: CreateForm;

  /** The playlist named by `playlist-id` (and what edits it): run when it names another one, and by `reload()`. */
  #load = new Task(this, {
    autoRun: false,
    task: ([id]: [string], { signal }) => Promise.all([this.client().playlist(id, signal), this.#editing.load()]),
    onComplete: ([playlist, { PlaylistEditing }]) => {
      if (this.editing?.playlist.id === playlist.id) this.editing.rebase(playlist);
      else this.editing = new PlaylistEditing(this, this.port, playlist);
      emit<PlaylistEventDetail>(this, 'svc-playlist-load', { playlistId: playlist.id, playlist });
    },
    onError: (error) => {
      const s = this.l10n.strings;
      const { code } = toSvcError(error);
      if (code === 'aborted') return;
      if (this.editing) this.editing.fail(error, s.loadFailed);
      else this.emitError(error);
    },
  });

  /** Says `text` in the polite live region; a repeated message is still announced (the text changes). */
  protected override announce(text: string): void {
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  /** Every `svc-error` of the editor names its playlist. */
  protected override emitError(error: unknown, detail: object = {}): SvcError {
    return super.emitError(error, { playlistId: this.playlistId, ...detail });
  }

  constructor() {
    super();
    this.addEventListener('keydown', this.#onHostKeydown);
  }

  /** The edited items, in order. */
  get items(): readonly PlaylistEntry[] {
    return this.editing?.model.items ?? [];
  }

  /** True while there are unsaved changes. */
  get dirty(): boolean {
    return this.editing?.model.dirty ?? false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('beforeunload', this.#onBeforeUnload);
    // Back in the page: load again what leaving it cut off.
    if (this.hasUpdated && this.playlistId && !this.editing) void this.reload();
    if (this.hasUpdated) this.editing?.resume();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#load.abort();
    this.editing?.pause();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('playlistId')) return;
    if (this.playlistId) this.#createForm = undefined; // a form shown again starts empty
    if (this.playlistId === this.editing?.playlist.id) return;
    this.#load.abort();
    this.editing?.close();
    this.editing = undefined;
    if (this.playlistId) void this.reload();
  }

  /** `create`, `loading`, `ready`, `saving`, `conflict` or `error`; reflected as the `state` attribute. */
  override get state(): 'create' | 'loading' | 'ready' | 'saving' | 'conflict' | 'error' {
    const { editing } = this;
    return !editing ? this.#phase : editing.saving ? 'saving' : editing.conflict ? 'conflict' : 'ready';
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.toggleAttribute('dirty', this.dirty);
  }

  /** Resolves once rendered, including the creation form while it is being loaded with `import()`. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    if (this.#form.status !== TaskStatus.PENDING) return done;
    await this.#form.taskComplete.catch(() => undefined);
    return super.getUpdateComplete();
  }

  /** (Re)loads the playlist from the relay. Unsaved changes stay in the undo history. */
  async reload(): Promise<void> {
    if (this.playlistId) await this.#load.run([this.playlistId]);
  }

  /** Saves the whole list. With `overwrite`, uses the conflicting version's `save_date` as the base. */
  async save(overwrite = false): Promise<boolean> {
    return (await this.editing?.save(overwrite)) ?? false;
  }

  /** Undoes the last change. */
  undo(): void {
    this.editing?.undo();
  }

  /** Discards unsaved changes (itself undoable). */
  revert(): void {
    this.editing?.revert();
  }

  get #phase(): 'create' | 'loading' | 'ready' | 'error' {
    if (!this.playlistId) return 'create';
    if (this.editing) return 'ready';
    return this.#load.status === TaskStatus.ERROR ? 'error' : 'loading';
  }

  async #created(playlist: AnnotatedPlaylist): Promise<void> {
    const { PlaylistEditing } = await this.#editing.load();
    // The page may have chosen another playlist meanwhile: that one is shown, this one was still created.
    const shown = this.playlistId == null;
    if (shown) {
      this.editing = new PlaylistEditing(this, this.port, playlist);
      this.playlistId = playlist.id;
      await this.updateComplete;
    }
    emit<PlaylistEventDetail>(this, 'svc-playlist-create', { playlistId: playlist.id, playlist });
    if (shown) void focusAfterUpdate(this, '#playlist-heading');
  }

  #onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (!this.dirty) return;
    event.preventDefault();
    event.returnValue = ''; // older browsers need it to ask
  };

  #onHostKeydown = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
    // Inside a text field, Ctrl+Z belongs to the field.
    if (TEXT_ENTRY.has((event.composedPath()[0] as HTMLElement).tagName) || !this.editing) return;
    event.preventDefault();
    this.undo();
  };

  override render(): TemplateResult {
    const s = this.l10n.strings;
    // Written compactly (template literals are not minified): the element's first paint.
    return html`<div dir=${this.l10n.dir}>${this.#renderPhase(s)}<div class="visually-hidden" part="live" role="status" aria-live="polite"
      aria-atomic="true">${this.announcement}</div></div>`;
  }

  #renderPhase(s: LoadingStrings): unknown {
    switch (this.#phase) {
      case 'create':
        return this.#form.render({
          complete: (part) => (this.#createForm ??= new part.CreateForm(this.port, (playlist) => this.#created(playlist))).render(s),
          // Its code could not be downloaded: say so, and offer to try again.
          error: (error) => html`<div class="stack"><p part="error" role="alert">${format(s.createFailed, { message: this.l10n.error(toSvcError(error).code) })}</p><div><button
            type="button" @click=${() => void this.#form.load().catch(() => undefined)}>${s.retry}</button></div></div>`,
        });
      case 'loading':
        return html`<p part="status">${s.loading}</p>`;
      case 'ready':
        return this.editing!.render();
      case 'error': {
        // Trying again cannot help when there is no such playlist (or not the caller's): offer a new one.
        const { code } = toSvcError(this.#load.error);
        const unknown = code === 'not_found' || code === 'forbidden';
        const message = format(unknown ? s.unknownPlaylist : s.loadFailed, { id: this.playlistId!, message: this.l10n.error(code) });
        return html`<div class="stack"><p part="error" role="alert">${message}</p><div>${
          unknown
            ? html`<button type="button" @click=${() => (this.playlistId = null)}>${s.createInstead}</button>`
            : html`<button type="button" @click=${() => this.reload()}>${s.retry}</button>`}</div></div>`;
      }
    }
  }
}
