// The shape of one language's module: the error messages and each element's strings, keyed like
// the English defaults. Each element's part is checked complete with `satisfies` in its own file.
import type { SvcErrorStrings } from '../shared/strings.js';
import type { SvcChannelSetupStrings } from '../svc-channel-setup/strings.js';
import type { SvcPlayerStrings } from '../svc-player/strings.js';
import type { SvcPlaylistEditorStrings } from '../svc-playlist-editor/strings.js';
import type { SvcUploaderStrings } from '../svc-uploader/strings.js';

export interface Translation {
  errors: SvcErrorStrings;
  'svc-player': Partial<SvcPlayerStrings>;
  'svc-uploader': Partial<SvcUploaderStrings>;
  'svc-playlist-editor': Partial<SvcPlaylistEditorStrings>;
  'svc-channel-setup': Partial<SvcChannelSetupStrings>;
}
