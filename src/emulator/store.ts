// In-memory content of the local service: VODs, playlists and channels of the one account.
// Records hold plain data; the routes shape them into the seed's resources.
import { randomInt } from 'node:crypto';
import type { Channel, ContentType, Playlist } from '../service/types.js';

export type VodStatus = 'awaiting_upload' | 'encoding' | 'ready' | 'failed';

export interface VodRecord {
  id: string;
  /** The `source` of operation 1; the title the callback carries. */
  title: string;
  callbackUrl: string;
  uploadType: string;
  key: string;
  status: VodStatus;
  /** An upload of its form is being received; a second one at the same time is refused. */
  receiving?: boolean;
  /** Path of the uploaded file in the data dir, once uploaded. */
  file?: string;
  size?: number;
  createdAt: string;
}

export interface PlaylistEntry {
  id: string;
  type: ContentType;
}

export interface PlaylistRecord {
  /** Every field but content.list, which is derived from `entries`. */
  playlist: Playlist;
  entries: PlaylistEntry[];
  /** Eventual consistency (consistencyMs): retrieval answers 404 before this time (epoch ms). */
  visibleAt?: number;
  /** Eventual consistency: until `until`, retrieval (and the update's answer) still shows this older state. */
  stale?: { playlist: Playlist; entries: PlaylistEntry[]; until: number };
}

export interface ChannelRecord {
  channel: Channel;
  /** Fixed at creation: the seed says it can never change. */
  renditionCount: number;
}

export class Store {
  readonly vods = new Map<string, VodRecord>();
  readonly playlists = new Map<string, PlaylistRecord>();
  readonly channels = new Map<string, ChannelRecord>();
  /** Files posted to keys that belong to no VOD (e.g. forms signed by an AWS SDK): stored only. */
  readonly objects = new Map<string, { file: string; size: number }>();
  /** Ids of content of another account (control API): the observed profile answers 403 for them. */
  readonly foreign = new Map<string, 'vod' | 'channel' | 'playlist'>();
  /** Random start so ids of two runs rarely collide in a client's own database. */
  #nextId = randomInt(100_000, 900_000) * 10;
  #lastSave = 0;

  newId(): string {
    return String(this.#nextId++);
  }

  /** An ISO 8601 timestamp strictly later than every earlier one, so save_date always moves. */
  timestamp(): string {
    this.#lastSave = Math.max(Date.now(), this.#lastSave + 1);
    return new Date(this.#lastSave).toISOString();
  }

  vodByKey(key: string): VodRecord | undefined {
    const match = /^vod\/([^/]+)\/none\/([^/]+)$/.exec(key);
    if (!match || match[1] !== match[2]) return undefined;
    const vod = this.vods.get(match[1]!);
    return vod?.key === key ? vod : undefined;
  }
}
