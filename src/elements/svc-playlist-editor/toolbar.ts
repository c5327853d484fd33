// The top of the editor: the playlist's title and description, then Save, Revert, Undo and the
// dirty indicator, then why saving is blocked. The buttons use aria-disabled rather than disabled:
// a button that just did its job keeps focus, and a blocked Save can still be focused to hear why.
import { html, nothing, type TemplateResult } from 'lit';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import type { SvcPlaylistEditorStrings } from './strings.js';

export interface ToolbarView {
  playlist: AnnotatedPlaylist;
  title: string;
  dirty: boolean;
  canUndo: boolean;
  saving: boolean;
  /** Why saving is blocked; '' when it is not. */
  reason: string;
}

export interface ToolbarActions {
  save(): void;
  revert(): void;
  undo(): void;
}

const disabled = (off: boolean) => (off ? 'true' : 'false');

export function toolbar(s: SvcPlaylistEditorStrings, view: ToolbarView, on: ToolbarActions): TemplateResult {
  const { playlist, dirty, saving, reason } = view;
  return html`
    <div part="header">
      <slot name="heading"><h2 id="playlist-heading" part="title" tabindex="-1">${view.title}</h2></slot>
      ${playlist.description ? html`<p part="description">${playlist.description}</p>` : nothing}
    </div>
    <div part="toolbar">
      <button class="primary" part="save" type="button" aria-disabled=${disabled(!dirty || !!reason || saving)}
        aria-describedby="reason" @click=${on.save}>${saving ? s.saving : s.save}</button>
      <button part="revert" type="button" aria-disabled=${disabled(!dirty || saving)} @click=${on.revert}>${s.revert}</button>
      <button part="undo" type="button" aria-disabled=${disabled(!view.canUndo || saving)} @click=${on.undo}>${s.undo}</button>
      <span part="dirty">${dirty ? s.dirty : s.clean}</span>
    </div>
    <p id="reason" part="reason" class="error" ?hidden=${!reason}>${reason}</p>
  `;
}
