// Editing one playlist, loaded with `import()` together with it: my edits (a PlaylistModel with its
// undo history) on top of the version they are based on, saving with that version's `save_date`,
// the conflict when someone else saved first, and the view of it all. The element creates one per
// playlist shown and forwards its public methods here.
import type { LitElement, TemplateResult } from 'lit';
import { TaskStatus } from '@lit/task';
import { toSvcError } from '../../core/errors.js';
import { PlaylistModel, type PlaylistChangeKind } from '../../core/playlist-model.js';
import { isPlaylist, type AnnotatedPlaylist } from '../../core/wire.js';
import type { ContentType } from '../../service/types.js';
import type { ElementPort } from '../shared/part.js';
import { format } from '../shared/intl.js';
import type { Conflict } from './conflict.js';
import { RowDrag } from './drag.js';
import type { PlaylistChangeDetail, PlaylistConflictDetail, PlaylistEventDetail, PlaylistSaveDetail } from './events.js';
import { rowKey, titleOf, typeName, type MoveFocus } from './items.js';
import { Pickers } from './library.js';
import type { SvcPlaylistEditorStrings as Strings } from './strings.js';
import { editorView, type EditorActions } from './view.js';

// What the seam (shared/part.ts) takes from this part: its styles, and its English strings, which
// join the element's defaults when it arrives.
export { editingStyles as styles } from './editing.styles.js';
export { editingStrings as strings } from './editing.strings.js';

export class PlaylistEditing {
  model: PlaylistModel;
  saving = false;
  conflict?: Conflict;
  /** The outcome of the last save or reload. */
  #notice?: { text: string; error?: boolean };
  #drag = new RowDrag(this.host, () => this.saving, (from, to) => this.#move(from, to, 'row'), (index) => this.model.items[index]?.id ?? '');
  #pickers: Pickers;

