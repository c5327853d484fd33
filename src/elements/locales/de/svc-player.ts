// German strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: 'Video wird geladen…',
  unavailable: 'Dieses Video ist nicht verfügbar.',
  failed: 'Das Video konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
  title: 'Videoplayer',
  play: 'Video abspielen',
  playTitle: '„{title}“ abspielen',
} satisfies SvcPlayerStrings;
