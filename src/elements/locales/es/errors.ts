// Spanish: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: 'Algunos valores no son válidos.',
  unauthorized: 'No has iniciado sesión o tu sesión ha caducado. Vuelve a iniciar sesión.',
  forbidden: 'No tienes permiso para hacer esto.',
  not_found: 'No existe o no es tuyo.',
  conflict: 'Otra persona lo cambió mientras tanto.',
  payload_too_large: 'Es más grande de lo que acepta el servicio.',
  unsupported_media_type: 'Este tipo de archivo no se acepta.',
  rate_limited: 'Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.',
  upstream_unavailable: 'El servicio de vídeo no está disponible ahora. Inténtalo más tarde.',
  upstream_timeout: 'El servicio de vídeo tardó demasiado en responder. Vuelve a intentarlo.',
  upstream_rejected: 'El servicio de vídeo rechazó la solicitud.',
  upstream_credentials: 'La conexión de este sitio con el servicio de vídeo no está bien configurada.',
  internal: 'Algo salió mal.',
  network_error: 'La conexión falló. Comprueba tu conexión y vuelve a intentarlo.',
  relay_unreachable: 'No se puede acceder al servidor. Inténtalo más tarde.',
  origin_not_allowed: 'Esta página no tiene permiso para usar el servidor.',
  aborted: 'Cancelado.',
  embed_rejected: 'Se rechazó el reproductor porque su código no es seguro.',
  upload_failed: 'La subida falló.',
  upload_rejected: 'La dirección de subida rechazó el archivo.',
  signature_expired: 'El permiso de subida caducó.',
  file_rejected: 'Este archivo no se puede subir.',
  type_required: 'Elige un tipo para cada elemento.',
} satisfies SvcErrorStrings;