  constructor(
    private readonly host: LitElement,
    private readonly port: ElementPort<Strings>,
    /** The version my edits are based on (loaded, created or saved). */
    public playlist: AnnotatedPlaylist,
  ) {
    this.model = PlaylistModel.fromPlaylist(playlist);
    this.#pickers = new Pickers(host, port, {
      inList: (id) => this.model.has(id),
      ids: () => this.model.ids,
      add: (entry) => this.#add(entry),
    });
  }

  /** Takes a newer version of the same playlist as the base; my edits stay, as changes against it. */
  rebase(playlist: AnnotatedPlaylist): void {
    this.playlist = playlist;
    if (this.#notice?.error) this.#notice = undefined;
    this.#set(this.model.rebase(playlist));
    this.#pickers.refresh();
  }

  /** Shows why the playlist could not be reloaded. */
  fail(error: unknown, template: string): void {
    const { code } = this.port.emitError(error);
    this.#notice = { error: true, text: format(template, { message: this.port.errorText(code) }) };
    this.host.requestUpdate();
  }

  /** The element left the page: stops loading the library (`resume()` loads it again). */
  pause(): void {
    this.#pickers.library.abort();
  }

  resume(): void {
    if (this.#pickers.library.status !== TaskStatus.COMPLETE) this.#pickers.refresh();
  }

  /** Another playlist (or none) is shown instead: stops, and leaves the element. */
  close(): void {
    this.pause();
    this.host.removeController(this.#pickers.library);
  }

  /** Saves the whole list. With `overwrite`, uses the conflicting version's `save_date` as the base. */
  async save(overwrite = false): Promise<boolean> {
    const { model, playlist, conflict } = this;
    if (this.saving) return false;
    const s = this.port.strings;
    let items: { id: string; type: ContentType }[];
    try {
      items = model.toUpdateItems().map(({ id, type }) => ({ id, type }));
    } catch (error) {
      this.fail(error, '{message}');
      return false;
    }
    const base = overwrite && conflict ? conflict.theirs : playlist;
    this.#busy(true);
    this.#notice = undefined;
    try {
      const saved = await this.port.client().savePlaylistContent(playlist.id, { items, base_save_date: base.save_date });
      this.playlist = saved;
      this.conflict = undefined;
      this.#set(model.rebase(saved));
      this.#notice = { text: saved.pending ? s.pending : overwrite ? s.overwritten : s.saved };
      this.port.announce(this.#notice.text);
      this.port.emit<PlaylistSaveDetail>('svc-playlist-save', { playlistId: saved.id, playlist: saved, items, overwrite });
      // The conflict panel (and the button pressed in it) is gone: put focus somewhere stable.
      if (overwrite) this.port.focus('#playlist-heading');
      return true;
    } catch (error) {
      const failure = toSvcError(error);
      const theirs =
        failure.code !== 'conflict' ? undefined : isPlaylist(failure.body) ? failure.body : await this.port.client().playlist(playlist.id).catch(() => undefined);
      if (theirs) this.#showConflict(theirs);
      else this.fail(failure, s.saveFailed);
      return false;
    } finally {
      this.#busy(false);
    }
  }

  undo(): void {
    if (this.model.canUndo) this.#apply(this.model.undo(), 'undo', this.port.strings.undone);
    else this.port.announce(this.port.strings.nothingToUndo);
  }

  revert(): void {
    if (this.model.dirty) this.#apply(this.model.revert(), 'revert', this.port.strings.reverted);
    else this.port.announce(this.port.strings.nothingToSave);
  }

  #busy(saving: boolean): void {
    this.saving = saving;
    this.host.requestUpdate();
  }

  #set(model: PlaylistModel): void {
    this.model = model;
    this.host.requestUpdate();
  }

  /** Why Save cannot save now; '' when it can (given changes). */
  #blocked(s: Strings): string {
    const untyped = this.model.untyped.length;
    return this.conflict ? s.blockedConflict : untyped ? format(s.blockedUntyped, { count: untyped }, this.port.locale) : '';
  }

  #showConflict(theirs: AnnotatedPlaylist): void {
    this.conflict = { theirs, confirming: false };
    this.host.requestUpdate();
    this.port.announce(this.port.strings.conflictHeading);
    const items = this.model.items.map((item) => ({ ...item }));
    this.port.emit<PlaylistConflictDetail>('svc-playlist-conflict', { playlistId: theirs.id, current: theirs, items });
    this.port.focus('#conflict-heading');
  }

  /** Asks first (focus on the confirmation), or steps back from asking (focus on "Reload"). */
  #confirmReload(confirming: boolean): void {
    if (this.conflict) this.conflict = { ...this.conflict, confirming };
    this.host.requestUpdate();
    this.port.focus(confirming ? '[data-action="confirm-reload"]' : '[data-action="reload"]');
  }

  /** Discards mine (after the user confirmed) and takes their version; undo brings mine back. */
  #takeTheirs(): void {
    const theirs = this.conflict?.theirs;
    if (!theirs) return;
    this.conflict = undefined;
    this.playlist = theirs;
    this.#apply(this.model.rebase(theirs), 'reload', this.port.strings.reloaded);
    this.port.emit<PlaylistEventDetail>('svc-playlist-load', { playlistId: theirs.id, playlist: theirs });
    this.port.focus('#playlist-heading');
  }

  #apply(next: PlaylistModel, kind: PlaylistChangeKind, announcement: string): boolean {
    if (next === this.model) return false;
    this.#set(next);
    if (!this.#notice?.error) this.#notice = undefined;
    this.port.announce(announcement);
    const items = next.items.map((item) => ({ ...item }));
    this.port.emit<PlaylistChangeDetail>('svc-playlist-change', { playlistId: this.playlist.id, kind, items, dirty: next.dirty });
    return true;
  }

  /** Edits are refused while a save is in flight, so that the saved base and the list agree. */
  #edit(kind: PlaylistChangeKind, next: (model: PlaylistModel) => PlaylistModel, announcement: (model: PlaylistModel) => string): boolean {
    if (this.saving) {
      this.port.announce(this.port.strings.busy);
      return false;
    }
    const model = next(this.model);
    return this.#apply(model, kind, announcement(model));
  }

  #move(from: number, to: number, focus: MoveFocus): void {
    const s = this.port.strings;
    const item = this.model.items[from];
    if (!item) return;
    const announce = (model: PlaylistModel) => format(s.moved, { title: titleOf(s, item), position: to + 1, count: model.items.length }, this.port.locale);
    if (this.#edit('move', (model) => model.move(from, to), announce)) this.#focusRow(to, focus);
  }

  #remove(index: number): void {
    const s = this.port.strings;
    const item = this.model.items[index];
    if (!item) return;
    const announce = (model: PlaylistModel) => format(s.removed, { title: titleOf(s, item), count: model.items.length }, this.port.locale);
    if (!this.#edit('remove', (model) => model.remove(index), announce)) return;
    const left = this.model.items.length;
    if (left) this.#focusRow(Math.min(index, left - 1));
    else this.port.focus('#items-heading');
  }

  #setType(index: number, type: string): void {
    const s = this.port.strings;
    const item = this.model.items[index];
    if (!item || (type !== 'vod' && type !== 'channel')) return;
    this.#edit('type', (model) => model.setType(index, type), () => format(s.typed, { title: titleOf(s, item), type: typeName(s, type) }));
  }

  #add(entry: { id: string; type: ContentType; title: string; typeFixed: boolean }): boolean {
    const s = this.port.strings;
    const announce = (model: PlaylistModel) =>
      format(s.added, { title: titleOf(s, entry), position: model.items.length, count: model.items.length }, this.port.locale);
    return this.#edit('add', (model) => model.add(entry), announce);
  }

  #focusRow(index: number, prefer: MoveFocus = 'row'): void {
    const row = `li[data-index="${index}"]`;
    this.port.focus(...(prefer === 'row' ? [] : [`${row} button[data-action="${prefer}"]:not([disabled])`]), row);
  }

  /** What the parts call back: each control of the editor, by what it does. */
  #on: EditorActions = {
    save: () => {
      const s = this.port.strings;
      const reason = this.#blocked(s);
      if (this.model.dirty && !reason && !this.saving) void this.save();
      else this.port.announce(reason || (this.saving ? s.busy : s.nothingToSave));
    },
    revert: () => (this.saving ? this.port.announce(this.port.strings.busy) : this.revert()),
    undo: () => (this.saving ? this.port.announce(this.port.strings.busy) : this.undo()),
    move: (from, to, focus) => this.#move(from, to, focus),
    remove: (index) => this.#remove(index),
    setType: (index, type) => this.#setType(index, type),
    keydown: (event, index) => {
      const origin = event.composedPath()[0] as HTMLElement;
      const action = origin.tagName === 'SELECT' ? undefined : rowKey(event, origin === event.currentTarget, index, this.model.items.length);
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

  render(): TemplateResult {
    const s = this.port.strings;
    const { playlist, model, saving, conflict } = this;
    const notice = this.#notice;
    return editorView(
      s,
      {
        playlist,
        model,
        saving,
        conflict,
        status: saving ? s.saving : notice?.error ? '' : (notice?.text ?? ''),
        error: notice?.error ? notice.text : '',
        reason: this.#blocked(s),
        locale: this.port.locale,
        drag: this.#drag.state,
        pickers: this.#pickers,
      },
      this.#on,
    );
  }
}
