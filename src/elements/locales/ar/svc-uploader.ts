// Arabic strings of <svc-uploader>, keyed like its English defaults.
import type { SvcUploaderStrings } from '../../svc-uploader/strings.js';

const strings: Partial<SvcUploaderStrings> = {};
export default strings;
