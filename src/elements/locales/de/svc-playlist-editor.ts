// German strings of <svc-playlist-editor>, keyed like its English defaults.
import type { SvcPlaylistEditorStrings } from '../../svc-playlist-editor/strings.js';

const strings: Partial<SvcPlaylistEditorStrings> = {};
export default strings;
