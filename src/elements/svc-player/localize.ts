// The viewer's language for <svc-player>: created by whichever lazy chunk loads first (the play
// button's or the player's), so that the strings controller adds nothing to the first paint.
import type { ReactiveElement } from 'lit';
import { Localized, type StringsOverride } from '../shared/strings.js';
import type { SvcPlayerStrings } from './strings.js';

export const localize = (host: ReactiveElement & { strings?: StringsOverride<SvcPlayerStrings> }, defaults: SvcPlayerStrings) =>
  new Localized(host, 'svc-player', defaults);
