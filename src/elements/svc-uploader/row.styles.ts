// Styles of the upload list, adopted with its template (lazy.ts) once files come: the line above
// it (count, waiting, buttons acting on every row), the fold of ready rows, and each row: name and
// size on the first line, then progress, details, state, error, video and buttons.
import { css } from 'lit';

export const rowStyles = css`
  .list {
    list-style: none;
    margin: var(--_gap) 0 0;
    padding: 0;
    display: grid;
    gap: calc(var(--_gap) / 2);
  }
  .summary {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_gap) / 2) var(--_gap);
    margin-block-start: var(--_gap);
  }
  .summary .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_gap) / 2);
    margin-inline-start: auto;
  }
  .waiting,
  .folded {
    color: var(--_muted);
  }
  .folded {
    margin: calc(var(--_gap) / 2) 0 0;
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
