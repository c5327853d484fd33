// The editor as the viewer sees it once a playlist is loaded: the toolbar, the conflict panel when
// someone else saved first, the outcome of the last save, the items, then (once loaded with
// `import()`) the library and the "Add by id" form.
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import type { PlaylistModel } from '../../core/playlist-model.js';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import { conflictPanel, type Conflict, type ConflictActions } from './conflict.js';
import { itemList, type Drag, type ItemActions } from './items.js';
import type { Pickers } from './library.js';
import type { SvcPlaylistEditorStrings } from './strings.js';
import { toolbar, type ToolbarActions } from './toolbar.js';

export type EditorActions = ToolbarActions & ItemActions & ConflictActions;

export interface EditorView {
  playlist: AnnotatedPlaylist;
  model: PlaylistModel;
  saving: boolean;
  conflict?: Conflict;
  status: string;
  error: string;
  /** Why saving is blocked; '' when it is not. */
  reason: string;
  /** The language tag for dates. */
  locale: string;
  drag?: Drag;
  /** The library and the "Add by id" form, once loaded. */
  pickers?: Pickers;
}

export function editorView(s: SvcPlaylistEditorStrings, view: EditorView, on: EditorActions): TemplateResult {
  const { playlist, model, saving, conflict, pickers } = view;
  const title = playlist.title || s.untitledPlaylist;
  const { dirty, canUndo } = model;
  return html`
    <div class="stack">
      ${toolbar(s, { playlist, title, dirty, canUndo, saving, reason: view.reason }, on)}
      ${conflict ? conflictPanel(s, conflict, { locale: view.locale, saving, untyped: model.untyped.length > 0 }, on) : nothing}
      <p part="status">${view.status || (playlist.pending ? s.pending : '')}</p>
      ${view.error ? html`<p part="error" role="alert">${view.error}</p>` : nothing}
      ${guard([s, model.items, title, saving, view.drag, view.locale], () =>
        itemList(s, { items: model.items, listTitle: title, saving, drag: view.drag, locale: view.locale }, on),
      )}
      ${pickers?.render(s) ?? nothing}
    </div>
  `;
}
