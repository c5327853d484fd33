// The panel shown when someone else saved first: when, and what their version holds, then the
// choice: reload theirs (after a confirmation) or overwrite it with mine.
import { html, type TemplateResult } from 'lit';
import { PlaylistModel } from '../../core/playlist-model.js';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import { format, numberFormat } from '../shared/intl.js';
import { titleOf } from './items.js';
import type { SvcPlaylistEditorStrings } from './strings.js';

/** Their version, and whether the user asked to reload it (and must confirm). */
export interface Conflict {
  theirs: AnnotatedPlaylist;
  confirming: boolean;
}

export interface ConflictActions {
  askReload(): void;
  cancelReload(): void;
  reload(): void;
  overwrite(): void;
}

export function conflictPanel(
  s: SvcPlaylistEditorStrings,
  { theirs, confirming }: Conflict,
  view: { locale: string; saving: boolean; untyped: boolean },
  on: ConflictActions,
): TemplateResult {
  const items = PlaylistModel.fromPlaylist(theirs).items;
  const date = new Date(theirs.save_date);
  const message = format(s.conflictMessage, {
    date: Number.isNaN(date.getTime()) ? theirs.save_date : date.toLocaleString(view.locale),
    count: numberFormat(view.locale).format(items.length),
    titles: new Intl.ListFormat(view.locale, { type: 'unit' }).format(items.map((item) => titleOf(s, item))) || '–',
  });
  return html`
    <section part="conflict" aria-labelledby="conflict-heading">
      <h3 id="conflict-heading" tabindex="-1">${s.conflictHeading}</h3>
      <p>${message}</p>
      ${confirming
        ? html`
            <p>${s.confirmReload}</p>
            <div class="buttons">
              <button type="button" data-action="confirm-reload" @click=${on.reload}>${s.confirmReloadYes}</button>
              <button type="button" data-action="cancel-reload" @click=${on.cancelReload}>${s.cancel}</button>
            </div>
          `
        : html`
            <div class="buttons">
              <button type="button" data-action="reload" ?disabled=${view.saving} @click=${on.askReload}>${s.conflictReload}</button>
              <button type="button" data-action="overwrite" ?disabled=${view.saving || view.untyped}
                @click=${on.overwrite}>${s.conflictOverwrite}</button>
            </div>
          `}
    </section>
  `;
}
