// Registers <svc-channel-setup> (importing this module is the side effect).
import { SvcChannelSetup } from './svc-channel-setup.js';

SvcChannelSetup.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-channel-setup': SvcChannelSetup;
  }
}
