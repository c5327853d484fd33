// French (fr): one module, loaded only when a page uses the language.
import type { Translation } from '../translation.js';
import errors from './errors.js';
import channelSetup from './svc-channel-setup.js';
import player from './svc-player.js';
import playlistEditor from './svc-playlist-editor.js';
import uploader from './svc-uploader.js';

export default {
  errors,
  'svc-player': player,
  'svc-uploader': uploader,
  'svc-playlist-editor': playlistEditor,
  'svc-channel-setup': channelSetup,
} satisfies Translation;
