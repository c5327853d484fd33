// The play button of a click-to-load player in Spanish (es): in its own small module, so that the
// script-tag loader's button (loader-preview.ts) names itself without the whole of es.ts, which
// spreads it into its player strings.
import type { PlayButtonStrings } from '../shared/locale.js';

export default {
  play: 'Reproducir vídeo',
  playTitle: 'Reproducir «{title}»',
} satisfies PlayButtonStrings;
