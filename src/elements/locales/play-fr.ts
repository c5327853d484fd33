// The play button of a click-to-load player in French (fr): in its own small module, so that the
// script-tag loader's button (loader-preview.ts) names itself without the whole of fr.ts, which
// spreads it into its player strings.
import type { PlayButtonStrings } from '../shared/locale.js';

export default {
  play: 'Lire la vidéo',
  playTitle: 'Lire « {title} »',
} satisfies PlayButtonStrings;
