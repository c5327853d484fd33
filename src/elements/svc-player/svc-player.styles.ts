// Styles of <svc-player>: a box of a fixed aspect ratio (given, or adopted from the video once the
// player reports it) whose stage fills it, so the player is sized by the box and never the other
// way round: a video of another ratio is letterboxed or pillarboxed on the background, never
// cropped, and nothing overflows. It keeps only the page's font family and size: no other text
// setting of the page (alignment, spacing, white-space, weight) leaks in. Written compactly: this is in the first-paint chunk and
// template literals are not minified. Plain text, not Lit's `css`: the script-tag loader's play button
// (loader-preview.ts) adopts these styles before any of Lit is downloaded; the element takes them
// through `unsafeCSS` (they are this constant, nothing else). The overlays only the element shows
// (loading, error) have their own module (overlay.styles.ts), which that button does not download.

export const playerCss = `
:host{display:block;position:relative;aspect-ratio:var(--_svc-pg,var(--svc-player-aspect-ratio,var(--_svc-pr,16/9)));max-height:var(--svc-player-max-height,90svh);background:var(--svc-player-background,#000);color:var(--svc-player-color,#fff);font-style:normal;font-weight:400;line-height:1.4;text-align:start;text-indent:0;text-transform:none;letter-spacing:0;word-spacing:0;white-space:normal}
:host([hidden]){display:none}
[part=stage]{position:absolute;inset:0}
::slotted([slot=player]){display:block;width:100%;height:100%}
@media (forced-colors:active){:host{outline:1px solid CanvasText;outline-offset:-1px}}
`;
