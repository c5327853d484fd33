// Styles of <svc-playlist-editor>: a list with a toolbar above and the library below; every colour
// comes from a custom property.
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    max-width: var(--svc-playlist-editor-max-width, 48rem);
    --_gap: var(--svc-playlist-editor-gap, 1rem);
    --_border: var(--svc-playlist-editor-border-color, #8a8f98);
    --_muted: var(--svc-playlist-editor-hint-color, #4b5260);
    --_error: var(--svc-playlist-editor-error-color, #b3261e);
    --_accent: var(--svc-playlist-editor-accent-color, #0b57d0);
    --_surface: var(--svc-playlist-editor-surface, #fff);
    --_row: var(--svc-playlist-editor-item-background, #f6f7f9);
    --_drop: var(--svc-playlist-editor-drop-color, #0b57d0);
    --_vod: var(--svc-playlist-editor-vod-color, #0b57d0);
    --_channel: var(--svc-playlist-editor-channel-color, #6b2fa3);
    --_unknown: var(--svc-playlist-editor-unknown-color, #8a4b00);
    --_dirty: var(--svc-playlist-editor-dirty-color, #8a4b00);
    --_mono: var(--svc-playlist-editor-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  }
  h2,
  h3 {
    margin: 0;
    line-height: 1.3;
  }
  h2 {
    font-size: 1.25em;
  }
  h3 {
    font-size: 1.05em;
  }
  h2:focus,
  h3:focus {
    outline: none;
  }
  p {
    margin: 0;
  }
  .stack {
    display: grid;
    gap: var(--_gap);
  }
  .field {
    display: grid;
    gap: 0.3rem;
  }
  label {
    font-weight: 600;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .error,
  [part~='error'] {
    color: var(--_error);
  }
  input,
  textarea,
  select {
    font: inherit;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
    padding: 0.4em 0.6em;
    min-width: 0;
  }
  [aria-invalid='true'] {
    border-color: var(--_error);
  }
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: #fff;
  }
  [part~='header'] {
    display: grid;
    gap: 0.3rem;
  }
  [part~='description'] {
    color: var(--_muted);
  }
  [part~='toolbar'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }
  [part~='dirty'] {
    margin-inline-start: auto;
    font-weight: 600;
    color: var(--_muted);
  }
  :host([dirty]) [part~='dirty'] {
    color: var(--_dirty);
  }
  [part~='list'] {
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
    background: var(--_row);
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
  }
  [part~='item'][data-drop='before'] {
    box-shadow: 0 -3px 0 var(--_drop);
  }
  [part~='item'][data-drop='after'] {
    box-shadow: 0 3px 0 var(--_drop);
  }
  [part~='item'][data-dragging] {
    opacity: 0.5;
  }
  [part~='item'][data-untyped] {
    border-color: var(--_unknown);
    border-inline-start-width: 4px;
  }
  .handle {
    cursor: grab;
    color: var(--_muted);
    user-select: none;
  }
  .position {
    font-variant-numeric: tabular-nums;
    min-width: 1.5em;
    text-align: end;
    color: var(--_muted);
  }
  .what {
    display: grid;
    min-width: 0;
  }
  .what .title {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  code {
    font-family: var(--_mono);
    font-size: 0.85em;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  .type {
    display: flex;
    gap: 0.4rem;
    align-items: center;
  }
  [part~='badge'] {
    display: inline-block;
    padding: 0.1em 0.5em;
    border-radius: 999px;
    font-size: 0.8em;
    font-weight: 700;
    border: 1px solid currentColor;
    white-space: nowrap;
  }
  [part~='badge-vod'] {
    color: var(--_vod);
  }
  [part~='badge-channel'] {
    color: var(--_channel);
  }
  [part~='badge-unknown'] {
    color: var(--_unknown);
  }
  .actions {
    display: flex;
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
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  [part~='library'],
  [part~='add-by-id'] {
    border-top: 1px solid var(--_border);
    padding-top: var(--_gap);
  }
  [part~='library-list'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
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
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: end;
  }
`;
