// Every visible or announced string of <svc-uploader> in English; the other languages are in
// src/elements/locales/, and the element's `strings` property replaces any of them. `{name}`
// placeholders are filled in by `format`. Kept in two modules so that the first paint carries only
// those it may show (first-strings.ts) and the queue's part the others (later-strings.ts); the
// element itself never imports this one.
import { firstStrings } from './first-strings.js';
import { laterStrings } from './later-strings.js';

export const defaultStrings = { ...firstStrings, ...laterStrings };

export type SvcUploaderStrings = typeof defaultStrings;
