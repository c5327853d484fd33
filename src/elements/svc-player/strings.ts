// What a viewer reads in <svc-player>: short, with no technical detail (that goes to the
// `svc-error` event and the console). The viewer's language replaces them (src/elements/locales/),
// and the element's `strings` property replaces any of them. Kept in two modules so that the first
// paint carries only the two it may show (first-strings.ts) and the lazy chunks the others
// (later-strings.ts); the element itself never imports this one.
import { firstStrings } from './first-strings.js';
import { laterStrings } from './later-strings.js';

/** Every English string of the element. */
export const defaultStrings = { ...firstStrings, ...laterStrings };

export type SvcPlayerStrings = typeof defaultStrings;
