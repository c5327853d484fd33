// <svc-player> as the script-tag loader (loader.ts) defines it, once a player of the page is wanted.
// Until then each click-to-load player shows the loader's play button (loader-preview.ts). Defining
// the tag upgrades all of them at once, and their first renders (and the restyling of every
// player's root) came before the load of the one the viewer clicked: on a page of 20 players, its
// code and its answers were taken in only after 20 to 30 ms of that (bench: the first click). So
// the click-to-load players the viewer has not pointed at, focused or asked for keep the loader's
// button, which looks the same and works the same, and render once a player has loaded or failed
// (after its next frame), or after two seconds; one asked for renders and loads at once. Their
// updates are put off, not lost: their properties (those set before the code came too) are theirs
// at once, and every change is rendered with the first (until then `updateComplete` resolves with
// the loader's button still shown).
import { adoptStyles, type PropertyValues } from 'lit';
import { SvcPlayer } from './svc-player.js';

/** A player the viewer clicked (or the page asked to `play()`) before its code came. */
type Asked = HTMLElement & { activate?: () => void };

/** Defines `<svc-player>` and loads the players `asked` for, first. */
export function definePlayer(asked: Set<Asked>): void {
  /** The players whose first render waits, until `release()`. */
  const waiting = new Set<Player>();
  const done = new AbortController();
  const release = () => {
    if (done.signal.aborted) return;
    done.abort();
    clearTimeout(timer);
    for (const player of waiting) player.requestUpdate();
  };
  const timer = setTimeout(release, 2000);
  // Once a player's frame is painted.
  const loaded = (event: Event) => (event.target as Element).localName == 'svc-player' && requestAnimationFrame(() => setTimeout(release));
  addEventListener('svc-player-ready', loaded, { signal: done.signal });
  addEventListener('svc-error', loaded, { signal: done.signal });

  class Player extends SvcPlayer {
    /** Upgraded from the loader's play button, which the viewer has not asked for: its first render waits. */
    #waits = !!this.shadowRoot && !asked.has(this) && !this.matches(':hover,:focus-within');
    /** The changes since the upgrade, rendered with the first update. */
    #changed = new Map<PropertyKey, unknown>();
    /** Asked for while it waited: it renders (and loads) at once, the others still wait. */
    #first = false;

    // The loader's root as it is, its styles too, until the first render.
    protected override createRenderRoot(): HTMLElement | DocumentFragment {
      if (!this.#waits) return super.createRenderRoot();
      this.renderOptions.renderBefore ??= this.shadowRoot!.firstChild;
      return this.shadowRoot!;
    }

    protected override shouldUpdate(changed: PropertyValues<this>): boolean {
      if (this.#waits) {
        // A player made eager or lazy loads as such at once.
        if (!done.signal.aborted && !this.#first && this.loading == 'click') {
          for (const [name, old] of changed) if (!this.#changed.has(name)) this.#changed.set(name, old);
          waiting.add(this);
          return false;
        }
        this.#waits = false;
        waiting.delete(this);
        const all = changed as Map<PropertyKey, unknown>;
        for (const [name, old] of this.#changed) if (!all.has(name)) all.set(name, old);
        adoptStyles(this.shadowRoot!, Player.elementStyles);
      }
      return super.shouldUpdate(changed);
    }

    override activate(): void {
      this.#goFirst();
      super.activate();
    }

    override play(): Promise<void> {
      this.#goFirst();
      return super.play();
    }

    #goFirst(): void {
      if (!this.#waits) return;
      this.#first = true;
      this.requestUpdate();
    }
  }
  Player.define();
  // Clicked before the code came: asked for before their first update, they load at once and never
  // show a play button of their own (nor download its file).
  for (const player of asked) player.activate?.();
}
