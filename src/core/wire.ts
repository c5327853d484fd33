// The relay's wire contract (ARCHITECTURE.md, "The relay's HTTP API"), in one place for both ends:
// the answers the relay sends and the client reads (snake_case, like the service), the events of
// its stream and why it ends one, and how a callback URL's token is masked wherever a path or an
// upstream text is shown. The relay (src/relay) writes these shapes, core/relay-client.ts and
// core/sse.ts read them. Types only, but for the mask: importing the types costs a bundle nothing.
import type { ContentType, Playlist, PlaylistContentItem, Region } from '../service/types.js';

/** `GET /config`: the public settings the elements need. */
export interface RelayConfig {
  upload_url: string;
  player_origin: string;
  iframe_origins: string[];
  max_upload_bytes: number;
  regions: Region[];
  rendition_count: { min: number; max: number };
}

export type UploadStateName = 'signed' | 'processing' | 'ready' | 'failed';

/** `POST /uploads` (201). */
export interface UploadCreated {
  upload_id: string;
  upload_url: string;
  /** Signature fields in the order the upload address requires. */
  fields: [string, string][];
}

/** `GET /uploads/{id}`, `POST /uploads/{id}/uploaded`. */
export interface UploadState {
  upload_id: string;
  source: string;
  state: UploadStateName;
  vod?: { id: string; title: string };
}

export interface LibraryItem {
  id: string;
  type: ContentType | 'playlist';
  title: string;
  created_at: string;
}

/** `GET /library`, one page. */
export interface Library {
  items: LibraryItem[];
  /** More items follow: `GET /library?cursor=<next_cursor>` (null or absent on the last page). */
  next_cursor?: string | null;
}

/**
 * A content.list item as the relay answers it: `position` always a string, `type` the service's
 * own when it gives one, else what the relay knows, else null (the user must choose).
 */
export type AnnotatedPlaylistItem = Omit<PlaylistContentItem, 'type'> & { type: ContentType | null };

/**
 * A playlist as the relay answers it. Fields the service may leave null are typed so (Playlist);
 * fields the seed does not list are passed through. `pending: true` means the service has not yet
 * shown what was just created or saved through this relay: the answer shows it as created or
 * saved, and the service is still applying it (eventual consistency, docs/real-service.md).
 */
export type AnnotatedPlaylist = Omit<Playlist, 'content'> & {
  content: { list: AnnotatedPlaylistItem[] | null; start_time: string };
  pending?: true;
};

/** A playlist answer: its id, its version (`save_date`) and its content (the client checks every one; a 409's body may be one). */
export function isPlaylist(value: unknown): value is AnnotatedPlaylist {
  const playlist = value as AnnotatedPlaylist | undefined;
  return typeof playlist?.id === 'string' && typeof playlist.save_date === 'string' && typeof playlist.content === 'object' && playlist.content !== null;
}

/** `PUT /playlists/{id}/content`. */
export interface PlaylistContentUpdate {
  items: { id: string; type: ContentType }[];
  base_save_date?: string;
}

/**
 * The `event:` names of `GET /events`: `upload` (data: UploadEvent), `reset` (data: StreamReset,
 * the client's cursor cannot be continued from) and `close` (data: StreamClose, the last one).
 */
export type StreamEventName = 'upload' | 'reset' | 'close';

/** One event of `GET /events` (SSE `event: upload`, `data` is this JSON). */
export type UploadEvent = UploadState;

/** The data of `event: reset`: the caller's own newest event id, where its cursor stands now. */
export interface StreamReset {
  last_event_id: number;
}

/**
 * Why the relay ends a stream (`event: close`): too many streams for the user (the oldest goes),
 * the credential that opened it expired, or the relay is closing.
 */
export type StreamCloseReason = 'too_many_streams' | 'token_expired' | 'relay_closing';

/** The data of `event: close`. */
export interface StreamClose {
  reason: StreamCloseReason;
}

/** A callback URL's token in a path or text: `callbacks/upload/<token>`, plain or percent-encoded. */
const CALLBACK_TOKEN = /(callbacks(?:\/|%2f)upload(?:\/|%2f))[A-Za-z0-9_%-]+/gi;

/** `text` with every callback token replaced by `[token]`: the token is the callback's only proof. */
export function maskCallbackTokens(text: string): string {
  return text.replace(CALLBACK_TOKEN, '$1[token]');
}
