// Japanese strings of <svc-channel-setup>, keyed like its English defaults.
import type { SvcChannelSetupStrings } from '../../svc-channel-setup/strings.js';

const strings: Partial<SvcChannelSetupStrings> = {};
export default strings;
