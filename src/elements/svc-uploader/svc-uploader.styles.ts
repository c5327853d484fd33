// Styles of <svc-uploader>: a large drop zone and its hint; every colour comes from a custom
// property (mapped to the shared tokens in :host). Hints, errors and actions come from formStyles;
// the list's styles (row.styles.ts) are adopted with the list's template, once files come.
// Written compactly, one rule a line (first-paint code; template literals are not minified).
import { css } from 'lit';

export const styles = css`
:host{display:block;--_gap:var(--svc-uploader-gap, 0.75rem);--_border:var(--svc-uploader-border-color, #8a8f98);--_muted:var(--svc-uploader-muted-color,light-dark(#4b5260,#b4bac4));--_accent:var(--svc-uploader-accent-color,light-dark(#0b57d0,#a8c7fa));--_error:var(--svc-uploader-error-color,light-dark(#b3261e,#ffb4ab));--_success:var(--svc-uploader-success-color,light-dark(#146c2e,#6dd58c))}
.dropzone{display:grid;place-items:center;width:100%;min-height:var(--svc-uploader-dropzone-min-height, 8rem);padding:1.5rem;border:var(--svc-uploader-dropzone-border, 2px dashed) var(--_border);background:var(--svc-uploader-dropzone-background,light-dark(#f6f8fb,#23262b));color:inherit;font-weight:600}
.dropzone:hover,:host([dragover]) .dropzone{border-color:var(--_accent)}
:host([dragover]) .dropzone{border-style:solid;background:var(--svc-uploader-dropzone-active-background,light-dark(#e8f0fe,#1f3354))}
.hint{margin-block-start:calc(var(--_gap) / 2)}
.hint:empty{display:none}
`;
