// The viewer's language for <svc-player>: created by whichever lazy chunk loads first (the play
// button's or the player's), so that the strings controller adds nothing to the first paint.
import type { ReactiveElement } from 'lit';
import { Localized, type StringsOverride } from '../shared/strings.js';
import type { firstStrings } from './first-strings.js';
import { laterStrings } from './later-strings.js';
import type { SvcPlayerStrings } from './strings.js';

/** `first`: the element's first-paint strings (it has them: importing them here would make a chunk of its own). */
export const localize = (host: ReactiveElement & { strings?: StringsOverride<SvcPlayerStrings> }, first: typeof firstStrings) =>
  new Localized(host, 'svc-player', { ...first, ...laterStrings });
