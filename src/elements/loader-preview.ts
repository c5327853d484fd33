// The click-to-load face of `<svc-player loading="click">` before the player's code (and Lit) is
// downloaded: the script-tag loader (loader.ts) imports this while every player of the page waits
// for a click. It attaches the player's open shadow root itself and renders there what the element
// renders before a click (the box, the stage and facade.ts's play button), in the viewer's language.
// Pointing at the button or focusing it downloads the player's code; a click also activates the
// player. The element then upgrades into the same shadow root (Lit reuses an existing one) and, when the
// viewer clicked, loads and is asked to play, as after a click on its own button. This button stays
// until the element has rendered its own (or its player), and hands the focus over.
// The build gives this module facade.ts without its `localize` re-export (vite.config.ts), so the
// button needs neither Lit nor the strings module.
import { fetchAhead } from '../core/fetch-ahead.js';
import { chooseRelay, embedPath } from '../core/relay-url.js';
import { EMBED_KINDS, EMBED_VARIANTS } from '../service/types.js';
import type { Locale, PlayButtonStrings } from './shared/locale.js';
import { createFacade, facadeSheet } from './svc-player/facade.js';
import { defaultStrings, type SvcPlayerStrings } from './svc-player/strings.js';
import { playerCss } from './svc-player/svc-player.styles.js';

/** The player's styles as the element adopts them (without Lit's css-tag, which comes with the player's code). */
const playerSheet = new CSSStyleSheet();
playerSheet.replaceSync(playerCss);

/**
 * Every file the player imports once the viewer wants it (its code, its load chunk, and all they
 * import at any depth; not its own play button, which a clicked player never shows), as
 * `./<file>` names separated by spaces: the script-tag build writes them in place of this marker
 * (scripts/cdn-manifest.ts `playerAhead`). Elsewhere there are none: the element imports its parts itself.
 */
const AHEAD = 'svc-player-ahead';

/** `16/9`, `4:3`, `1.5` as a CSS ratio, as svc-player.ts's `parseAspectRatio` (which comes with Lit) reads it. */
function ratio(value: string | null): string | undefined {
  const [width, height = 1, rest] = (value ?? '').split(/[/:]/).map(Number);
  return width! > 0 && height > 0 && rest === undefined ? `${width} / ${height}` : undefined;
}

type Waiting = HTMLElement & { activate?: () => void; state?: string; strings?: Partial<SvcPlayerStrings> };

/**
 * A source or look of `player` (`contentId`, `aspectRatio`…): the property the page set before the
 * code came, even to null (the element takes it when it upgrades: it wins over the attribute), else
 * the attribute; once upgraded (a player waiting to render, svc-player/script-tag.ts), its property.
 */
const read = (player: Waiting, name: string): string | null =>
  Object.hasOwn(player, name) || player.matches(':defined') ? (player as unknown as Record<string, string | null>)[name]! : player.getAttribute(name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));

/**
 * Renders the play button of `player` (not yet upgraded); `load` imports the player's code, which
 * the viewer `wanted` (a click: its failure is reported) or may soon want (pointing, focusing).
 */
