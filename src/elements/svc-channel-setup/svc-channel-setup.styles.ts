// Styles of <svc-channel-setup>'s form (the panel brings its own): a calm single column on the
// shared form styles; every colour comes from a custom property.
// Written compactly, one rule a line (first-paint code; template literals are not minified).
import { css } from 'lit';

export const styles = css`
:host{display:block;max-width:var(--svc-channel-setup-max-width, 42rem);--_gap:var(--svc-channel-setup-gap, 1rem);--_border:var(--svc-channel-setup-border-color, #8a8f98);--_muted:var(--svc-channel-setup-hint-color,light-dark(#4b5260,#b4bac4));--_error:var(--svc-channel-setup-error-color,light-dark(#b3261e,#ffb4ab));--_accent:var(--svc-channel-setup-accent-color,light-dark(#0b57d0,#a8c7fa));--_surface:var(--svc-channel-setup-surface,light-dark(#fff,#24272c));--_mono:var(--svc-channel-setup-mono-font,ui-monospace,SFMono-Regular,Menlo,Consolas,monospace)}
input[type='number']{max-width:8em}
.choices{display:flex;flex-wrap:wrap;gap:0.4rem 1.2rem}
.choices label{font-weight:normal;display:inline-flex;align-items:center;gap:0.35rem}
.primary{background:var(--svc-channel-setup-button-background, var(--_accent));border-color:var(--svc-channel-setup-button-background, var(--_accent));color:var(--svc-channel-setup-button-color,light-dark(#fff,#062e6f))}
`;
