// Registers <svc-playlist-editor>. Importing this module defines the tag; the class module does not.
import { SvcPlaylistEditor } from './svc-playlist-editor.js';

SvcPlaylistEditor.define();

declare global {
  interface HTMLElementTagNameMap {
    'svc-playlist-editor': SvcPlaylistEditor;
  }
}

export { SvcPlaylistEditor };
