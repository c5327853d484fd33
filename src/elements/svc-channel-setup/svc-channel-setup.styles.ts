// Styles of <svc-channel-setup>: a calm single column; every colour comes from a custom property.
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    max-width: var(--svc-channel-setup-max-width, 42rem);
    --_gap: var(--svc-channel-setup-gap, 1rem);
    --_border: var(--svc-channel-setup-border-color, #8a8f98);
    --_muted: var(--svc-channel-setup-hint-color, #4b5260);
    --_error: var(--svc-channel-setup-error-color, #b3261e);
    --_accent: var(--svc-channel-setup-accent-color, #0b57d0);
    --_surface: var(--svc-channel-setup-surface, #fff);
    --_mono: var(--svc-channel-setup-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  }
  h2,
  h3 {
    margin: 0 0 calc(var(--_gap) / 2);
    font-size: 1.25em;
    line-height: 1.3;
  }
  h3 {
    font-size: 1.05em;
  }
  form,
  section {
    display: grid;
    gap: var(--_gap);
  }
  .field {
    display: grid;
    gap: 0.3rem;
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  label,
  legend {
    font-weight: 600;
    padding: 0;
  }
  input[type='text'],
  input[type='number'],
  textarea {
    font: inherit;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
    padding: 0.45em 0.6em;
    width: 100%;
  }
  input[type='number'] {
    max-width: 8em;
  }
  textarea {
    resize: vertical;
  }
  [aria-invalid='true'] {
    border-color: var(--_error);
    box-shadow: 0 0 0 1px var(--_error);
  }
  .hint {
    color: var(--_muted);
    font-size: 0.9em;
    margin: 0;
  }
  .field-error,
  .error {
    color: var(--_error);
    font-weight: 600;
    margin: 0;
  }
  .error:empty {
    display: none;
  }
  .choices {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem 1.2rem;
  }
  .choices label {
    font-weight: normal;
    display: inline-flex;
    align-items: center;
    gap: 0.35rem;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.6rem;
    align-items: center;
  }
  button[type='submit'],
  .primary {
    background: var(--svc-channel-setup-button-background, var(--_accent));
    color: var(--svc-channel-setup-button-color, #fff);
    border-color: var(--svc-channel-setup-button-background, var(--_accent));
  }
  .notice {
    margin: 0;
    padding: 0.75em 1em;
    border-left: 4px solid var(--svc-channel-setup-notice-border-color, #b06000);
    background: var(--svc-channel-setup-notice-background, #fef7e0);
    color: var(--svc-channel-setup-notice-color, #3c2a00);
  }
  dl {
    display: grid;
    gap: 0.75rem;
    margin: 0;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0.2rem 0 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
    align-items: center;
  }
  .value {
    font-family: var(--_mono);
    overflow-wrap: anywhere;
    padding: 0.2em 0.4em;
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
    background: var(--svc-channel-setup-value-background, #f4f5f7);
    flex: 1 1 16rem;
  }
  .copied {
    color: var(--svc-channel-setup-success-color, #146c2e);
    font-weight: 600;
  }
  .copied[hidden] {
    display: inline;
    visibility: hidden;
  }
  .preview {
    display: block;
  }
  .embed textarea {
    font-family: var(--_mono);
    font-size: 0.9em;
    min-height: 5.5em;
  }
  a {
    color: var(--_accent);
    overflow-wrap: anywhere;
  }
`;
