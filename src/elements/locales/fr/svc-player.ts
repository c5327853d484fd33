// French strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: 'Chargement de la vidéo…',
  unavailable: 'Cette vidéo n’est pas disponible.',
  failed: 'La vidéo n’a pas pu être chargée. Veuillez réessayer plus tard.',
  title: 'Lecteur vidéo',
  play: 'Lire la vidéo',
  playTitle: 'Lire « {title} »',
} satisfies SvcPlayerStrings;
