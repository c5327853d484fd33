// French: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: 'Certaines valeurs ne sont pas valides.',
  unauthorized: 'Vous n’êtes pas connecté, ou votre session a expiré. Reconnectez-vous.',
  forbidden: 'Vous n’êtes pas autorisé à faire cela.',
  not_found: 'Cet élément n’existe pas, ou il ne vous appartient pas.',
  conflict: 'Quelqu’un d’autre l’a modifié entre-temps.',
  payload_too_large: 'C’est plus volumineux que ce que le service accepte.',
  unsupported_media_type: 'Ce type de fichier n’est pas accepté.',
  rate_limited: 'Trop de requêtes. Patientez un instant puis réessayez.',
  upstream_unavailable: 'Le service vidéo n’est pas disponible pour le moment. Réessayez plus tard.',
  upstream_timeout: 'Le service vidéo a mis trop de temps à répondre. Réessayez.',
  upstream_rejected: 'Le service vidéo a refusé la demande.',
  upstream_credentials: 'La connexion de ce site au service vidéo est mal configurée.',
  internal: 'Une erreur s’est produite.',
  network_error: 'La connexion a échoué. Vérifiez votre connexion et réessayez.',
  relay_unreachable: 'Le serveur est injoignable. Réessayez plus tard.',
  origin_not_allowed: 'Cette page n’est pas autorisée à utiliser le serveur.',
  aborted: 'Annulé.',
  embed_rejected: 'Le lecteur a été refusé car son code n’est pas sûr.',
  upload_failed: 'L’envoi a échoué.',
  upload_rejected: 'L’adresse d’envoi a refusé le fichier.',
  signature_expired: 'L’autorisation d’envoi a expiré.',
  file_rejected: 'Ce fichier ne peut pas être envoyé.',
  type_required: 'Choisissez un type pour chaque élément.',
} satisfies SvcErrorStrings;
