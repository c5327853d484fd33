// Styles of <svc-player>: a box that keeps its aspect ratio from the first paint and grows only when
// the player needs more (a playlist's controls under the video), with loading and error states laid
// over it. The injected player is in light DOM, slotted into the stage. Written compactly: this is
// in the first-paint chunk and template literals are not minified.
import { css } from 'lit';

export const styles = css`
:host{display:block;position:relative;aspect-ratio:var(--svc-player-aspect-ratio,16/9);background:var(--svc-player-background,#000);color:var(--svc-player-color,#fff)}
:host([hidden]){display:none}
::slotted([slot=player]){display:block}
.overlay{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.75rem;padding:1rem;text-align:center;line-height:1.4}
.error{background:var(--svc-player-error-background,#3b0d0c)}
p{margin:0}
.spinner{width:2rem;height:2rem;border:3px solid;border-right-color:transparent;border-radius:50%;animation:spin .9s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:3s}}
`;
