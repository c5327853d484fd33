// German: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: 'Einige Werte sind ungültig.',
  unauthorized: 'Sie sind nicht angemeldet oder Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an.',
  forbidden: 'Dazu sind Sie nicht berechtigt.',
  not_found: 'Es existiert nicht oder gehört nicht Ihnen.',
  conflict: 'Jemand anderes hat es inzwischen geändert.',
  payload_too_large: 'Es ist größer, als der Dienst annimmt.',
  unsupported_media_type: 'Dieser Dateityp wird nicht angenommen.',
  rate_limited: 'Zu viele Anfragen. Warten Sie einen Moment und versuchen Sie es erneut.',
  upstream_unavailable: 'Der Videodienst ist gerade nicht verfügbar. Versuchen Sie es später erneut.',
  upstream_timeout: 'Der Videodienst hat zu lange nicht geantwortet. Versuchen Sie es erneut.',
  upstream_rejected: 'Der Videodienst hat die Anfrage abgelehnt.',
  upstream_credentials: 'Die Verbindung dieser Website zum Videodienst ist nicht richtig eingerichtet.',
  internal: 'Etwas ist schiefgelaufen.',
  network_error: 'Die Verbindung ist fehlgeschlagen. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  relay_unreachable: 'Der Server ist nicht erreichbar. Versuchen Sie es später erneut.',
  origin_not_allowed: 'Diese Seite darf den Server nicht verwenden.',
  aborted: 'Abgebrochen.',
  embed_rejected: 'Der Player wurde abgelehnt, weil sein Code nicht sicher ist.',
  upload_failed: 'Der Upload ist fehlgeschlagen.',
  upload_rejected: 'Die Upload-Adresse hat die Datei abgelehnt.',
  signature_expired: 'Die Upload-Berechtigung ist abgelaufen.',
  file_rejected: 'Diese Datei kann nicht hochgeladen werden.',
  type_required: 'Wählen Sie für jedes Element einen Typ.',
} satisfies SvcErrorStrings;
