// Styles of the upload rows, adopted with the row template (lazy.ts) once files come: name and
// size on the first line, then progress, details, state, error, video and buttons.
import { css } from 'lit';

export const rowStyles = css`
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
