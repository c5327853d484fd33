// The play button of a click-to-load player in Japanese (ja): in its own small module, so that the
// script-tag loader's button (loader-preview.ts) names itself without the whole of ja.ts, which
// spreads it into its player strings.
import type { PlayButtonStrings } from '../shared/locale.js';

export default {
  play: '動画を再生',
  playTitle: '「{title}」を再生',
} satisfies PlayButtonStrings;
