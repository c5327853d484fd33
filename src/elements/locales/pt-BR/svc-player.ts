// Brazilian Portuguese strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: 'Carregando o vídeo…',
  unavailable: 'Este vídeo não está disponível.',
  failed: 'Não foi possível carregar o vídeo. Tente novamente mais tarde.',
  title: 'Player de vídeo',
  play: 'Reproduzir vídeo',
  playTitle: 'Reproduzir “{title}”',
} satisfies SvcPlayerStrings;
