// <svc-playlist-editor>: curate a playlist of VODs and live channels without ever losing an item.
// The edit rules (order, types, undo, dirty) live in the DOM-free PlaylistModel; this class renders
// it, talks to the relay through one overridable method, and turns failures into `svc-error`.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { toSvcError } from '../../core/errors.js';
import { PlaylistModel, type PlaylistChangeKind, type PlaylistEntry } from '../../core/playlist-model.js';
import {
  RelayClient,
  relayBaseUrl,
  type AnnotatedPlaylist,
  type LibraryItem,
} from '../../core/relay-client.js';
import type { ContentType } from '../../service/types.js';
import { emit, type SvcErrorDetail } from '../shared/events.js';
import { baseStyles } from '../shared/styles.js';
import { styles } from './svc-playlist-editor.styles.js';
import { defaultStrings, format, type SvcPlaylistEditorStrings } from './strings.js';

export interface PlaylistEventDetail {
  playlistId: string;
  playlist: AnnotatedPlaylist;
}

export interface PlaylistChangeDetail {
  playlistId: string;
  kind: PlaylistChangeKind;
  items: PlaylistEntry[];
  dirty: boolean;
}

export interface PlaylistSaveDetail extends PlaylistEventDetail {
  /** What was sent, in order. */
  items: { id: string; type: ContentType }[];
  /** True when the user chose to overwrite someone else's version. */
  overwrite: boolean;
}

export interface PlaylistConflictDetail {
  playlistId: string;
  /** Their version, as the relay returned it with the 409. */
  current: AnnotatedPlaylist;
  /** Mine, unsaved. */
  items: PlaylistEntry[];
}

/** `svc-error` detail of this element: the shared `{code, message}` plus the playlist, when known. */
export interface PlaylistErrorDetail extends SvcErrorDetail {
  playlistId: string | null;
}

type Phase = 'create' | 'loading' | 'ready' | 'error';
type FocusAfterMove = 'row' | 'up' | 'down';

const TEXT_ENTRY = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

