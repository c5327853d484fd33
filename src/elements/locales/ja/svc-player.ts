// Japanese strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: '動画を読み込んでいます…',
  unavailable: 'この動画は再生できません。',
  failed: '動画を読み込めませんでした。しばらくしてからもう一度お試しください。',
  title: '動画プレーヤー',
  play: '動画を再生',
  playTitle: '「{title}」を再生',
} satisfies SvcPlayerStrings;
