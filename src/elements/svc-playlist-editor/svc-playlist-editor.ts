// <svc-playlist-editor>: curate a playlist of VODs and live channels without ever losing an item.
// The edit rules (order, types, undo, dirty) live in the DOM-free PlaylistModel; this class holds
// the state, loads through @lit/task, talks to the relay through `client()` and composes the parts
// rendered by its sibling modules (the toolbar, the items, the conflict panel; the creation form and
// the library are loaded with `import()` when first shown).
import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { Task, TaskStatus, initialState } from '@lit/task';
import { toSvcError, type SvcError } from '../../core/errors.js';
import { PlaylistModel, type PlaylistChangeKind, type PlaylistEntry } from '../../core/playlist-model.js';
import type { AnnotatedPlaylist, RelayClient, RelayClientOptions } from '../../core/relay-client.js';
import type { ContentType } from '../../service/types.js';
import { relayClient } from '../shared/client.js';
import { emit } from '../shared/events.js';
import { focusAfterUpdate } from '../shared/focus.js';
import { Localized, format, type StringsOverride } from '../shared/strings.js';
import { baseStyles, formStyles } from '../shared/styles.js';
import type { Conflict } from './conflict.js';
import type { CreateFormContext } from './create-form.js';
import type { PlaylistChangeDetail, PlaylistConflictDetail, PlaylistErrorDetail, PlaylistEventDetail, PlaylistSaveDetail } from './events.js';
import { RowDrag } from './drag.js';
import { rowKey, titleOf, typeName, type MoveFocus } from './items.js';
import type { PickersContext } from './library.js';
import { defaultStrings, type SvcPlaylistEditorStrings } from './strings.js';
import { styles } from './styles.js';
import { editorView, loadError, type EditorActions } from './view.js';

export type * from './events.js';
export type { SvcPlaylistEditorStrings } from './strings.js';