function isPlaylist(value: unknown): value is AnnotatedPlaylist {
  const p = value as AnnotatedPlaylist | undefined;
  return typeof p?.id === 'string' && typeof p.save_date === 'string' && typeof p.content === 'object';
}

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
 * @attr relay - Base URL of the relay API; defaults to `<meta name="svc-relay">` or `/svc`.
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
 * @csspart add-by-id - The "add by id" form.
 * @csspart status - Visible status messages.
 * @csspart error - Visible error messages.
 * @csspart live - The visually hidden polite live region that announces moves and other changes.
 *
 * @cssproperty --svc-playlist-editor-max-width - Maximum width (48rem).
 * @cssproperty --svc-playlist-editor-gap - Space between sections (1rem).
 * @cssproperty --svc-playlist-editor-border-color - Borders (#8a8f98).
 * @cssproperty --svc-playlist-editor-hint-color - Hints and muted text (#4b5260).
 * @cssproperty --svc-playlist-editor-error-color - Errors and the conflict panel (#b3261e).
 * @cssproperty --svc-playlist-editor-accent-color - The Save button (#0b57d0).
 * @cssproperty --svc-playlist-editor-surface - Inputs' background (#fff).
 * @cssproperty --svc-playlist-editor-item-background - Item rows (#f6f7f9).
 * @cssproperty --svc-playlist-editor-drop-color - The drop marker while dragging (#0b57d0).
 * @cssproperty --svc-playlist-editor-vod-color - The VOD badge (#0b57d0).
 * @cssproperty --svc-playlist-editor-channel-color - The Channel badge (#6b2fa3).
 * @cssproperty --svc-playlist-editor-unknown-color - The Unknown type badge and row marker (#8a4b00).
 * @cssproperty --svc-playlist-editor-dirty-color - The dirty indicator while dirty (#8a4b00).
 * @cssproperty --svc-playlist-editor-mono-font - Ids.
 * @cssproperty --svc-playlist-editor-library-max-height - Height of the library list before it scrolls (18rem).
 */
export class SvcPlaylistEditor extends LitElement {
  static override styles = [baseStyles, styles];

  /** Registers the element; call once (the `define.js` module does it for `svc-playlist-editor`). */
  static define(tag = 'svc-playlist-editor', registry: CustomElementRegistry = customElements): typeof SvcPlaylistEditor {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** The playlist to edit; set by the element after the form creates one. */
  @property({ attribute: 'playlist-id', reflect: true }) playlistId: string | null = null;

  /** Base URL of the relay API. */
  @property() relay: string | null = null;

  /** Replacements for any of the visible or announced strings (see `defaultStrings`). */
  @property({ attribute: false }) strings: Partial<SvcPlaylistEditorStrings> = {};

  @state() private model: PlaylistModel | undefined;
  @state() private playlist: AnnotatedPlaylist | undefined;
  @state() private phase: Phase = 'create';
  @state() private saving = false;
  @state() private creating = false;
  @state() private conflict: AnnotatedPlaylist | undefined;
  @state() private confirmingReload = false;
  @state() private library: LibraryItem[] | undefined;
  @state() private libraryLoading = false;
  @state() private libraryError = '';
  @state() private filter = '';
  @state() private announcement = '';
  @state() private status = '';
  @state() private error = '';
  /** The relay said no playlist has this id (or not one of the caller's): offer a new one instead of a retry. */
  @state() private unknownId = false;
  @state() private formErrors: { title?: string; description?: string } = {};
  @state() private byIdErrors: { id?: string; type?: string } = {};
  @state() private dragFrom: number | null = null;
  @state() private dropAt: { index: number; side: 'before' | 'after' } | null = null;

  #load: AbortController | undefined;
  #libraryLoad: AbortController | undefined;

  constructor() {
    super();
    this.addEventListener('keydown', this.#onHostKeydown);
  }

  /** The edited items, in order. */
  get items(): readonly PlaylistEntry[] {
    return this.model?.items ?? [];
  }

  /** True while there are unsaved changes. */
  get dirty(): boolean {
    return this.model?.dirty ?? false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('beforeunload', this.#onBeforeUnload);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#load?.abort();
    this.#libraryLoad?.abort();
  }

  /** The relay client; override to swap the network (tests, custom auth). */
  protected createClient(): RelayClient {
    return new RelayClient({ baseUrl: relayBaseUrl(this.relay, this.ownerDocument) });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('playlistId')) {
      if (this.playlistId && this.playlistId !== this.playlist?.id) void this.reload();
      else if (!this.playlistId) this.#reset();
    }
  }

  protected override updated(): void {
    this.toggleAttribute('dirty', this.dirty);
    const state = this.phase !== 'ready' ? this.phase : this.saving ? 'saving' : this.conflict ? 'conflict' : 'ready';
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
  }

  /** (Re)loads the playlist from the relay. Unsaved changes stay in the undo history. */
  async reload(): Promise<void> {
    const id = this.playlistId;
    if (!id) return;
    this.#load?.abort();
    const controller = (this.#load = new AbortController());
    if (this.playlist?.id !== id) {
      this.phase = 'loading';
      this.model = undefined;
      this.playlist = undefined;
    }
    this.error = '';
    try {
      const playlist = await this.createClient().playlist(id, controller.signal);
      if (controller.signal.aborted) return;
      this.#loaded(playlist);
      void this.#loadLibrary();
    } catch (error) {
      if (controller.signal.aborted) return;
      this.phase = this.model ? 'ready' : 'error';
      const { code } = toSvcError(error);
      this.unknownId = code === 'not_found' || code === 'forbidden';
      this.#fail(error, this.unknownId ? format(this.s.unknownPlaylist, { id }) : this.s.loadFailed);
    }
  }

  /** Saves the whole list. With `overwrite`, uses the conflicting version's `save_date` as the base. */
  async save(overwrite = false): Promise<boolean> {
    const { model, playlist } = this;
    if (!model || !playlist || this.saving) return false;
    let items: { id: string; type: ContentType }[];
    try {
      items = model.toUpdateItems().map(({ id, type }) => ({ id, type }));
    } catch (error) {
      this.#fail(error);
      return false;
    }
    const base = overwrite && this.conflict ? this.conflict : playlist;
    this.saving = true;
    this.status = this.s.saving;
    this.error = '';
    try {
      const saved = await this.createClient().savePlaylistContent(playlist.id, {
        items,
        base_save_date: base.save_date,
      });
      this.playlist = saved;
      this.model = model.rebase(saved);
      this.conflict = undefined;
      this.confirmingReload = false;
      this.status = saved.pending ? this.s.pending : overwrite ? this.s.overwritten : this.s.saved;
      this.#announce(this.status);
      emit<PlaylistSaveDetail>(this, 'svc-playlist-save', { playlistId: saved.id, playlist: saved, items, overwrite });
      // The conflict panel (and the button pressed in it) is gone: put focus somewhere stable.
      if (overwrite) void this.#focusHeading();
      return true;
    } catch (error) {
      const failure = toSvcError(error);
      this.status = '';
      if (failure.code === 'conflict') {
        const current = isPlaylist(failure.body) ? failure.body : await this.#fetchCurrent(playlist.id);
        if (current) {
          void this.#showConflict(current);
          return false;
        }
      }
      this.#fail(failure, this.s.saveFailed);
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** Undoes the last change. */
  undo(): void {
    if (!this.model?.canUndo) {
      this.#announce(this.s.nothingToUndo);
      return;
    }
    this.#apply(this.model.undo(), 'undo', this.s.undone);
  }

  /** Discards unsaved changes (itself undoable). */
  revert(): void {
    if (!this.model?.dirty) {
      this.#announce(this.s.nothingToSave);
      return;
    }
    this.#apply(this.model.revert(), 'revert', this.s.reverted);
  }

  // ---- state changes ----

  private get s(): SvcPlaylistEditorStrings {
    return { ...defaultStrings, ...this.strings };
  }

  #reset(): void {
    this.#load?.abort();
    this.model = undefined;
    this.playlist = undefined;
    this.conflict = undefined;
    this.phase = 'create';
  }

  #loaded(playlist: AnnotatedPlaylist): void {
    const sameList = this.model && this.playlist?.id === playlist.id;
    this.playlist = playlist;
    this.model = sameList ? this.model!.rebase(playlist) : PlaylistModel.fromPlaylist(playlist);
    this.phase = 'ready';
    emit<PlaylistEventDetail>(this, 'svc-playlist-load', { playlistId: playlist.id, playlist });
  }

  async #fetchCurrent(id: string): Promise<AnnotatedPlaylist | undefined> {
    try {
      return await this.createClient().playlist(id);
    } catch (error) {
      this.#fail(error, this.s.saveFailed);
      return undefined;
    }
  }

  async #showConflict(current: AnnotatedPlaylist): Promise<void> {
    this.conflict = current;
    this.confirmingReload = false;
    this.#announce(this.s.conflictHeading);
    emit<PlaylistConflictDetail>(this, 'svc-playlist-conflict', {
      playlistId: current.id,
      current,
      items: this.items.map((item) => ({ ...item })),
    });
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#conflict-heading')?.focus();
  }

  /** Discards mine (after the user confirmed) and takes their version; undo brings mine back. */
  #takeTheirs(): void {
    const current = this.conflict;
    if (!current || !this.model) return;
    this.conflict = undefined;
    this.confirmingReload = false;
    this.playlist = current;
    this.#apply(this.model.rebase(current), 'reload', this.s.reloaded);
    emit<PlaylistEventDetail>(this, 'svc-playlist-load', { playlistId: current.id, playlist: current });
    void this.#focusHeading();
  }

  async #focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#playlist-heading')?.focus();
  }

  #apply(next: PlaylistModel, kind: PlaylistChangeKind, announcement: string): boolean {
    if (!this.model || next === this.model) return false;
    this.model = next;
    this.status = '';
    this.#announce(announcement);
    emit<PlaylistChangeDetail>(this, 'svc-playlist-change', {
      playlistId: this.playlistId ?? '',
      kind,
      items: next.items.map((item) => ({ ...item })),
      dirty: next.dirty,
    });
    return true;
  }

  /** Edits are refused while a save is in flight, so that the saved base and the list agree. */
  #edit(
    next: () => PlaylistModel | undefined,
    kind: PlaylistChangeKind,
    announcement: (model: PlaylistModel) => string,
  ): boolean {
    if (this.saving) {
      this.#announce(this.s.busy);
      return false;
    }
    const model = next();
    return model ? this.#apply(model, kind, announcement(model)) : false;
  }

  #announce(text: string): void {
    // A repeated message must still be announced: change the text even when it is the same.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  #fail(error: unknown, template = '{message}'): void {
    const { code, message } = toSvcError(error);
    this.error = format(template, { message });
    emit<PlaylistErrorDetail>(this, 'svc-error', { code, message, playlistId: this.playlistId });
  }

  #titleOf(item: { title: string; id: string }): string {
    return item.title || item.id || this.s.untitled;
  }

  #typeName(type: ContentType | null): string {
    return type === 'vod' ? this.s.vod : type === 'channel' ? this.s.channel : this.s.unknownType;
  }

  #moveItem(from: number, to: number, focus: FocusAfterMove): void {
    const item = this.model?.items[from];
    if (!item) return;
    const moved = this.#edit(
      () => this.model?.move(from, to),
      'move',
      (model) => format(this.s.moved, { title: this.#titleOf(item), position: to + 1, count: model.items.length }),
    );
    if (moved) void this.#focusRow(to, focus);
  }

  async #focusRow(index: number, prefer: FocusAfterMove = 'row'): Promise<void> {
    await this.updateComplete;
    const row = this.renderRoot.querySelector<HTMLElement>(`li[data-index="${index}"]`);
    if (!row) return;
    const button = prefer === 'row' ? null : row.querySelector<HTMLButtonElement>(`button[data-action="${prefer}"]`);
    (button && !button.disabled ? button : row).focus();
  }

  #removeItem(index: number): void {
    const item = this.model?.items[index];
    if (!item) return;
    const removed = this.#edit(
      () => this.model?.remove(index),
      'remove',
      (model) => format(this.s.removed, { title: this.#titleOf(item), count: model.items.length }),
    );
    if (!removed) return;
    if (this.items.length) void this.#focusRow(Math.min(index, this.items.length - 1));
    else void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#items-heading')?.focus());
  }

  #setType(index: number, type: string): void {
    const item = this.model?.items[index];
    if (!item || (type !== 'vod' && type !== 'channel')) return;
    this.#edit(
      () => this.model?.setType(index, type),
      'type',
      () => format(this.s.typed, { title: this.#titleOf(item), type: this.#typeName(type) }),
    );
  }

  #add(entry: { id: string; type: ContentType; title: string; typeFixed: boolean }): boolean {
    return this.#edit(
      () => this.model?.add(entry),
      'add',
      (model) => format(this.s.added, { title: this.#titleOf(entry), position: model.items.length, count: model.items.length }),
    );
  }

  async #loadLibrary(): Promise<void> {
    this.#libraryLoad?.abort();
    const controller = (this.#libraryLoad = new AbortController());
    this.libraryLoading = true;
    this.libraryError = '';
    try {
      const { items } = await this.createClient().library(controller.signal);
      if (controller.signal.aborted) return;
      this.library = items.filter((item) => item.type === 'vod' || item.type === 'channel');
    } catch (error) {
      if (controller.signal.aborted) return;
      const { code, message } = toSvcError(error);
      this.libraryError = format(this.s.libraryFailed, { message });
      emit<PlaylistErrorDetail>(this, 'svc-error', { code, message, playlistId: this.playlistId });
    } finally {
      if (!controller.signal.aborted) this.libraryLoading = false;
    }
  }

  // ---- event handlers ----

  #onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (!this.dirty) return;
    event.preventDefault();
    // Older browsers need returnValue set to show the confirmation.
    event.returnValue = '';
  };

  #onHostKeydown = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
    const origin = event.composedPath()[0] as HTMLElement | undefined;
    // Inside a text field, Ctrl+Z belongs to the field.
    if (origin && TEXT_ENTRY.has(origin.tagName)) return;
    if (!this.model) return;
    event.preventDefault();
    this.undo();
  };

  #onRowKeydown(event: KeyboardEvent, index: number): void {
    const origin = event.composedPath()[0] as HTMLElement;
    if (origin.tagName === 'SELECT') return;
    const onRow = origin === event.currentTarget;
    const { key, altKey, ctrlKey, metaKey, shiftKey } = event;
    if (ctrlKey || metaKey || shiftKey) return;
    if (altKey && (key === 'ArrowUp' || key === 'ArrowDown')) {
      event.preventDefault();
      const to = key === 'ArrowUp' ? index - 1 : index + 1;
      if (to < 0 || to >= this.items.length) return;
      this.#moveItem(index, to, 'row');
    } else if (onRow && !altKey && (key === 'ArrowUp' || key === 'ArrowDown')) {
      event.preventDefault();
      void this.#focusRow(key === 'ArrowUp' ? Math.max(0, index - 1) : Math.min(this.items.length - 1, index + 1));
    } else if (onRow && !altKey && (key === 'Home' || key === 'End')) {
      event.preventDefault();
      void this.#focusRow(key === 'Home' ? 0 : this.items.length - 1);
    } else if (onRow && !altKey && key === 'Delete') {
      event.preventDefault();
      this.#removeItem(index);
    }
  }

  #onDragStart(event: DragEvent, index: number): void {
    if (this.saving) {
      event.preventDefault();
      return;
    }
    this.dragFrom = index;
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', this.items[index]?.id ?? '');
    }
  }

  #onDragOver(event: DragEvent, index: number): void {
    if (this.dragFrom === null) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const side = event.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
    if (this.dropAt?.index !== index || this.dropAt.side !== side) this.dropAt = { index, side };
  }

  #onDrop(event: DragEvent, index: number): void {
    const from = this.dragFrom;
    if (from === null) return;
    event.preventDefault();
    const side = this.dropAt?.index === index ? this.dropAt.side : 'before';
    const insertion = side === 'before' ? index : index + 1;
    const to = from < insertion ? insertion - 1 : insertion;
    this.#onDragEnd();
    if (to !== from) this.#moveItem(from, to, 'row');
  }

  #onDragEnd = (): void => {
    this.dragFrom = null;
    this.dropAt = null;
  };

  async #onCreate(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.creating) return;
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    const description = String(data.get('description') ?? '').trim();
    this.formErrors = title ? {} : { title: this.s.titleRequired };
    if (!title) {
      await this.updateComplete;
      form.querySelector<HTMLInputElement>('#title')?.focus();
      return;
    }
    this.creating = true;
    this.error = '';
    this.status = this.s.creating;
    try {
      const playlist = await this.createClient().createPlaylist({ title, description });
      this.playlist = playlist;
      this.model = PlaylistModel.fromPlaylist(playlist);
      this.phase = 'ready';
      this.status = '';
      this.playlistId = playlist.id;
      await this.updateComplete;
      emit<PlaylistEventDetail>(this, 'svc-playlist-create', { playlistId: playlist.id, playlist });
      void this.#focusHeading();
      void this.#loadLibrary();
    } catch (error) {
      this.status = '';
      // The relay's field messages (400 validation_failed) go under the fields they are about.
      const { fields } = toSvcError(error);
      if (fields?.title || fields?.description) this.formErrors = { title: fields.title, description: fields.description };
      this.#fail(error, this.s.createFailed);
    } finally {
      this.creating = false;
    }
  }

  #onAddById(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const id = String(data.get('id') ?? '').trim();
    const type = String(data.get('type') ?? '');
    const errors: { id?: string; type?: string } = {};
    if (!id) errors.id = this.s.idRequired;
    else if (this.model?.has(id)) errors.id = this.s.idDuplicate;
    if (type !== 'vod' && type !== 'channel') errors.type = this.s.typeRequired;
    this.byIdErrors = errors;
    if (errors.id || errors.type) {
      void this.updateComplete.then(() =>
        form.querySelector<HTMLElement>(errors.id ? '#add-id' : '#add-type')?.focus(),
      );
      return;
    }
    const known = this.library?.find((item) => item.id === id);
    if (this.#add({ id, type: type as ContentType, title: known?.title ?? '', typeFixed: false })) form.reset();
  }

  #onLibraryAdd(item: LibraryItem): void {
    if (this.model?.has(item.id) || (item.type !== 'vod' && item.type !== 'channel')) return;
    this.#add({ id: item.id, type: item.type, title: item.title, typeFixed: true });
  }

  // ---- rendering ----

  override render(): TemplateResult {
    return html`
      ${this.#renderPhase()}
      <div class="visually-hidden" part="live" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
    `;
  }

  #renderPhase(): TemplateResult {
    switch (this.phase) {
      case 'create':
        return this.#renderForm();
      case 'loading':
        return html`<p part="status">${this.s.loading}</p>`;
      case 'error':
        return html`
          <div class="stack">
            <p part="error" role="alert">${this.error}</p>
            <div>
              ${this.unknownId
                ? html`<button type="button" @click=${() => (this.playlistId = null)}>${this.s.createInstead}</button>`
                : html`<button type="button" @click=${() => this.reload()}>${this.s.retry}</button>`}
            </div>
          </div>
        `;
      case 'ready':
        return this.#renderEditor();
    }
  }

  #renderForm(): TemplateResult {
    const s = this.s;
    const { title: titleError, description: descriptionError } = this.formErrors;
    return html`
      <form part="form" class="stack" novalidate aria-labelledby="form-heading" @submit=${this.#onCreate}>
        <h2 id="form-heading">${s.formHeading}</h2>
        <div class="field">
          <label for="title">${s.titleLabel}</label>
          <input
            id="title"
            name="title"
            autocomplete="off"
            required
            maxlength="255"
            aria-invalid=${titleError ? 'true' : 'false'}
            aria-describedby="title-hint${titleError ? ' title-error' : ''}"
            ?disabled=${this.creating}
          />
          <span id="title-hint" class="hint">${s.titleHint}</span>
          ${titleError ? html`<span id="title-error" class="error">${titleError}</span>` : nothing}
        </div>
        <div class="field">
          <label for="description">${s.descriptionLabel}</label>
          <textarea
            id="description"
            name="description"
            rows="2"
            maxlength="5000"
            aria-invalid=${descriptionError ? 'true' : 'false'}
            aria-describedby="description-hint${descriptionError ? ' description-error' : ''}"
            ?disabled=${this.creating}
          ></textarea>
          <span id="description-hint" class="hint">${s.descriptionHint}</span>
          ${descriptionError ? html`<span id="description-error" class="error">${descriptionError}</span>` : nothing}
        </div>
        <div><button class="primary" type="submit" ?disabled=${this.creating}>${s.create}</button></div>
        <p part="status" role="status">${this.status}</p>
        ${this.error ? html`<p part="error" role="alert">${this.error}</p>` : nothing}
      </form>
    `;
  }

  #renderEditor(): TemplateResult {
    const s = this.s;
    const playlist = this.playlist!;
    const model = this.model!;
    const title = playlist.title || s.untitledPlaylist;
    const untyped = model.untyped.length;
    const reason = this.conflict
      ? s.blockedConflict
      : untyped
        ? format(s.blockedUntyped, { count: untyped })
        : '';
    const canSave = model.dirty && !reason && !this.saving;
    return html`
      <div class="stack">
        <div part="header">
          <slot name="heading"><h2 id="playlist-heading" part="title" tabindex="-1">${title}</h2></slot>
          ${playlist.description ? html`<p part="description">${playlist.description}</p>` : nothing}
        </div>
        <!-- aria-disabled rather than disabled: a button that just did its job keeps focus, and a
             blocked Save can still be focused to hear why (aria-describedby). -->
        <div part="toolbar">
          <button class="primary" part="save" type="button" aria-disabled=${canSave ? 'false' : 'true'} aria-describedby="reason"
            @click=${() => (canSave ? void this.save() : this.#announce(reason || (this.saving ? s.busy : s.nothingToSave)))}>
            ${this.saving ? s.saving : s.save}
          </button>
          <button part="revert" type="button" aria-disabled=${!model.dirty || this.saving ? 'true' : 'false'}
            @click=${() => (this.saving ? this.#announce(s.busy) : this.revert())}>${s.revert}</button>
          <button part="undo" type="button" aria-disabled=${!model.canUndo || this.saving ? 'true' : 'false'}
            @click=${() => (this.saving ? this.#announce(s.busy) : this.undo())}>${s.undo}</button>
          <span part="dirty">${model.dirty ? s.dirty : s.clean}</span>
        </div>
        <p id="reason" part="reason" class="error" ?hidden=${!reason}>${reason}</p>
        ${this.conflict ? this.#renderConflict(this.conflict) : nothing}
        <p part="status">${this.status || (playlist.pending ? s.pending : '')}</p>
        ${this.error ? html`<p part="error" role="alert">${this.error}</p>` : nothing}
        <section class="stack" aria-labelledby="items-heading">
          <h3 id="items-heading" tabindex="-1">${s.itemsHeading}</h3>
          <p id="keyboard-help" class="hint">${s.keyboardHelp}</p>
          ${model.items.length
            ? html`<ol part="list" aria-label=${format(s.itemsLabel, { title })} aria-busy=${this.saving ? 'true' : 'false'}>
                ${model.items.map((item, index) => this.#renderItem(item, index, model.items.length))}
              </ol>`
            : html`<slot name="empty"><p>${s.empty}</p></slot>`}
        </section>
        ${this.#renderLibrary()} ${this.#renderAddById()}
      </div>
    `;
  }

  #renderItem(item: PlaylistEntry, index: number, count: number): TemplateResult {
    const s = this.s;
    const title = this.#titleOf(item);
    const drop = this.dropAt?.index === index ? this.dropAt.side : undefined;
    return html`
      <li
        part="item"
        data-index=${index}
        data-id=${item.id}
        data-type=${item.type ?? 'unknown'}
        data-drop=${drop ?? nothing}
        ?data-dragging=${this.dragFrom === index}
        ?data-untyped=${item.type === null}
        tabindex="0"
        draggable="true"
        aria-label=${format(s.rowLabel, { position: index + 1, title, type: this.#typeName(item.type) })}
        aria-describedby="keyboard-help"
        @keydown=${(event: KeyboardEvent) => this.#onRowKeydown(event, index)}
        @dragstart=${(event: DragEvent) => this.#onDragStart(event, index)}
        @dragover=${(event: DragEvent) => this.#onDragOver(event, index)}
        @drop=${(event: DragEvent) => this.#onDrop(event, index)}
        @dragend=${this.#onDragEnd}
      >
        <span class="handle" aria-hidden="true">⠿</span>
        <span class="position" aria-hidden="true">${index + 1}</span>
        <span class="what">
          <span class="title">${item.title || s.untitled}</span>
          <code>${item.id}</code>
        </span>
        <span class="type">${this.#renderType(item, index, title)}</span>
        <span class="actions">
          <button type="button" data-action="up" aria-label=${format(s.moveUpLabel, { title })} ?disabled=${index === 0}
            @click=${() => this.#moveItem(index, index - 1, 'up')}>${s.moveUp}</button>
          <button type="button" data-action="down" aria-label=${format(s.moveDownLabel, { title })} ?disabled=${index === count - 1}
            @click=${() => this.#moveItem(index, index + 1, 'down')}>${s.moveDown}</button>
          <button type="button" data-action="remove" aria-label=${format(s.removeLabel, { title })}
            @click=${() => this.#removeItem(index)}>${s.remove}</button>
        </span>
      </li>
    `;
  }

  #renderType(item: PlaylistEntry, index: number, title: string): TemplateResult {
    const s = this.s;
    const badge = html`<span part="badge badge-${item.type ?? 'unknown'}">${this.#typeName(item.type)}</span>`;
    if (item.typeFixed) return badge;
    return html`
      ${badge}
      <select
        part="type-select"
        aria-label=${format(s.typeOf, { title })}
        .value=${live(item.type ?? '')}
        @change=${(event: Event) => this.#setType(index, (event.target as HTMLSelectElement).value)}
      >
        <option value="" disabled>${s.chooseType}</option>
        <option value="vod">${s.vod}</option>
        <option value="channel">${s.channel}</option>
      </select>
    `;
  }

  #renderConflict(current: AnnotatedPlaylist): TemplateResult {
    const s = this.s;
    const theirs = PlaylistModel.fromPlaylist(current).items;
    const date = new Date(current.save_date);
    const message = format(s.conflictMessage, {
      date: Number.isNaN(date.getTime()) ? current.save_date : date.toLocaleString(),
      count: theirs.length,
      titles: theirs.map((item) => this.#titleOf(item)).join(', ') || '–',
    });
    return html`
      <section part="conflict" aria-labelledby="conflict-heading">
        <h3 id="conflict-heading" tabindex="-1">${s.conflictHeading}</h3>
        <p>${message}</p>
        ${this.confirmingReload
          ? html`
              <p>${s.confirmReload}</p>
              <div class="buttons">
                <button type="button" data-action="confirm-reload" @click=${() => this.#takeTheirs()}>${s.confirmReloadYes}</button>
                <button type="button" data-action="cancel-reload" @click=${() => this.#cancelReload()}>${s.cancel}</button>
              </div>
            `
          : html`
              <div class="buttons">
                <button type="button" data-action="reload" ?disabled=${this.saving} @click=${() => this.#askReload()}>${s.conflictReload}</button>
                <button type="button" data-action="overwrite" ?disabled=${this.saving || this.model!.untyped.length > 0}
                  @click=${() => this.save(true)}>${s.conflictOverwrite}</button>
              </div>
            `}
      </section>
    `;
  }

  async #askReload(): Promise<void> {
    this.confirmingReload = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[data-action="confirm-reload"]')?.focus();
  }

  async #cancelReload(): Promise<void> {
    this.confirmingReload = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[data-action="reload"]')?.focus();
  }

  #renderLibrary(): TemplateResult {
    const s = this.s;
    const needle = this.filter.trim().toLowerCase();
    const items = (this.library ?? []).filter(
      (item) => !needle || item.title.toLowerCase().includes(needle) || item.id.toLowerCase().includes(needle),
    );
    let body: TemplateResult;
    if (this.libraryError) body = html`<p part="error">${this.libraryError}</p>`;
    else if (!this.library) body = html`<p class="hint">${s.libraryLoading}</p>`;
    else if (!this.library.length) body = html`<p class="hint">${s.libraryEmpty}</p>`;
    else if (!items.length) body = html`<p class="hint">${format(s.libraryNoMatch, { filter: this.filter })}</p>`;
    else
      body = html`<ul part="library-list" aria-label=${s.libraryLabel}>
        ${items.map((item) => {
          const inList = this.model?.has(item.id) ?? false;
          return html`<li part="library-item" data-id=${item.id} data-type=${item.type}>
            <span class="what"><span class="title">${item.title || s.untitled}</span><code>${item.id}</code></span>
            <span part="badge badge-${item.type}">${this.#typeName(item.type as ContentType)}</span>
            <button type="button" aria-disabled=${inList ? 'true' : 'false'} @click=${() => this.#onLibraryAdd(item)}>
              ${inList ? s.inPlaylist : s.add}<span class="visually-hidden">: ${this.#titleOf(item)}</span>
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
            <input id="filter" part="filter" type="search" autocomplete="off" .value=${this.filter}
              @input=${(event: Event) => (this.filter = (event.target as HTMLInputElement).value)} />
          </div>
          <button type="button" ?disabled=${this.libraryLoading} @click=${() => this.#loadLibrary()}>${s.refresh}</button>
        </div>
        <div role="status" class="hint">${this.libraryLoading && this.library ? s.libraryLoading : ''}</div>
        ${body}
      </section>
    `;
  }

  #renderAddById(): TemplateResult {
    const s = this.s;
    const { id: idError, type: typeError } = this.byIdErrors;
    return html`
      <form part="add-by-id" class="stack" novalidate aria-labelledby="by-id-heading" @submit=${this.#onAddById}>
        <h3 id="by-id-heading">${s.byIdHeading}</h3>
        <div class="row">
          <div class="field">
            <label for="add-id">${s.idLabel}</label>
            <input id="add-id" name="id" autocomplete="off" aria-invalid=${idError ? 'true' : 'false'}
              aria-describedby=${idError ? 'add-id-error' : nothing} />
          </div>
          <div class="field">
            <label for="add-type">${s.typeLabel}</label>
            <select id="add-type" name="type" aria-invalid=${typeError ? 'true' : 'false'}
              aria-describedby=${typeError ? 'add-type-error' : nothing}>
              <option value="">${s.chooseType}</option>
              <option value="vod">${s.vod}</option>
              <option value="channel">${s.channel}</option>
            </select>
          </div>
          <button type="submit">${s.addById}</button>
        </div>
        ${idError ? html`<span id="add-id-error" class="error">${idError}</span>` : nothing}
        ${typeError ? html`<span id="add-type-error" class="error">${typeError}</span>` : nothing}
      </form>
    `;
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-playlist-load': CustomEvent<PlaylistEventDetail>;
    'svc-playlist-create': CustomEvent<PlaylistEventDetail>;
    'svc-playlist-change': CustomEvent<PlaylistChangeDetail>;
    'svc-playlist-save': CustomEvent<PlaylistSaveDetail>;
    'svc-playlist-conflict': CustomEvent<PlaylistConflictDetail>;
  }
}

