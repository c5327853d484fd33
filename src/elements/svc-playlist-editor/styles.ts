// What <svc-playlist-editor> styles before a playlist is shown (the shared form styles do the rest):
// its box, and its public custom properties mapped to the private tokens every part uses. The
// editor's own styles (editing.styles.ts) are adopted when a playlist is shown.
// Written compactly, one rule a line (first-paint code; template literals are not minified).
import { css } from 'lit';

export const styles = css`
:host{display:block;max-width:var(--svc-playlist-editor-max-width, 48rem);--_gap:var(--svc-playlist-editor-gap, 1rem);--_border:var(--svc-playlist-editor-border-color, #8a8f98);--_muted:var(--svc-playlist-editor-hint-color,light-dark(#4b5260,#b4bac4));--_error:var(--svc-playlist-editor-error-color,light-dark(#b3261e,#ffb4ab));--_accent:var(--svc-playlist-editor-accent-color,light-dark(#0b57d0,#a8c7fa));--_surface:var(--svc-playlist-editor-surface,light-dark(#fff,#24272c));--_unknown:var(--svc-playlist-editor-unknown-color,light-dark(#8a4b00,#ffb870));--_mono:var(--svc-playlist-editor-mono-font,ui-monospace,SFMono-Regular,Menlo,Consolas,monospace)}
[part~='error']{color:var(--_error)}
`;