type Strings = SvcPlaylistEditorStrings;

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
  static override styles = [baseStyles, formStyles, styles];

  /** Registers the element; call once (the `define.js` module does it for `svc-playlist-editor`). */
  static define(tag = 'svc-playlist-editor', registry: CustomElementRegistry = customElements): typeof SvcPlaylistEditor {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }

  /** The playlist to edit; set by the element after the form creates one. */
  @property({ attribute: 'playlist-id', reflect: true }) playlistId: string | null = null;

  /** Base URL of the relay API. */
  @property() relay: string | null = null;

  /** Returns the bearer token the relay expects, if it requires one (called before each request). */
  @property({ attribute: false }) token?: RelayClientOptions['token'];

  /** Replacements for any of the visible or announced strings (see `defaultStrings`), and for error messages under `errors`. */
  @property({ attribute: false }) strings: StringsOverride<Strings> = {};

  @state() private model?: PlaylistModel; // my edits, with their undo history
  @state() private playlist?: AnnotatedPlaylist; // the version they are based on (loaded, created or saved)
  @state() private saving = false; // a create or a save is in flight
  @state() private conflict?: Conflict; // someone else saved first
  @state() private notice?: { text: string; error?: boolean }; // the outcome of the last create, load or save
  @state() private announcement = ''; // what the polite live region says

  #l10n = new Localized<Strings>(this, 'svc-playlist-editor', defaultStrings);

  /** The playlist named by `playlist-id`: run when it names another one, and by `reload()`. */
  #load = new Task(this, {
    autoRun: false,
    task: ([id]: [string], { signal }) => this.client().playlist(id, signal),
    onComplete: (playlist) => this.#show(playlist, true),
    onError: (error) => this.#loadFailed(error),
  });

  /** The creation form, and the library with the "Add by id" form: loaded with `import()` when first shown. */
  #form = new Task(this, {
    task: async ([show]) => (show ? new (await import('./create-form.js')).CreateForm(this, this.#context) : initialState),
    args: () => [!this.playlistId],
  });
  #pickers = new Task(this, {
    task: async ([show]) => (show ? new (await import('./library.js')).Pickers(this, this.#context) : initialState),
    args: () => [!!this.model],
  });

  /** What the parts loaded with `import()` need from the element. */
  #context: CreateFormContext & PickersContext = {
    client: () => this.client(),
    strings: () => this.#l10n.strings,
    report: (error) => this.#report(error),
    message: (code) => this.#l10n.error(code),
    inList: (id) => this.model?.has(id) ?? false,
    add: (entry) => this.#add(entry),
    created: (playlist) => void this.#created(playlist),
  };

  #drag = new RowDrag(this, () => this.saving, (from, to) => this.#move(from, to, 'row'), (index) => this.items[index]?.id ?? '');

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
    // Back in the page after a load was cut off by leaving it: load again.
    if (this.hasUpdated && this.playlistId && !this.model) void this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('beforeunload', this.#onBeforeUnload);
    this.#load.abort();
    this.#pickers.value?.library.abort();
  }

  /** The relay client; override to swap the network (tests, custom auth). */
  protected client(): RelayClient {
    return relayClient(this);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('playlistId') || this.playlistId === this.playlist?.id) return;
    this.#load.abort();
    this.model = this.playlist = this.conflict = this.notice = undefined;
    if (this.playlistId) void this.reload();
  }

  protected override updated(): void {
    const phase = this.#phase;
    const state = phase !== 'ready' ? phase : this.saving ? 'saving' : this.conflict ? 'conflict' : 'ready';
    this.toggleAttribute('dirty', this.dirty);
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
  }

  /** Resolves once rendered, including any part still being loaded with `import()`. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    for (const part of [this.#form, this.#pickers]) {
      if (part.status !== TaskStatus.PENDING) continue;
      await part.taskComplete.catch(() => undefined);
      done = await super.getUpdateComplete();
    }
    return done;
  }

  /** (Re)loads the playlist from the relay. Unsaved changes stay in the undo history. */
  async reload(): Promise<void> {
    if (!this.playlistId) return;
    if (this.notice?.error) this.notice = undefined;
    await this.#load.run([this.playlistId]);
  }

  /** Saves the whole list. With `overwrite`, uses the conflicting version's `save_date` as the base. */
  async save(overwrite = false): Promise<boolean> {
    const { model, playlist, conflict } = this;
    if (!model || !playlist || this.saving) return false;
    const s = this.#l10n.strings;
    let items: { id: string; type: ContentType }[];
    try {
      items = model.toUpdateItems().map(({ id, type }) => ({ id, type }));
    } catch (error) {
      this.#fail(error);
      return false;
    }
    const base = overwrite && conflict ? conflict.theirs : playlist;
    this.saving = true;
    this.notice = undefined;
    try {
      const saved = await this.client().savePlaylistContent(playlist.id, { items, base_save_date: base.save_date });
      this.playlist = saved;
      this.model = model.rebase(saved);
      this.conflict = undefined;
      this.notice = { text: saved.pending ? s.pending : overwrite ? s.overwritten : s.saved };
      this.#announce(this.notice.text);
      emit<PlaylistSaveDetail>(this, 'svc-playlist-save', { playlistId: saved.id, playlist: saved, items, overwrite });
      // The conflict panel (and the button pressed in it) is gone: put focus somewhere stable.
      if (overwrite) void focusAfterUpdate(this, '#playlist-heading');
      return true;
    } catch (error) {
      const failure = toSvcError(error);
      const theirs = failure.code !== 'conflict' ? undefined : isPlaylist(failure.body) ? failure.body : await this.#fetchTheirs(playlist.id);
      if (theirs) this.#showConflict(theirs);
      else this.#fail(failure, s.saveFailed);
      return false;
    } finally {
      this.saving = false;
    }
  }

  /** Undoes the last change. */
  undo(): void {
    if (this.model?.canUndo) this.#apply(this.model.undo(), 'undo', this.#l10n.strings.undone);
    else this.#announce(this.#l10n.strings.nothingToUndo);
  }

  /** Discards unsaved changes (itself undoable). */
  revert(): void {
    if (this.model?.dirty) this.#apply(this.model.revert(), 'revert', this.#l10n.strings.reverted);
    else this.#announce(this.#l10n.strings.nothingToSave);
  }

  // ---- state ----

  get #phase(): 'create' | 'loading' | 'ready' | 'error' {
    if (!this.playlistId) return 'create';
    if (this.model) return 'ready';
    return this.#load.status === TaskStatus.ERROR ? 'error' : 'loading';
  }

  /** Why Save cannot save now; '' when it can (given changes). */
  #blocked(s: Strings): string {
    const untyped = this.model?.untyped.length ?? 0;
    return this.conflict ? s.blockedConflict : untyped ? format(s.blockedUntyped, { count: untyped }) : '';
  }

  /** Shows `playlist` as the base of the edits (mine kept, as changes, when it is the same list). */
  #show(playlist: AnnotatedPlaylist, loaded = false): void {
    const same = this.model && this.playlist?.id === playlist.id;
    this.model = same ? this.model!.rebase(playlist) : PlaylistModel.fromPlaylist(playlist);
    this.playlist = playlist;
    if (this.#pickers.status === TaskStatus.COMPLETE) this.#pickers.value?.refresh();
    if (loaded) emit<PlaylistEventDetail>(this, 'svc-playlist-load', { playlistId: playlist.id, playlist });
  }

  #loadFailed(error: unknown): void {
    const { code } = toSvcError(error);
    if (code === 'aborted') return;
    const s = this.#l10n.strings;
    this.#fail(error, code === 'not_found' || code === 'forbidden' ? s.unknownPlaylist : s.loadFailed, { id: this.playlistId ?? '' });
  }

  /** Their version, after a 409 that did not carry it; undefined when it cannot be had either. */
  async #fetchTheirs(id: string): Promise<AnnotatedPlaylist | undefined> {
    return this.client().playlist(id).catch(() => undefined);
  }

  #showConflict(theirs: AnnotatedPlaylist): void {
    this.conflict = { theirs, confirming: false };
    this.#announce(this.#l10n.strings.conflictHeading);
    emit<PlaylistConflictDetail>(this, 'svc-playlist-conflict', {
      playlistId: theirs.id,
      current: theirs,
      items: this.items.map((item) => ({ ...item })),
    });
    void focusAfterUpdate(this, '#conflict-heading');
  }

  /** Asks first (focus on the confirmation), or steps back from asking (focus on "Reload"). */
  #confirmReload(confirming: boolean): void {
    if (this.conflict) this.conflict = { ...this.conflict, confirming };
    void focusAfterUpdate(this, confirming ? '[data-action="confirm-reload"]' : '[data-action="reload"]');
  }

  /** Discards mine (after the user confirmed) and takes their version; undo brings mine back. */
  #takeTheirs(): void {
    const theirs = this.conflict?.theirs;
    if (!theirs || !this.model) return;
    this.conflict = undefined;
    this.playlist = theirs;
    this.#apply(this.model.rebase(theirs), 'reload', this.#l10n.strings.reloaded);
    emit<PlaylistEventDetail>(this, 'svc-playlist-load', { playlistId: theirs.id, playlist: theirs });
    void focusAfterUpdate(this, '#playlist-heading');
  }

  #apply(next: PlaylistModel, kind: PlaylistChangeKind, announcement: string): boolean {
    if (!this.model || next === this.model) return false;
    this.model = next;
    if (!this.notice?.error) this.notice = undefined;
    this.#announce(announcement);
    const items = next.items.map((item) => ({ ...item }));
    emit<PlaylistChangeDetail>(this, 'svc-playlist-change', { playlistId: this.playlistId ?? '', kind, items, dirty: next.dirty });
    return true;
  }

  /** Edits are refused while a save is in flight, so that the saved base and the list agree. */
  #edit(kind: PlaylistChangeKind, next: (model: PlaylistModel) => PlaylistModel, announcement: (model: PlaylistModel) => string): boolean {
    if (!this.model) return false;
    if (this.saving) {
      this.#announce(this.#l10n.strings.busy);
      return false;
    }
    const model = next(this.model);
    return this.#apply(model, kind, announcement(model));
  }

  #announce(text: string): void {
    // A repeated message must still be announced: change the text even when it is the same.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  /** Fires `svc-error` with the technical message; returns the failure. */
  #report(error: unknown): SvcError {
    const failure = toSvcError(error);
    if (failure.code !== 'aborted') {
      emit<PlaylistErrorDetail>(this, 'svc-error', { code: failure.code, message: failure.message, playlistId: this.playlistId });
    }
    return failure;
  }

  /** Reports `error` and shows `template` with `{message}` the viewer's message for its code. */
  #fail(error: unknown, template = '{message}', values: Record<string, string> = {}): void {
    const { code } = this.#report(error);
    this.notice = { error: true, text: format(template, { ...values, message: this.#l10n.error(code) }) };
  }

  // ---- edits ----

  #move(from: number, to: number, focus: MoveFocus): void {
    const s = this.#l10n.strings;
    const item = this.items[from];
    if (!item) return;
    const announce = (model: PlaylistModel) => format(s.moved, { title: titleOf(s, item), position: to + 1, count: model.items.length });
    if (this.#edit('move', (model) => model.move(from, to), announce)) this.#focusRow(to, focus);
  }

  #remove(index: number): void {
    const s = this.#l10n.strings;
    const item = this.items[index];
    if (!item) return;
    const announce = (model: PlaylistModel) => format(s.removed, { title: titleOf(s, item), count: model.items.length });
    if (!this.#edit('remove', (model) => model.remove(index), announce)) return;
    if (this.items.length) this.#focusRow(Math.min(index, this.items.length - 1));
    else void focusAfterUpdate(this, '#items-heading');
  }

  #setType(index: number, type: string): void {
    const s = this.#l10n.strings;
    const item = this.items[index];
    if (!item || (type !== 'vod' && type !== 'channel')) return;
    this.#edit('type', (model) => model.setType(index, type), () => format(s.typed, { title: titleOf(s, item), type: typeName(s, type) }));
  }

  #add(entry: { id: string; type: ContentType; title: string; typeFixed: boolean }): boolean {
    const s = this.#l10n.strings;
    const announce = (model: PlaylistModel) =>
      format(s.added, { title: titleOf(s, entry), position: model.items.length, count: model.items.length });
    return this.#edit('add', (model) => model.add(entry), announce);
  }

  #focusRow(index: number, prefer: MoveFocus = 'row'): void {
    const row = `li[data-index="${index}"]`;
    void focusAfterUpdate(this, ...(prefer === 'row' ? [] : [`${row} button[data-action="${prefer}"]:not([disabled])`]), row);
  }

  // ---- event handlers ----

  #onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (!this.dirty) return;
    event.preventDefault();
    event.returnValue = ''; // older browsers need it to ask
  };

  #onHostKeydown = (event: KeyboardEvent): void => {
    if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
    // Inside a text field, Ctrl+Z belongs to the field.
    if (TEXT_ENTRY.has((event.composedPath()[0] as HTMLElement).tagName) || !this.model) return;
    event.preventDefault();
    this.undo();
  };

  /** What the parts call back: each control of the editor, by what it does. */
  #on: EditorActions = {
    save: () => {
      const s = this.#l10n.strings;
      const reason = this.#blocked(s);
      if (this.dirty && !reason && !this.saving) void this.save();
      else this.#announce(reason || (this.saving ? s.busy : s.nothingToSave));
    },
    revert: () => (this.saving ? this.#announce(this.#l10n.strings.busy) : this.revert()),
    undo: () => (this.saving ? this.#announce(this.#l10n.strings.busy) : this.undo()),
    move: (from, to, focus) => this.#move(from, to, focus),
    remove: (index) => this.#remove(index),
    setType: (index, type) => this.#setType(index, type),
    keydown: (event, index) => {
      const origin = event.composedPath()[0] as HTMLElement;
      const action = origin.tagName === 'SELECT' ? undefined : rowKey(event, origin === event.currentTarget, index, this.items.length);
      if (action === undefined) return;
      event.preventDefault();
      if (action && 'move' in action) this.#move(index, action.move, 'row');
      else if (action && 'focus' in action) this.#focusRow(action.focus);
      else if (action) this.#remove(index);
    },
    dragstart: (event, index) => this.#drag.start(event, index),
    dragover: (event, index) => this.#drag.over(event, index),
    drop: (event, index) => this.#drag.drop(event, index),
    dragend: this.#drag.end,
    askReload: () => this.#confirmReload(true),
    cancelReload: () => this.#confirmReload(false),
    reload: () => this.#takeTheirs(),
    overwrite: () => void this.save(true),
  };

  async #created(playlist: AnnotatedPlaylist): Promise<void> {
    this.#show(playlist);
    this.playlistId = playlist.id;
    await this.updateComplete;
    emit<PlaylistEventDetail>(this, 'svc-playlist-create', { playlistId: playlist.id, playlist });
    void focusAfterUpdate(this, '#playlist-heading');
  }

  // ---- rendering ----

  override render(): TemplateResult {
    const s = this.#l10n.strings;
    return html`
      <div dir=${this.#l10n.dir}>
        ${this.#renderPhase(s)}
        <div class="visually-hidden" part="live" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </div>
    `;
  }

  #renderPhase(s: Strings): unknown {
    const { notice, saving } = this;
    const status = notice?.error ? '' : (notice?.text ?? '');
    const error = notice?.error ? notice.text : '';
    switch (this.#phase) {
      case 'create':
        return this.#form.render({ complete: (form) => form?.render(s) });
      case 'loading':
        return html`<p part="status">${s.loading}</p>`;
      case 'error': {
        const { code } = toSvcError(this.#load.error);
        return loadError(s, error, code === 'not_found' || code === 'forbidden', {
          retry: () => void this.reload(),
          createInstead: () => (this.playlistId = null),
        });
      }
      case 'ready': {
        const view = { playlist: this.playlist!, model: this.model!, saving, conflict: this.conflict, error, reason: this.#blocked(s) };
        return editorView(s, { ...view, status: saving ? s.saving : status, locale: this.#l10n.locale, drag: this.#drag.state, pickers: this.#pickers.value }, this.#on);
      }
    }
  }
}
