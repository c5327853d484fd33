// Styles of <svc-player>: a box that keeps its aspect ratio from the first paint, the player filling
// it, and loading and error states laid over it.
import { css } from 'lit';

export const styles = css`
  :host([hidden]) {
    display: none;
  }
  :host {
    display: block;
    position: relative;
    aspect-ratio: var(--svc-player-aspect-ratio, 16 / 9);
    background: var(--svc-player-background, #000);
    color: var(--svc-player-color, #fff);
    overflow: hidden;
  }
  .box,
  .stage,
  .overlay {
    position: absolute;
    inset: 0;
  }
  ::slotted([slot='player']) {
    display: block;
    width: 100%;
    height: 100%;
  }
  .overlay {
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 0.75rem;
    padding: 1rem;
    text-align: center;
    line-height: 1.4;
  }
  .error {
    background: var(--svc-player-error-background, #3b0d0c);
  }
  .error p {
    margin: 0;
  }
  .spinner {
    display: block;
    width: 2rem;
    height: 2rem;
    border: 3px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-right-color: currentColor;
      opacity: 0.6;
    }
  }
`;
