// The click-to-load face of <svc-player loading="click">: a poster, a real play button (a ringed
// circle, visible on black and on any poster) and the title, shown until the viewer asks for the
// video, so a page of many players downloads no vendor player (and asks the relay nothing) before
// anyone wants to watch. Loaded only by players with loading="click",
// and built with plain DOM calls so that it shares nothing with the first-paint chunk. Only the
// `localize` re-export needs the strings module: the script-tag loader shows the button before that
// is downloaded (loader-preview.ts takes this module without it, see vite.config.ts), so `{title}`
// is filled here rather than by shared/intl.ts's `format`.
import { knownPlayerOrigin } from '../../core/relay-url.js';
import type { SvcPlayerStrings } from './strings.js';

export { localize } from './localize.js';
export { elementPort } from '../shared/port.js';
export { adoptPartStyles } from '../shared/part-styles.js';

/** Styles of the play button and poster, adopted by the player's shadow root when this loads (as `styles`, by the lazy-part seam). */
export const facadeSheet = new CSSStyleSheet();
export { facadeSheet as styles };
facadeSheet.replaceSync(`
.facade{all:unset;position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.75rem;padding:1rem;cursor:pointer;overflow:hidden;color:var(--svc-player-color,#fff);font-weight:600;line-height:1.3;text-align:center}
.facade:focus-visible{outline:3px solid var(--svc-player-focus-color,#fff);outline-offset:-6px}
::slotted([slot=poster]),.poster{position:absolute;inset:0;width:100%;height:100%;object-fit:contain}
.play{position:relative;flex:none;width:4.5rem;height:4.5rem;border-radius:50%;background:var(--svc-player-play-background,rgb(0 0 0/.7));box-shadow:0 0 0 3px var(--svc-player-play-color,#fff);display:grid;place-items:center;transition:transform .15s}
.caption{position:relative;max-width:100%;padding:.2em .6em;border-radius:4px;background:var(--svc-player-caption-background,rgb(0 0 0/.75));overflow-wrap:anywhere}
.caption:empty{display:none}
.facade:hover .play,.facade:focus-visible .play{transform:scale(1.08)}
.play svg{width:45%;height:45%;margin-left:8%;fill:var(--svc-player-play-color,#fff)}
@media (prefers-reduced-motion:reduce){.play{transition:none}}
@media (forced-colors:active){.play{border:2px solid ButtonText;background:ButtonFace}.play svg{fill:ButtonText}}
`);

export interface Facade {
  /** The play button (with the poster slot), to render in the player's shadow root. */
  button: HTMLButtonElement;
  /** Names the button after the content's title ("Play <title>", else "Play video"), shows the title, and sets the poster URL (none: only the slot). */
  set(strings: SvcPlayerStrings, title: string, poster: string | null | undefined): void;
  /** The player is in `container`: if the viewer clicked play just before, ask it to play. */
  loaded(container: HTMLElement, signal: AbortSignal): void;
}

/**
 * The play button of a `<svc-player>`: a click activates the element (its sheet, `styles`, is adopted
 * by the lazy-part seam). The button goes with the click: a viewer on the keyboard keeps the focus,
 * on the element's stage (as the script-tag preview hands it over, loader-preview.ts).
 */
export function playerFacade(host: HTMLElement & { renderRoot: HTMLElement | DocumentFragment; updateComplete: Promise<unknown>; activate(): void; relay?: string | null; playerOrigin?: string | null }): Facade {
  const root = host.renderRoot as ShadowRoot;
  const facade = createFacade(() => {
    const focused = root.activeElement == facade.button;
    host.activate();
    if (focused) {
      void host.updateComplete.then(() => {
        const stage = root.querySelector<HTMLElement>('[part=stage]');
        if (!stage || facade.button.isConnected) return;
        stage.tabIndex = -1;
        stage.focus();
      });
    }
  }, host);
  return facade;
}

/**
 * The facade of a player whose `relay` and `player-origin` are `source`'s. On hover or focus it
 * opens a connection only to the player origin of the trusted relay's config, once the page knows it
 * (core/relay-url.ts, `knownPlayerOrigin`): never to an origin an attribute alone names.
 */
export function createFacade(activate: () => void, source: { relay?: string | null; playerOrigin?: string | null }): Facade {
  let clicked = -Infinity;
  const warm = () => preconnect(knownPlayerOrigin(source, document, location.href));
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    return node;
  };
  const button = make('button', 'facade');
  button.type = 'button';
  button.setAttribute('part', 'play');
  const slot = make('slot');
  slot.name = 'poster';
  const img = make('img', 'poster');
  img.setAttribute('part', 'poster');
  img.alt = '';
  const circle = make('span', 'play');
  circle.setAttribute('aria-hidden', 'true');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M6 4l15 8-15 8z');
  svg.append(path);
  circle.append(svg);
  // The title, visible (twenty posterless players are no longer twenty identical black boxes).
  const caption = make('span', 'caption');
  caption.setAttribute('part', 'caption');
  button.append(slot, circle, caption);
  button.addEventListener('click', () => {
    clicked = performance.now();
    activate();
  });
  button.addEventListener('pointerenter', warm);
  button.addEventListener('focus', warm);
  return {
    button,
    set(strings, title, poster) {
      button.setAttribute('aria-label', title ? strings.playTitle.replaceAll('{title}', () => title) : strings.play);
      caption.textContent = title;
      if (poster) {
        img.src = poster;
        slot.append(img);
      } else img.remove();
    },
    loaded(container, signal) {
      if (performance.now() - clicked < 5000) play(container, signal);
    },
  };
}

/** Opens the connection to the player origin ahead of a click, when the origin is known without asking. */
function preconnect(origin: string | undefined): void {
  const head = document.querySelector('head'); // not document.head, which a post's markup can clobber
  if (!origin || !head || head.querySelector(`link[rel=preconnect][href="${CSS.escape(origin)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  head.append(link);
}

/**
 * The viewer clicked play: asks the vendor player to play where its code allows it, i.e. plays the
 * first <video> it puts beside its script (within a few seconds). An iframe player decides for
 * itself (its code carries `allow="autoplay"`).
 */
function play(container: HTMLElement, signal: AbortSignal): void {
  const start = (video: HTMLVideoElement) => void video.play().catch(() => {});
  const found = container.querySelector('video');
  if (found) return start(found);
  const observer = new MutationObserver(() => {
    const video = container.querySelector('video');
    if (!video) return;
    observer.disconnect();
    start(video);
  });
  observer.observe(container, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), 5000);
  signal.addEventListener('abort', () => observer.disconnect(), { once: true });
}