export function preview(player: Waiting, load: (wanted: boolean) => Promise<boolean>): void {
  if (player.shadowRoot || customElements.get('svc-player')) return;
  const root = player.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [playerSheet, facadeSheet];
  // The state the element reflects for styling: a player waiting for a click is idle (it sets the
  // attribute itself once upgraded).
  if (!player.hasAttribute('state')) player.setAttribute('state', 'idle');
  // The element's code and, at the same time, every file it imports then (AHEAD), rather than
  // each only once the file importing it has arrived. A failed download is the element's to report.
  const download = (wanted: boolean) => {
    for (const file of AHEAD.split(' ')) import(file).catch(() => {});
    return load(wanted);
  };
  const warm = () => void download(false);
  // Pressed (pointerdown, or a click from the keyboard): the viewer wants this video. Its two
  // requests leave now, beside the download of the code, with nothing of that code (the relay client
  // takes their answers: core/fetch-ahead.ts); the element's own checks still run when it loads.
  // Hovering or focusing asks the relay nothing.
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    const kind = read(player, 'kind') ?? 'vod';
    const variant = read(player, 'variant') ?? 'javascript';
    const id = read(player, 'contentId');
    // Refused as the element refuses them (svc-player/requests.ts `ask`): nothing is sent then.
    const known = (list: readonly string[], value: string) => list.includes(value);
    const relay = chooseRelay(read(player, 'relay'), document, location.href);
    if (!known(EMBED_KINDS, kind) || !known(EMBED_VARIANTS, variant) || 'refused' in relay) return;
    const path = id && embedPath(kind, id, variant);
    if (read(player, 'code') == null && path) fetchAhead(relay.baseUrl + path);
    fetchAhead(`${relay.trustedUrl}/config`);
  };
  let clicked = false;
  const facade = createFacade(async () => {
    clicked = true;
    ask();
    // Plays once loaded, as the player's own button does (facade.ts `loaded`).
    player.addEventListener('svc-player-ready', (event) => facade.loaded(event.detail.element.parentElement!, new AbortController().signal), { once: true });
    // The code could not be downloaded (the element reports it): this click is over, so that the
    // element's own button takes over once the code comes another way (another player's download).
    if (!(await download(true))) clicked = false;
    player.activate?.();
  }, { relay: read(player, 'relay'), playerOrigin: read(player, 'playerOrigin') });
  facade.button.addEventListener('pointerenter', warm);
  facade.button.addEventListener('focus', warm);
  // Presses under way (a pointer, or Space, held down on the button) click it on their release: the
  // button stays until then, even if the player's code arrives meanwhile (removed, it would lose
  // that click). Checked again once the release's click is dispatched.
  let pressed = 0;
  let handOver: (() => void) | undefined;
  /** A press, until the first event of `ends` that `released` says ends it (the same pointer, Space). */
  const hold = (ends: string[], released: (event: Event) => boolean) => {
    pressed++;
    const end = (event: Event) => {
      if (!released(event)) return;
      pressed--;
      for (const type of ends) removeEventListener(type, end, true);
      setTimeout(() => handOver?.());
    };
    for (const type of ends) addEventListener(type, end, true);
  };
  facade.button.addEventListener('pointerdown', (down) => {
    ask();
    hold(['pointerup', 'pointercancel'], (event) => (event as PointerEvent).pointerId == down.pointerId);
  });
  const space = (event: Event) => (event as KeyboardEvent).key == ' ';
  facade.button.addEventListener('keydown', (event) => space(event) && !event.repeat && hold(['keyup'], space));
  const box = document.createElement('div');
  box.setAttribute('part', 'box');
  const stage = document.createElement('div');
  stage.setAttribute('part', 'stage');
  const slot = document.createElement('slot');
  slot.name = 'player';
  stage.append(slot);
  box.append(stage, facade.button);
  root.append(box);

  /** The play button's strings in the page's language, once loaded (English until then). */
  let playButton: PlayButtonStrings | undefined;
  let locale: Locale = 'en';
  const render = () => {
    if (customElements.get('svc-player')) return observer.disconnect(); // the player renders itself now
    const given = ratio(read(player, 'aspectRatio'));
    if (given) player.style.setProperty('--_svc-pg', given);
    if (playButton && locale === 'ar') box.dir = 'rtl';
    facade.set({ ...defaultStrings, ...playButton, ...player.strings }, player.title, read(player, 'poster'));
  };
  // The player's code arrived: the element upgrades into this shadow root and renders itself before
  // the root's first child (LitElement's createRenderRoot: `renderBefore` is that child). This box,
  // on top, stays until the element shows its own play button (or, once activated, its player), so
  // that a viewer on the keyboard keeps the focus: it moves to that button (or the element's stage).
  // Then the box stays as the element's anchor, emptied and hidden.
  void customElements.whenDefined('svc-player').then(() => {
    handOver = () => {
      // The element adopted its own styles in the root in place of these: the button keeps its own
      // while it stays (the element's button file may not have come, loader-preview's stands in).
      if (!root.adoptedStyleSheets.includes(facadeSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, facadeSheet];
      // The element renders before this box: the first of each part in the root is the element's.
      const button = root.querySelector<HTMLElement>('[part=play]')!;
      const started = player.state != 'idle';
      // After a click the element is being activated: its button, if shown, is about to go.
      if (!started && (clicked || pressed || button == facade.button)) return;
      watch.disconnect();
      handOver = undefined;
      if (root.activeElement == facade.button) {
        const target = started ? root.querySelector<HTMLElement>('[part=stage]')! : button;
        if (started) target.tabIndex = -1;
        // Where the button was: nothing to scroll to (and no layout forced during the click's load).
        target.focus({ preventScroll: true });
      }
      box.replaceChildren();
      box.removeAttribute('part');
      box.hidden = true;
    };
    const watch = new MutationObserver(handOver);
    watch.observe(root, { childList: true, subtree: true });
    handOver();
  });
  const observer = new MutationObserver(render);
  observer.observe(player, { attributes: true, attributeFilter: ['title', 'poster', 'aspect-ratio'] });
  render();
  // An English page (or one without `lang`) needs nothing more; another takes the button's two
  // strings in its language (locales/play-<locale>.ts), not the whole translation, before the click.
  const lang = player.getRootNode() === document ? (player.closest('[lang]')?.getAttribute('lang')?.trim() ?? '') : '?';
  if (/^(en\b|$)/i.test(lang)) return;
  import('./shared/locale.js')
    .then(({ langOf, pickLocale, loadPlayButton }) => {
      locale = pickLocale(langOf(player));
      return locale === 'en' ? undefined : loadPlayButton(locale);
    })
    .then(
      (loaded) => {
        playButton = loaded;
        render();
      },
      () => {}, // English stays, as the player shows it when its language fails to load
    );
}
