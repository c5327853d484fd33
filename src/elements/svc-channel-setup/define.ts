// Registers <svc-channel-setup> and the <svc-player> its panel uses for the live preview
// (importing this module is the side effect).
import '../svc-player/define.js';
import { SvcChannelSetup } from './svc-channel-setup.js';

SvcChannelSetup.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-channel-setup': SvcChannelSetup;
  }
}
