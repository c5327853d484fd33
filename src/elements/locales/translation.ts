// The shape of one language's module (`<locale>.ts`, which ends `satisfies Translation`): the error
// messages and each element's strings, every key of the English defaults, so tsc finds a missing one.
// It names the error codes, not shared/strings.ts (which loads the language modules): no circle.
import type { ErrorCode } from '../../core/errors.js';
import type { SvcChannelSetupStrings } from '../svc-channel-setup/strings.js';
import type { SvcPlayerStrings } from '../svc-player/strings.js';
import type { SvcPlaylistEditorStrings } from '../svc-playlist-editor/strings.js';
import type { SvcUploaderStrings } from '../svc-uploader/strings.js';

export interface Translation {
  /** One message for each code, like shared/strings.ts's `errorStrings`. */
  errors: Record<ErrorCode, string>;
  'svc-player': SvcPlayerStrings;
  'svc-uploader': SvcUploaderStrings;
  'svc-playlist-editor': SvcPlaylistEditorStrings;
  'svc-channel-setup': SvcChannelSetupStrings;
}
