// Styles of the overlays <svc-player> shows over its stage while a player loads or when it failed
// (the spinner, the error's background). Apart from svc-player.styles.ts, which the script-tag
// loader's play button adopts before any click: it shows neither. Compact, plain text (Lit's `css`
// tag would bring more of Lit into the first paint): in the first paint, taken with `unsafeCSS`.

export const overlayCss = `
.overlay{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.75rem;padding:1rem;text-align:center}
.error{background:var(--svc-player-error-background,#3b0d0c)}
p{margin:0}
.spinner{width:2rem;height:2rem;border:3px solid;border-right-color:transparent;border-radius:50%;animation:spin .9s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:3s}}
`;
