// Registers every tag: <svc-player>, <svc-uploader>, <svc-playlist-editor>, <svc-channel-setup>.
// Bundler users import it (`svc-elements/define`); the script tag loads src/elements/loader.ts instead,
// which imports each define module when its tag appears.
import './svc-player/define.js';
import './svc-uploader/define.js';
import './svc-playlist-editor/define.js';
import './svc-channel-setup/define.js';

export * from './index.js';
