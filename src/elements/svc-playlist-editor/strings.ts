// Every visible or announced string of <svc-playlist-editor> in English; the other languages are in
// src/elements/locales/, and the element's `strings` property replaces any of them. `{name}`
// placeholders are filled in by the shared `format`; `{message}` is the viewer's message for the
// error's code, never the relay's English sentence. The strings live in two modules so that a page
// downloads those of the editor only with the editor.
import { editingStrings } from './editing.strings.js';
import { loadingStrings } from './loading.strings.js';

export const defaultStrings = { ...loadingStrings, ...editingStrings };

export type SvcPlaylistEditorStrings = typeof defaultStrings;
export type LoadingStrings = typeof loadingStrings;
