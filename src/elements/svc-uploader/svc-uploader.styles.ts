// Styles of <svc-uploader>: a large drop zone, then one row per file; every colour comes from a
// custom property (mapped to the shared tokens in :host). Hints, errors and actions come from formStyles.
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    --_gap: var(--svc-uploader-gap, 0.75rem);
    --_border: var(--svc-uploader-border-color, #8a8f98);
    --_muted: var(--svc-uploader-muted-color, #4b5260);
    --_accent: var(--svc-uploader-accent-color, #0b57d0);
    --_error: var(--svc-uploader-error-color, #b3261e);
    --_success: var(--svc-uploader-success-color, #146c2e);
  }
  .dropzone {
    display: grid;
    place-items: center;
    width: 100%;
    min-height: var(--svc-uploader-dropzone-min-height, 8rem);
    padding: 1.5rem;
    border: var(--svc-uploader-dropzone-border, 2px dashed) var(--_border);
    background: var(--svc-uploader-dropzone-background, #f6f8fb);
    color: inherit;
    font-weight: 600;
  }
  .dropzone:hover,
  :host([dragover]) .dropzone {
    border-color: var(--_accent);
  }
  :host([dragover]) .dropzone {
    border-style: solid;
    background: var(--svc-uploader-dropzone-active-background, #e8f0fe);
  }
  .hint {
    margin-block-start: calc(var(--_gap) / 2);
  }
  .hint:empty {
    display: none;
  }
  .list {
    list-style: none;
    margin: var(--_gap) 0 0;
    padding: 0;
    display: grid;
    gap: calc(var(--_gap) / 2);
  }
  .item {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0.25rem 0.75rem;
    padding: 0.6rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
    background: var(--svc-uploader-row-background, transparent);
  }
  .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .size,
  .details {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .item > :not(.name, .size) {
    grid-column: 1 / -1;
  }
  progress {
    width: 100%;
    height: 0.6rem;
    accent-color: var(--_accent);
  }
  [data-state='failed'] {
    border-color: var(--_error);
  }
  [data-state='failed'] .state {
    color: var(--_error);
  }
  [data-state='ready'] .state {
    color: var(--_success);
    font-weight: 600;
  }
  .actions {
    justify-content: flex-end;
  }
`;
