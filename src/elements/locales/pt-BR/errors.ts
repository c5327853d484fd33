// Brazilian Portuguese: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: 'Alguns valores não são válidos.',
  unauthorized: 'Você não está conectado ou sua sessão expirou. Entre novamente.',
  forbidden: 'Você não tem permissão para fazer isso.',
  not_found: 'Não existe ou não é seu.',
  conflict: 'Outra pessoa alterou isso nesse meio-tempo.',
  payload_too_large: 'É maior do que o serviço aceita.',
  unsupported_media_type: 'Este tipo de arquivo não é aceito.',
  rate_limited: 'Solicitações demais. Aguarde um momento e tente novamente.',
  upstream_unavailable: 'O serviço de vídeo não está disponível agora. Tente mais tarde.',
  upstream_timeout: 'O serviço de vídeo demorou demais para responder. Tente novamente.',
  upstream_rejected: 'O serviço de vídeo recusou a solicitação.',
  upstream_credentials: 'A conexão deste site com o serviço de vídeo não está configurada corretamente.',
  internal: 'Algo deu errado.',
  network_error: 'A conexão falhou. Verifique sua conexão e tente novamente.',
  relay_unreachable: 'Não é possível acessar o servidor. Tente mais tarde.',
  origin_not_allowed: 'Esta página não tem permissão para usar o servidor.',
  aborted: 'Cancelado.',
  embed_rejected: 'O player foi recusado porque seu código não é seguro.',
  upload_failed: 'O envio falhou.',
  upload_rejected: 'O endereço de envio recusou o arquivo.',
  signature_expired: 'A permissão de envio expirou.',
  file_rejected: 'Este arquivo não pode ser enviado.',
  type_required: 'Escolha um tipo para cada item.',
} satisfies SvcErrorStrings;
