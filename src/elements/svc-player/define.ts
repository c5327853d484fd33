// Registers <svc-player> (importing this module is the side effect).
import { SvcPlayer } from './svc-player.js';

SvcPlayer.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-player': SvcPlayer;
  }
}
