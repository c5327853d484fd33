// Styles of a shown playlist: the toolbar, the item rows, the conflict panel and the library.
// Adopted by the shadow root when the first playlist is shown (editing.ts); every colour comes from
// a documented custom property, through the tokens of styles.ts.
import { css } from 'lit';

export const editingStyles = css`
  [part~='header'] {
    display: grid;
    gap: 0.3rem;
  }
  [part~='description'],
  [part~='dirty'],
  .handle,
  .position,
  code {
    color: var(--_muted);
  }
  [part~='toolbar'],
  .type,
  .buttons,
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }
  [part~='dirty'] {
    margin-inline-start: auto;
    font-weight: 600;
  }
  :host([dirty]) [part~='dirty'] {
    color: var(--svc-playlist-editor-dirty-color, light-dark(#8a4b00, #ffb870));
  }
  ol,
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.4rem;
  }
  [part~='item'] {
    display: grid;
    grid-template-columns: auto auto 1fr auto auto;
    align-items: center;
    gap: 0.6rem;
    padding: 0.5rem 0.6rem;
    background: var(--svc-playlist-editor-item-background, light-dark(#f6f7f9, #23262b));
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
  }
  [data-drop='before'] {
    box-shadow: 0 -3px 0 var(--svc-playlist-editor-drop-color, light-dark(#0b57d0, #a8c7fa));
  }
  [data-drop='after'] {
    box-shadow: 0 3px 0 var(--svc-playlist-editor-drop-color, light-dark(#0b57d0, #a8c7fa));
  }
  [data-dragging] {
    opacity: 0.5;
  }
  [data-untyped] {
    border-color: var(--_unknown);
    border-inline-start-width: 4px;
  }
  .handle {
    cursor: grab;
    user-select: none;
  }
  .position {
    font-variant-numeric: tabular-nums;
    min-width: 1.5em;
    text-align: end;
  }
  .what {
    display: grid;
    min-width: 0;
  }
  .title {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  code {
    font-family: var(--_mono);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  [part~='badge'] {
    padding: 0.1em 0.5em;
    border-radius: 999px;
    font-size: 0.8em;
    font-weight: 700;
    border: 1px solid;
    white-space: nowrap;
  }
  [part~='badge-vod'] {
    color: var(--svc-playlist-editor-vod-color, light-dark(#0b57d0, #a8c7fa));
  }
  [part~='badge-channel'] {
    color: var(--svc-playlist-editor-channel-color, light-dark(#6b2fa3, #d7b8f3));
  }
  [part~='badge-unknown'] {
    color: var(--_unknown);
  }
  [part~='item'] .actions {
    gap: 0.3rem;
  }
  .actions button {
    padding: 0.2em 0.5em;
  }
  [part~='conflict'] {
    border: 2px solid var(--_error);
    border-radius: var(--svc-radius, 6px);
    padding: var(--_gap);
    display: grid;
    gap: 0.6rem;
  }
  [part~='library'],
  [part~='add-by-id'] {
    border-top: 1px solid var(--_border);
    padding-top: var(--_gap);
  }
  [part~='library-list'] {
    gap: 0.3rem;
    max-height: var(--svc-playlist-editor-library-max-height, 18rem);
    overflow: auto;
  }
  [part~='library-item'] {
    display: grid;
    grid-template-columns: 1fr auto auto;
    align-items: center;
    gap: 0.6rem;
    padding: 0.3rem 0.2rem;
  }
  .row {
    align-items: end;
  }
  /* The library's scrolling list holds its buttons' visually hidden labels (absolutely positioned):
     positioned, it contains them, else they escape to the page and stretch it with the library's length. */
  [part~='library-list'] {
    position: relative;
  }
  /* A long library: rows out of the list's view are not laid out or painted until scrolled to. */
  [part~='library-item'] {
    content-visibility: auto;
    contain-intrinsic-size: auto 2.5rem;
  }
  /* A long playlist: rows out of view are not laid out or painted until scrolled to, so a move
     or an edit lays out the rows on screen only. */
  [part~='item'] {
    content-visibility: auto;
    contain-intrinsic-size: auto 3rem;
  }
  /* Forced colors (Windows High Contrast) drop box-shadows: the drop marker becomes a border in a
     system colour. */
  @media (forced-colors: active) {
    [data-drop='before'] {
      border-block-start: 4px solid Highlight;
    }
    [data-drop='after'] {
      border-block-end: 4px solid Highlight;
    }
  }
  /* Reflow (200 % zoom on a phone, a narrow column): in a narrow list the type and the buttons
     go under the title, so titles and ids wrap between words, never inside one. */
  [part~='list'],
  [part~='library-list'] {
    container-type: inline-size;
  }
  @container (max-width: 30rem) {
    [part~='item'] {
      grid-template-columns: auto auto 1fr;
    }
    [part~='item'] .type,
    [part~='item'] .actions {
      grid-column: 1 / -1;
    }
    [part~='library-item'] {
      grid-template-columns: 1fr auto;
    }
    [part~='library-item'] .what {
      grid-column: 1 / -1;
    }
  }
  /* The item list and the library in block flow (not a grid): moving or filtering lays out the
     rows it touches, not every row's track. */
  [part~='list'],
  [part~='library-list'] {
    display: block;
  }
  [part~='list'] > [part~='item'] + [part~='item'] {
    margin-block-start: 0.4rem;
  }
  [part~='library-list'] > [part~='library-item'] + [part~='library-item'] {
    margin-block-start: 0.3rem;
  }
`;
