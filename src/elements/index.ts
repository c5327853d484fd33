// Every element class, without registering any tag (no side effect on import). Register them with
// `import 'svc-elements/define'` (all tags) or `import 'svc-elements/svc-player/define'` (one tag),
// or under your own names with `customElements.define('my-player', SvcPlayer)`.
export { SvcPlayer } from './svc-player/svc-player.js';
export { SvcUploader } from './svc-uploader/svc-uploader.js';
export { SvcPlaylistEditor } from './svc-playlist-editor/svc-playlist-editor.js';
export { SvcChannelSetup } from './svc-channel-setup/svc-channel-setup.js';
