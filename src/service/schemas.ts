// Runtime schemas of the service's resources and requests. The emulator validates requests with
// them and the tests check its answers; the relay reads upstream answers with the tolerant `*Read`
// schemas at the bottom, which check only what the relay uses. Types in types.ts are the source;
// the `satisfies`-style checks keep the two from drifting apart.
import { z } from 'zod';
import {
  REGIONS,
  RENDITION_COUNT,
  UPLOAD_SIGNATURE_FIELDS,
  type Channel,
  type ChannelCreateRequest,
  type EmbedCodeResponse,
  type Playlist,
  type PlaylistCreateRequest,
  type PlaylistUpdateItem,
  type UploadCallbackPayload,
  type UploadSignature,
  type VodCreateRequest,
} from './types.js';

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

export const vodCreateRequest = z.object({
  source: z.string().min(1).max(1024),
  upload_type: z.string().min(1).max(64),
  callback_url: httpUrl,
});

/** The nine fields of the seed, plus any further string fields (forwarded in the order received). */
export const uploadSignature = z
  .object(
    Object.fromEntries(UPLOAD_SIGNATURE_FIELDS.map((name) => [name, z.string()])) as Record<
      (typeof UPLOAD_SIGNATURE_FIELDS)[number],
      z.ZodString
    >,
  )
  .catchall(z.string());

export const uploadCallbackPayload = z.object({
  file_id: z.string().min(1),
  title: z.string(),
});

export const playlistCreateRequest = z.object({
  title: z.string().min(1).max(255),
  description: z.string().max(5000),
});

const playlistContentItem = z.object({
  id: z.string(),
  position: z.string(),
  thumbnail_id: z.string(),
  title: z.string(),
  type: z.enum(['vod', 'channel']).optional(),
});

export const playlistUpdateItem = z.object({
  id: z.string().min(1),
  type: z.enum(['vod', 'channel']),
  position: z.string().regex(/^[1-9][0-9]*$/),
});

const pictures = <T extends z.ZodType>(item: T) => z.object({ splashscreen: item, thumbnail: item });
const record = z.record(z.string(), z.unknown());

export const playlist = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  content: z.object({ list: z.array(playlistContentItem).nullable(), start_time: z.string() }),
  ads: record.nullable(),
  company_url: z.string().nullable(),
  countdown_date: z.string().nullable(),
  countdown_timezone: z.string(),
  counter_live_limit: z.number().int(),
  countries_id: z.string(),
  creation_date: z.string(),
  save_date: z.string(),
  custom_data: record.nullable(),
  enable_payperview: z.boolean(),
  enable_subscription: z.boolean(),
  external_video_page: z.string(),
  google_analytics: z.string(),
  logo_url: z.string().nullable(),
  noframe_security: z.number().int(),
  password: z.string().nullable(),
  pictures: pictures(z.array(z.unknown()).nullable()),
  player_height: z.number().int(),
  player_width: z.number().int(),
  player_size_id: z.number().int(),
  publish_on_service: z.boolean(),
  stream_category: z.number().int(),
});

export const channelCreateRequest = z.object({
  title: z.string().min(1).max(255),
  description: z.string().max(5000),
  region: z.enum(REGIONS),
  rendition_count: z.number().int().min(RENDITION_COUNT.min).max(RENDITION_COUNT.max),
});

const channelConfig = z.object({
  publishing_point_primary: z.string(),
  publishing_point_backup: z.string().nullable(),
  login: z.string(),
  password: z.string(),
  stream_name: z.string(),
  live_transcoding: z.boolean(),
  publishing_point_type: z.string().nullable(),
});

export const channel = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  ads: record.nullable(),
  associated_packages: z.string(),
  category_id: z.number().int(),
  company_url: z.string().nullable(),
  config: channelConfig,
  countdown_date: z.string().nullable(),
  countdown_timezone: z.string().nullable(),
  counter_live_limit: z.number().int(),
  countries_id: z.number().int(),
  creation_date: z.string(),
  save_date: z.string(),
  custom_data: record.nullable(),
  enable_coupon: z.boolean(),
  enable_payperview: z.boolean(),
  enable_subscription: z.boolean(),
  external_video_page: z.string(),
  google_analytics: z.number().int(),
  hds: z.string(),
  hls: z.string(),
  is_secure: z.number().int(),
  live_recording_enabled: z.boolean(),
  noframe_security: z.number().int(),
  online: z.boolean(),
  password: z.string().nullable(),
  pictures: pictures(z.array(z.unknown())),
  player_height: z.number().int(),
  player_width: z.number().int(),
  player_size_id: z.number().int(),
  publish_on_service: z.boolean(),
  referers_id: z.number().int(),
  rtmp: z.string().nullable(),
  schedule: record.nullable(),
  share_code: z.object({ facebook: z.string(), gplus: z.string(), twitter: z.string() }),
  splashscreen_id: z.number().int(),
  thumbnail_id: z.number().int(),
  stream_tech: z.string(),
  theme_id: z.string(),
  web_dvr: z.number().int(),
});

export const embedCodeResponse = z.object({ code: z.string() });

// What the relay reads from upstream answers: only what it uses, everything else passed through.
// Ids may come as numbers (made strings); `content.list` may be a JSON-encoded string.

const serviceId = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);
const text = z.string().nullish();

const playlistItemRead = z.looseObject({
  id: serviceId,
  position: z.union([z.string(), z.number()]).nullish(),
  title: text,
  type: z.unknown().optional(),
});

/** `content.list`: an array, null, or the same array as a JSON string ("" and "null" mean empty). */
const playlistListRead = z.preprocess((value) => {
  if (typeof value !== 'string') return value ?? null;
  if (value.trim() === '') return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, z.array(playlistItemRead).nullable());

export const playlistRead = z.looseObject({
  id: serviceId,
  title: text,
  save_date: text,
  content: z.looseObject({ list: playlistListRead.optional() }).nullish(),
});

/** The channel fields the channel panel shows; checked softly (a created channel is never refused). */
export const channelConfigRead = z.looseObject({
  publishing_point_primary: z.string(),
  publishing_point_backup: text,
  login: z.string(),
  password: z.string(),
  stream_name: z.string(),
});

export const channelRead = z.looseObject({ id: serviceId, title: text });

// Compile-time checks: each schema's output is exactly its seed type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <T extends true>() => undefined as unknown as T;
void [
  same<Same<z.infer<typeof vodCreateRequest>, VodCreateRequest>>(),
  same<Same<z.infer<typeof uploadSignature>, UploadSignature>>(),
  same<Same<z.infer<typeof uploadCallbackPayload>, UploadCallbackPayload>>(),
  same<Same<z.infer<typeof playlistCreateRequest>, PlaylistCreateRequest>>(),
  same<Same<z.infer<typeof playlistUpdateItem>, PlaylistUpdateItem>>(),
  same<Same<z.infer<typeof playlist>, Playlist>>(),
  same<Same<z.infer<typeof channelCreateRequest>, ChannelCreateRequest>>(),
  same<Same<z.infer<typeof channel>, Channel>>(),
  same<Same<z.infer<typeof embedCodeResponse>, EmbedCodeResponse>>(),
];
