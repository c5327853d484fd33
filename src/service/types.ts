// Types of the service's resources and requests as the seed describes them
// (../shared/seed/000_41d5611da20a8535.txt), widened where the service's public clients show it
// doing more (docs/real-service.md): more fields are nullable, objects carry fields the seed does
// not list, and the signature can carry more than nine fields. Runtime schemas are in schemas.ts.

/** The nine upload-signature fields, in the order the upload address requires them. */
export const UPLOAD_SIGNATURE_FIELDS = [
  'acl',
  'bucket',
  'key',
  'policy',
  'success_action_status',
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-signature',
] as const;

type UploadSignatureField = (typeof UPLOAD_SIGNATURE_FIELDS)[number];

/**
 * Response of operation 1 (POST /v2/vod). Every value is a string; key order is significant. It
 * can carry more than the nine fields (observed: `x-amz-security-token` with temporary
 * credentials); every field is forwarded in the order received.
 */
export type UploadSignature = Record<UploadSignatureField, string> & Record<string, string>;

/** Operation 1 request body. */
export interface VodCreateRequest {
  source: string;
  upload_type: string;
  callback_url: string;
}

/** The upload-completion callback: multipart/form-data with these two text parts. */
export interface UploadCallbackPayload {
  file_id: string;
  title: string;
}

interface Pictures<T> {
  splashscreen: T;
  thumbnail: T;
}

/** An item of content.list as retrieved. */
export interface PlaylistContentItem {
  id: string;
  /** 1-based order number, as a string (the relay turns a numeric one into a string). */
  position: string;
  thumbnail_id: string;
  title: string;
  /** Observed in public clients: the service gives the item's type. Absent in the seed. */
  type?: ContentType;
}

export type ContentType = 'vod' | 'channel';

/** An item of the array that replaces a playlist's content. */
export interface PlaylistUpdateItem {
  id: string;
  type: ContentType;
  position: string;
}

/**
 * Observed in public clients: fields the seed shows as strings can be null, and the object carries
 * fields the seed does not list (asset_id, autoplay, ...); the relay passes them through.
 */
export interface Playlist {
  id: string;
  title: string;
  description: string | null;
  content: { list: PlaylistContentItem[] | null; start_time: string };
  ads: Record<string, unknown> | null;
  company_url: string | null;
  countdown_date: string | null;
  countdown_timezone: string;
  counter_live_limit: number;
  countries_id: string;
  creation_date: string;
  save_date: string;
  custom_data: Record<string, unknown> | null;
  enable_payperview: boolean;
  enable_subscription: boolean;
  external_video_page: string;
  google_analytics: string;
  logo_url: string | null;
  noframe_security: number;
  password: string | null;
  pictures: Pictures<unknown[] | null>;
  player_height: number;
  player_width: number;
  player_size_id: number;
  publish_on_service: boolean;
  stream_category: number;
}

/** Operation 3 request body. */
export interface PlaylistCreateRequest {
  title: string;
  description: string;
}

export const REGIONS = ['north_america', 'asia_pacific', 'europe'] as const;
export type Region = (typeof REGIONS)[number];

export const RENDITION_COUNT = { min: 1, max: 5 } as const;

/** Operation 5 request body. */
export interface ChannelCreateRequest {
  title: string;
  description: string;
  region: Region;
  rendition_count: number;
}

export interface ChannelConfig {
  publishing_point_primary: string;
  /** Observed in public clients: can be null. */
  publishing_point_backup: string | null;
  login: string;
  password: string;
  stream_name: string;
  live_transcoding: boolean;
  publishing_point_type: string | null;
}

/** Observed in public clients: extra fields (online_since, live_dvr_enabled, channel_type, ...). */
export interface Channel {
  id: string;
  title: string;
  description: string;
  ads: Record<string, unknown> | null;
  associated_packages: string;
  category_id: number;
  company_url: string | null;
  config: ChannelConfig;
  countdown_date: string | null;
  countdown_timezone: string | null;
  counter_live_limit: number;
  countries_id: number;
  creation_date: string;
  save_date: string;
  custom_data: Record<string, unknown> | null;
  enable_coupon: boolean;
  enable_payperview: boolean;
  enable_subscription: boolean;
  external_video_page: string;
  google_analytics: number;
  hds: string;
  hls: string;
  is_secure: number;
  live_recording_enabled: boolean;
  noframe_security: number;
  online: boolean;
  password: string | null;
  pictures: Pictures<unknown[]>;
  player_height: number;
  player_width: number;
  player_size_id: number;
  publish_on_service: boolean;
  referers_id: number;
  rtmp: string | null;
  schedule: Record<string, unknown> | null;
  share_code: { facebook: string; gplus: string; twitter: string };
  splashscreen_id: number;
  thumbnail_id: number;
  stream_tech: string;
  theme_id: string;
  web_dvr: number;
}

/** Operations 6 to 11. `code` is HTML escaped as entities. */
export interface EmbedCodeResponse {
  code: string;
}

export const EMBED_KINDS = ['vod', 'channel', 'playlist'] as const;
export type EmbedKind = (typeof EMBED_KINDS)[number];

export const EMBED_VARIANTS = ['javascript', 'iframe'] as const;
export type EmbedVariant = (typeof EMBED_VARIANTS)[number];

/** The segment the service uses in content ids: `<account_id>-<segment>-<id>`. */
export const CONTENT_ID_SEGMENT: Record<EmbedKind, string> = {
  vod: 'vod',
  channel: 'live',
  playlist: 'playlist',
};

/** Headers every API request under {base_url} carries. */
export const API_KEY_HEADER = 'X-Api-Key';
export const FORMAT_HEADER = 'X-Format';
export const FORMAT_VALUE = 'default';

/** Paths of the operations, relative to {base_url}. */
export const paths = {
  vod: () => '/v2/vod',
  /** The seed's paths; observed in public clients: also served as /v2/playlists and /v2/playlists/{id}. */
  playlists: () => '/v2/playlist',
  playlist: (id: string) => `/v2/playlist/${encodeURIComponent(id)}`,
  channels: () => '/v2/channel',
  embed: (kind: EmbedKind, id: string, variant: EmbedVariant) =>
    `/v2/${kind}/${encodeURIComponent(id)}/embed/${variant}`,
  /** Not in the seed: the update the public clients use (the relay's default, SVC_PLAYLIST_UPDATE). */
  playlistContent: (id: string) => `/v2/playlists/${encodeURIComponent(id)}/content`,
};
