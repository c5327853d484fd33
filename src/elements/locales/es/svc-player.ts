// Spanish strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: 'Cargando el vídeo…',
  unavailable: 'Este vídeo no está disponible.',
  failed: 'No se ha podido cargar el vídeo. Inténtalo de nuevo más tarde.',
  title: 'Reproductor de vídeo',
  play: 'Reproducir vídeo',
  playTitle: 'Reproducir «{title}»',
} satisfies SvcPlayerStrings;
