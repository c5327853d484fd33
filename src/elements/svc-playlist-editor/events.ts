// The details of the events <svc-playlist-editor> fires (all bubbling and composed).
import type { PlaylistChangeKind, PlaylistEntry } from '../../core/playlist-model.js';
import type { AnnotatedPlaylist } from '../../core/relay-client.js';
import type { ContentType } from '../../service/types.js';
import type { SvcErrorDetail } from '../shared/events.js';

export interface PlaylistEventDetail {
  playlistId: string;
  playlist: AnnotatedPlaylist;
}

export interface PlaylistChangeDetail {
  playlistId: string;
  kind: PlaylistChangeKind;
  items: PlaylistEntry[];
  dirty: boolean;
}

export interface PlaylistSaveDetail extends PlaylistEventDetail {
  /** What was sent, in order. */
  items: { id: string; type: ContentType }[];
  /** True when the user chose to overwrite someone else's version. */
  overwrite: boolean;
}

export interface PlaylistConflictDetail {
  playlistId: string;
  /** Their version, as the relay returned it with the 409. */
  current: AnnotatedPlaylist;
  /** Mine, unsaved. */
  items: PlaylistEntry[];
}

/** `svc-error` detail of this element: the shared `{code, message}` plus the playlist, when known. */
export interface PlaylistErrorDetail extends SvcErrorDetail {
  playlistId: string | null;
}

declare global {
  interface HTMLElementEventMap {
    'svc-playlist-load': CustomEvent<PlaylistEventDetail>;
    'svc-playlist-create': CustomEvent<PlaylistEventDetail>;
    'svc-playlist-change': CustomEvent<PlaylistChangeDetail>;
    'svc-playlist-save': CustomEvent<PlaylistSaveDetail>;
    'svc-playlist-conflict': CustomEvent<PlaylistConflictDetail>;
  }
}
