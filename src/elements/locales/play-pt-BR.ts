// The play button of a click-to-load player in Brazilian Portuguese (pt-BR): in its own small module, so that the
// script-tag loader's button (loader-preview.ts) names itself without the whole of pt-BR.ts, which
// spreads it into its player strings.
import type { PlayButtonStrings } from '../shared/locale.js';

export default {
  play: 'Reproduzir vídeo',
  playTitle: 'Reproduzir “{title}”',
} satisfies PlayButtonStrings;
