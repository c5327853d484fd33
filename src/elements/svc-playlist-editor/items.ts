// The edited list: one row per item, with its position, title, id, type badge (and a type select
// while its type is the user's to choose) and Up, Down and Remove buttons. Rows are draggable and
// take the keyboard; what a key asks for is decided by `rowKey`, what it does by the element.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { PlaylistEntry } from '../../core/playlist-model.js';
import type { ContentType } from '../../service/types.js';
import { format } from '../shared/intl.js';
import type { SvcPlaylistEditorStrings } from './strings.js';

/** A row being dragged, and where it would land. */
export interface Drag {
  from: number;
  over?: { index: number; side: 'before' | 'after' };
}

/** Where focus goes after a row moved: the row itself, or the button that moved it. */
export type MoveFocus = 'row' | 'up' | 'down';

export interface ItemActions {
  move(from: number, to: number, focus: MoveFocus): void;
  remove(index: number): void;
  setType(index: number, type: string): void;
  keydown(event: KeyboardEvent, index: number): void;
  dragstart(event: DragEvent, index: number): void;
  dragover(event: DragEvent, index: number): void;
  drop(event: DragEvent, index: number): void;
  dragend(): void;
}

/** What the viewer reads for an item: its title, else its id. */
export const titleOf = (s: SvcPlaylistEditorStrings, item: { title: string; id: string }): string =>
  item.title || item.id || s.untitled;

/** The name of a type: VOD, Channel or Unknown type. */
export const typeName = (s: SvcPlaylistEditorStrings, type: ContentType | string | null): string =>
  type === 'vod' ? s.vod : type === 'channel' ? s.channel : s.unknownType;

/** The badge of a type, with its `badge-<type>` part. */
export const badge = (s: SvcPlaylistEditorStrings, type: ContentType | string | null): TemplateResult =>
  html`<span part="badge badge-${type ?? 'unknown'}">${typeName(s, type)}</span>`;

/**
 * What a key pressed on row `index` of `count` asks for: move the item (Alt+Arrow), go to another
 * row (Arrow, Home, End; only on the row itself), or remove it (Delete, on the row). `undefined`:
 * the key is not the list's; `null`: it is, but there is nothing to do (a move past an end).
 */
export function rowKey(
  { key, altKey, ctrlKey, metaKey, shiftKey }: KeyboardEvent,
  onRow: boolean,
  index: number,
  count: number,
): { move: number } | { focus: number } | { remove: true } | null | undefined {
  if (ctrlKey || metaKey || shiftKey) return undefined;
  const arrow = key === 'ArrowUp' ? -1 : key === 'ArrowDown' ? 1 : 0;
  if (altKey) {
    if (!arrow) return undefined;
    const to = index + arrow;
    return to < 0 || to >= count ? null : { move: to };
  }
  if (!onRow) return undefined;
  if (arrow) return { focus: Math.min(count - 1, Math.max(0, index + arrow)) };
  if (key === 'Home' || key === 'End') return { focus: key === 'Home' ? 0 : count - 1 };
  return key === 'Delete' ? { remove: true } : undefined;
}

/** The "Items" section: the ordered list, or the empty text (slot `empty`). */
export function itemList(
  s: SvcPlaylistEditorStrings,
  view: { items: readonly PlaylistEntry[]; listTitle: string; saving: boolean; drag?: Drag; locale: string },
  on: ItemActions,
): TemplateResult {
  const { items, drag } = view;
  const row = (item: PlaylistEntry, index: number) => {
    const title = titleOf(s, item);
    return html`
      <li
        part="item"
        data-index=${index}
        data-id=${item.id}
        data-type=${item.type ?? 'unknown'}
        data-drop=${drag?.over?.index === index ? drag.over.side : nothing}
        ?data-dragging=${drag?.from === index}
        ?data-untyped=${item.type === null}
        tabindex="0"
        draggable="true"
        aria-label=${format(s.rowLabel, { position: index + 1, title, type: typeName(s, item.type) }, view.locale)}
        aria-describedby="keyboard-help"
        @keydown=${(event: KeyboardEvent) => on.keydown(event, index)}
        @dragstart=${(event: DragEvent) => on.dragstart(event, index)}
        @dragover=${(event: DragEvent) => on.dragover(event, index)}
        @drop=${(event: DragEvent) => on.drop(event, index)}
        @dragend=${on.dragend}
      >
        <span class="handle" aria-hidden="true">⠿</span>
        <span class="position" aria-hidden="true">${index + 1}</span>
        <span class="what"><span class="title">${item.title || s.untitled}</span><code>${item.id}</code></span>
        <span class="type">
          ${badge(s, item.type)}
          ${item.typeFixed
            ? nothing
            : html`<select part="type-select" aria-label=${format(s.typeOf, { title })} .value=${live(item.type ?? '')}
                @change=${(event: Event) => on.setType(index, (event.target as HTMLSelectElement).value)}>
                <option value="" disabled>${s.chooseType}</option>
                <option value="vod">${s.vod}</option>
                <option value="channel">${s.channel}</option>
              </select>`}
        </span>
        <span class="actions">
          <button type="button" data-action="up" aria-label=${format(s.moveUpLabel, { title })} ?disabled=${index === 0}
            @click=${() => on.move(index, index - 1, 'up')}>${s.moveUp}</button>
          <button type="button" data-action="down" aria-label=${format(s.moveDownLabel, { title })}
            ?disabled=${index === items.length - 1} @click=${() => on.move(index, index + 1, 'down')}>${s.moveDown}</button>
          <button type="button" data-action="remove" aria-label=${format(s.removeLabel, { title })}
            @click=${() => on.remove(index)}>${s.remove}</button>
        </span>
      </li>
    `;
  };
  return html`
    <section class="stack" aria-labelledby="items-heading">
      <h3 id="items-heading" tabindex="-1">${s.itemsHeading}</h3>
      <p id="keyboard-help" class="hint">${s.keyboardHelp}</p>
      ${items.length
        ? html`<ol part="list" aria-label=${format(s.itemsLabel, { title: view.listTitle })} aria-busy=${view.saving ? 'true' : 'false'}>
            ${items.map(row)}
          </ol>`
        : html`<slot name="empty"><p>${s.empty}</p></slot>`}
    </section>
  `;
}
