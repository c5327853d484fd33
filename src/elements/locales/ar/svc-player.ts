// Arabic strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

const strings: Partial<SvcPlayerStrings> = {};
export default strings;
