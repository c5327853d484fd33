// The seed's playlist and channel resources with the defaults the local service gives them.
import { randomBytes } from 'node:crypto';
import type {
  Channel,
  ChannelCreateRequest,
  Playlist,
  PlaylistContentItem,
  PlaylistCreateRequest,
  Region,
} from '../service/types.js';
import { contentId } from './embed.js';
import type { PlaylistRecord, Store } from './store.js';

/** Observed in public clients: nulls where the seed shows strings, and fields the seed does not list. */
export function observedPlaylist(playlist: Playlist): Playlist {
  return {
    ...playlist,
    description: playlist.description || null,
    password: null,
    countdown_date: null,
    asset_id: playlist.id,
    autoplay: false,
  } as Playlist;
}

export function observedChannel(channel: Channel): Channel {
  return { ...channel, asset_id: channel.id, online_since: null, live_dvr_enabled: false, channel_type: 'live' } as Channel;
}

export function newPlaylist(id: string, input: PlaylistCreateRequest, now: string): Playlist {
  return {
    id,
    title: input.title,
    description: input.description,
    content: { list: null, start_time: '00:00:00' },
    ads: null,
    company_url: null,
    countdown_date: '',
    countdown_timezone: 'UTC',
    counter_live_limit: -1,
    countries_id: '',
    creation_date: now,
    save_date: now,
    custom_data: null,
    enable_payperview: false,
    enable_subscription: false,
    external_video_page: '',
    google_analytics: '',
    logo_url: null,
    noframe_security: 0,
    password: '',
    pictures: { splashscreen: null, thumbnail: null },
    player_height: 360,
    player_width: 640,
    player_size_id: 1,
    publish_on_service: false,
    stream_category: 0,
  };
}

/**
 * The playlist as operation 4 returns it: content.list derived from the entries shown now (an
 * older state while `stale` lasts). Observed in public clients: items carry their `type`.
 */
export function playlistView(record: PlaylistRecord, store: Store, observed = false, now = Date.now()): Playlist {
  const shown = record.stale && now < record.stale.until ? record.stale : record;
  const list: PlaylistContentItem[] = shown.entries.map((entry, index) => ({
    id: entry.id,
    position: String(index + 1),
    thumbnail_id: '',
    title:
      entry.type === 'vod'
        ? (store.vods.get(entry.id)?.title ?? '')
        : (store.channels.get(entry.id)?.channel.title ?? ''),
    ...(observed ? { type: entry.type } : {}),
  }));
  return {
    ...shown.playlist,
    content: { ...shown.playlist.content, list: list.length ? list : null },
  };
}

/** Ingest hosts per region; the primary and backup differ, and so does every region. */
const INGEST: Record<Region, string> = { north_america: 'na', asia_pacific: 'ap', europe: 'eu' };

export function newChannel(
  id: string,
  input: ChannelCreateRequest,
  context: { accountId: string; playerUrl: string; ingestDomain: string; now: string },
): Channel {
  const cid = contentId(context.accountId, 'channel', id);
  const region = INGEST[input.region];
  const ingest = (n: number) => `rtmp://ingest-${region}-${n}.${context.ingestDomain}:1935/live`;
  const share = `${context.playerUrl}/embed/${encodeURIComponent(cid)}`;
  return {
    id,
    title: input.title,
    description: input.description,
    ads: null,
    associated_packages: '',
    category_id: 0,
    company_url: null,
    config: {
      publishing_point_primary: ingest(1),
      publishing_point_backup: ingest(2),
      login: `live${id}`,
      password: randomBytes(12).toString('base64url'),
      stream_name: `${cid}_${randomBytes(10).toString('hex')}`,
      live_transcoding: input.rendition_count > 1,
      publishing_point_type: null,
    },
    countdown_date: null,
    countdown_timezone: null,
    counter_live_limit: -1,
    countries_id: 0,
    creation_date: context.now,
    save_date: context.now,
    custom_data: null,
    enable_coupon: false,
    enable_payperview: false,
    enable_subscription: false,
    external_video_page: '',
    google_analytics: 0,
    hds: `${context.playerUrl}/live/${encodeURIComponent(cid)}/manifest.f4m`,
    hls: `${context.playerUrl}/live/${encodeURIComponent(cid)}/playlist.m3u8`,
    is_secure: 0,
    live_recording_enabled: false,
    noframe_security: 0,
    online: false,
    password: null,
    pictures: { splashscreen: [], thumbnail: [] },
    player_height: 360,
    player_width: 640,
    player_size_id: 1,
    publish_on_service: false,
    referers_id: 0,
    rtmp: null,
    schedule: null,
    share_code: { facebook: share, gplus: share, twitter: share },
    splashscreen_id: 0,
    thumbnail_id: 0,
    stream_tech: 'rtmp',
    theme_id: '0',
    web_dvr: 0,
  };
}
