// Base styles every element shares: its own text and surface, box model, focus ring, buttons,
// visually hidden text. Written compactly, one rule a line: every element's first paint carries them,
// and template literals are not minified.
import { css } from 'lit';

/**
 * The element keeps only the page's font family and size: its other inherited text properties are
 * set here, so a page's centring, spacing, `white-space` or weight does not leak in. Text and
 * surface are set together (light, or dark where the page's `color-scheme` asks for it), so a dark
 * page's light text never lands on a light surface of the element.
 */
export const baseStyles = css`
:host{box-sizing:border-box;font-style:normal;font-weight:400;line-height:var(--svc-line-height,1.5);text-align:start;text-indent:0;text-transform:none;letter-spacing:normal;word-spacing:normal;white-space:normal;color:var(--svc-color,light-dark(#1d2129,#e3e5e8));background:var(--svc-background,light-dark(#fff,#1b1d21))}
:host([hidden]){display:none !important}
*,*::before,*::after{box-sizing:inherit}
:focus-visible{outline:2px solid var(--svc-focus-color,light-dark(#1a73e8,#8ab4f8));outline-offset:2px}
button{font:inherit;cursor:pointer;border:1px solid var(--svc-border-color, #8a8f98);border-radius:var(--svc-radius, 6px);background:var(--svc-button-background,light-dark(#fff,#2b2f36));color:var(--svc-button-color,light-dark(#1d2129,#e3e5e8));padding:0.35em 0.8em}
button[disabled]{cursor:not-allowed;opacity:0.6}
.visually-hidden{position:absolute !important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
`;

/**
 * Forms, hints and errors of the elements with forms. Each element maps its public custom
 * properties (`--svc-<element>-border-color`, …) to these private tokens in its `:host` rule:
 * `--_gap`, `--_border`, `--_muted`, `--_error`, `--_accent`, `--_surface`, `--_mono`.
 */
export const formStyles = css`
h2,h3{margin:0;line-height:1.3;font-size:1.25em}
h3{font-size:1.05em}
[tabindex='-1']:focus{outline:none}
p{margin:0}
.stack{display:grid;gap:var(--_gap)}
.field{display:grid;gap:0.3rem;margin:0;padding:0;border:0;min-width:0}
label,legend{font-weight:600;padding:0}
input:not([type='checkbox']):not([type='radio']):not([type='file']),textarea,select{font:inherit;color:inherit;background:var(--_surface);border:1px solid var(--_border);border-radius:var(--svc-radius, 6px);padding:0.4em 0.6em;min-width:0}
textarea{resize:vertical}
[aria-invalid='true']{border-color:var(--_error);box-shadow:0 0 0 1px var(--_error)}
.hint{color:var(--_muted);font-size:0.9em}
.error{color:var(--_error);font-weight:600}
.error:empty{display:none}
.actions{display:flex;flex-wrap:wrap;gap:0.6rem;align-items:center}
button[aria-disabled='true']{cursor:not-allowed;opacity:0.6}
.primary{background:var(--_accent);border-color:var(--_accent);color:var(--_on-accent,light-dark(#fff,#062e6f))}
`;
