// Registers <svc-channel-setup> (importing this module is the side effect). The <svc-player> of
// its live preview is registered once the panel is loaded, when a channel is being created.
import { SvcChannelSetup } from './svc-channel-setup.js';

SvcChannelSetup.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-channel-setup': SvcChannelSetup;
  }
}
