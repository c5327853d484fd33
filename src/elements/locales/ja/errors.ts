// Japanese: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: '一部の値が正しくありません。',
  unauthorized: 'サインインしていないか、セッションの有効期限が切れています。もう一度サインインしてください。',
  forbidden: 'この操作は許可されていません。',
  not_found: '存在しないか、あなたのものではありません。',
  conflict: 'その間に他のユーザーが変更しました。',
  payload_too_large: 'サービスが受け付けるサイズを超えています。',
  unsupported_media_type: 'この種類のファイルは受け付けられません。',
  rate_limited: 'リクエストが多すぎます。しばらく待ってからもう一度お試しください。',
  upstream_unavailable: '動画サービスは現在利用できません。後でもう一度お試しください。',
  upstream_timeout: '動画サービスの応答に時間がかかりすぎました。もう一度お試しください。',
  upstream_rejected: '動画サービスがリクエストを拒否しました。',
  upstream_credentials: 'このサイトと動画サービスの接続が正しく設定されていません。',
  internal: '問題が発生しました。',
  network_error: '接続に失敗しました。接続を確認して、もう一度お試しください。',
  relay_unreachable: 'サーバーに接続できません。後でもう一度お試しください。',
  origin_not_allowed: 'このページはサーバーの利用を許可されていません。',
  aborted: 'キャンセルしました。',
  embed_rejected: 'プレーヤーのコードが安全でないため、拒否されました。',
  upload_failed: 'アップロードに失敗しました。',
  upload_rejected: 'アップロード先がファイルを拒否しました。',
  signature_expired: 'アップロードの許可の有効期限が切れました。',
  file_rejected: 'このファイルはアップロードできません。',
  type_required: 'すべての項目の種類を選んでください。',
} satisfies SvcErrorStrings;
