// Base styles every element shares: box model, focus ring, buttons, visually hidden text.
import { css } from 'lit';

export const baseStyles = css`
  :host {
    box-sizing: border-box;
    font: inherit;
    color: var(--svc-color, inherit);
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--svc-focus-color, #1a73e8);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
    border: 1px solid var(--svc-border-color, #8a8f98);
    border-radius: var(--svc-radius, 6px);
    background: var(--svc-button-background, #fff);
    color: var(--svc-button-color, #1d2129);
    padding: 0.35em 0.8em;
  }
  button[disabled] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
