// Registers every tag: <svc-player>, <svc-uploader>, <svc-playlist-editor>, <svc-channel-setup>.
// This is the entry of the script-tag bundle dist/svc-elements.js.
import './svc-player/define.js';
import './svc-uploader/define.js';
import './svc-playlist-editor/define.js';
import './svc-channel-setup/define.js';

export * from './index.js';
