// <svc-player> as the script-tag loader (loader.ts) defines it, once a player of the page is wanted.
// Until then each click-to-load player shows the loader's play button (loader-preview.ts). Defining
// the tag upgrades all of them at once, and their first renders came before the load of the one the
// viewer clicked: on a page of 20 players, its embed code and its code files were taken in only
// after 20 to 30 ms of renders (bench: the first click). So the players the viewer has not pointed
// at, focused or asked for keep the loader's button, which looks the same and works the same, and
// render once a player has loaded or failed, once one of them is asked for, or after a second.
import { SvcPlayer } from './svc-player.js';

/** A player the viewer clicked (or the page asked to `play()`) before its code came. */
type Asked = HTMLElement & { activate?: () => void };

/** Defines `<svc-player>` and loads the players `asked` for, first. */
export function definePlayer(asked: Set<Asked>): void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  addEventListener('svc-player-ready', release, { once: true });
  addEventListener('svc-error', release, { once: true });
  setTimeout(release, 1000);

  class Player extends SvcPlayer {
    /** Upgraded from the loader's play button, which the viewer has not asked for: its first render waits. */
    #waits = !!this.shadowRoot && !asked.has(this) && !this.matches(':hover,:focus-within');

    protected override async scheduleUpdate(): Promise<unknown> {
      if (this.#waits) await released;
      this.#waits = false;
      return super.scheduleUpdate();
    }

    override activate(): void {
      if (this.#waits) release();
      super.activate();
    }

    override play(): Promise<void> {
      if (this.#waits) release();
      return super.play();
    }
  }
  Player.define();
  // Clicked before the code came: asked for before their first update, they load at once and never
  // show a play button of their own (nor download its file).
  for (const player of asked) player.activate?.();
}
