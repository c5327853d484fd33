// Typed client of the relay's HTTP API (ARCHITECTURE.md, "The relay's HTTP API"; its shapes in
// wire.ts). DOM-free: it needs only `fetch`, so it runs in browsers, Node and workers.
import { SvcError, isErrorCode, networkError, retryAfterSeconds } from './errors.js';
import { shareAnswer, takeAhead } from './fetch-ahead.js';
import { RELAY_ID, embedPath } from './relay-url.js';
import type { Channel, ChannelCreateRequest, EmbedCodeResponse, EmbedKind, EmbedVariant, PlaylistCreateRequest } from '../service/types.js';
import { isPlaylist, type AnnotatedPlaylist, type Library, type LibraryItem, type PlaylistContentUpdate, type RelayConfig, type UploadCreated, type UploadState } from './wire.js';

// The answers' types are the wire contract's (wire.ts); the client's users take them from here too.
export type {
  AnnotatedPlaylist,
  AnnotatedPlaylistItem,
  Library,
  LibraryItem,
  PlaylistContentUpdate,
  RelayConfig,
  UploadCreated,
  UploadEvent,
  UploadState,
  UploadStateName,
} from './wire.js';

export interface RelayClientOptions {
  /** Base URL of the relay API, e.g. `/svc` or `https://cms.example/svc`. */
  baseUrl?: string;
  /** Returns a bearer token for the caller, when the host page uses header auth. */
  token?: () => string | undefined | Promise<string | undefined>;
  fetch?: typeof fetch;
}

export { relayBaseUrl } from './relay-url.js';

/** `GET /config` answers, one per relay for the whole page (every element and every client share it). */
const configs = new WeakMap<typeof fetch, Map<string, Promise<RelayConfig>>>();

/** The page's `fetch`, one function for every client that brings none (so they share `GET /config`). */
const pageFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

export class RelayClient {
  readonly baseUrl: string;
  readonly #token: RelayClientOptions['token'];
  readonly #fetch: typeof fetch;

  constructor(options: RelayClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '/svc').replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? pageFetch;
  }

  /**
   * The relay's `GET /config`, asked once per relay for the whole page and shared (a failed answer
   * is forgotten, so the next call asks again). `signal` stops only this caller's wait.
   */
  config(signal?: AbortSignal): Promise<RelayConfig> {
    let byRelay = configs.get(this.#fetch);
    if (!byRelay) configs.set(this.#fetch, (byRelay = new Map()));
    let config = byRelay.get(this.baseUrl);
    if (!config) {
      config = this.#public<RelayConfig>('/config').then(checkConfig);
      byRelay.set(this.baseUrl, config);
      config.catch(() => byRelay.delete(this.baseUrl));
      // The page has it now: a play button does not ask for it ahead (fetch-ahead.ts).
      if (this.#fetch === pageFetch) shareAnswer(this.url('/config'), config);
    }
    if (!signal) return config;
    return new Promise((resolve, reject) => {
      const abort = () => reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      config.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  }

  /** Signs an upload; `size` is the real `File.size` (the relay refuses claims above its limits). */
  createUpload(body: { source: string; size: number; type?: string }, signal?: AbortSignal): Promise<UploadCreated> {
    return this.request('POST', '/uploads', body, signal);
  }

  async markUploaded(uploadId: string, signal?: AbortSignal): Promise<UploadState> {
    return this.request('POST', `/uploads/${segment(uploadId)}/uploaded`, {}, signal);
  }

  async upload(uploadId: string, signal?: AbortSignal): Promise<UploadState> {
    return this.request('GET', `/uploads/${segment(uploadId)}`, undefined, signal);
  }

  /** The caller's whole library: every page of `GET /library`, following `next_cursor`. */
  async library(signal?: AbortSignal): Promise<Library> {
    const items: LibraryItem[] = [];
    for (let cursor: string | null | undefined; ; ) {
      const page = await this.request<Library>('GET', cursor ? `/library?cursor=${encodeURIComponent(cursor)}` : '/library', undefined, signal);
      items.push(...page.items);
      cursor = page.next_cursor;
      if (!cursor) return { items };
    }
  }

  createPlaylist(body: PlaylistCreateRequest, signal?: AbortSignal): Promise<AnnotatedPlaylist> {
    return this.request<AnnotatedPlaylist>('POST', '/playlists', body, signal).then(checkPlaylist);
  }

  async playlist(id: string, signal?: AbortSignal): Promise<AnnotatedPlaylist> {
    return this.request<AnnotatedPlaylist>('GET', `/playlists/${segment(id)}`, undefined, signal).then(checkPlaylist);
  }

  /**
   * Replaces the whole list. Rejects with code `conflict` when stale; the error's `body` is then
   * the current playlist when the relay sent one (`isPlaylist` of wire.ts tells).
   */
  async savePlaylistContent(id: string, body: PlaylistContentUpdate, signal?: AbortSignal): Promise<AnnotatedPlaylist> {
    return this.request<AnnotatedPlaylist>('PUT', `/playlists/${segment(id)}/content`, body, signal).then(checkPlaylist);
  }

  /** Creates a live channel; the answer always carries its ingest settings. */
  createChannel(body: ChannelCreateRequest, signal?: AbortSignal): Promise<Channel> {
    return this.request<Channel>('POST', '/channels', body, signal).then(checkChannel);
  }

  /**
   * The embed code (entity-escaped, as the service returns it); a public GET like `config()`. Here
   * as in every call naming an id, one the relay would refuse is refused before anything is sent.
   */
  embed(kind: EmbedKind, id: string, variant: EmbedVariant, signal?: AbortSignal): Promise<EmbedCodeResponse> {
    const path = embedPath(kind, id, variant);
    if (!path) return Promise.reject(refusedId(id));
    return this.#public<EmbedCodeResponse>(path, signal).then(checkEmbed);
  }

  /** Headers every relay request carries (auth and the CSRF marker for cookie auth). */
  async headers(): Promise<Record<string, string>> {
    const headers: Record<string, string> = { 'X-Svc-Request': '1' };
    const token = await this.#token?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /** The URL of a relay path, e.g. `url('/events')`. */
  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** `fetch` with the relay's headers; for streaming endpoints such as `/events`. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = { ...(await this.headers()), ...(init.headers as Record<string, string> | undefined) };
    return this.#fetch(this.url(path), { credentials: 'include', ...init, headers });
  }

  async request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return this.#answer<T>(
      this.fetch(path, {
        method,
        signal,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
      }),
    );
  }

  /**
   * A GET of a public route (`/config`, `/embed/…`): no custom headers and the default credentials
   * (none to another origin), so that from a page on another origin it is a simple, cacheable
   * request with no preflight (a player on a public page needs no identity). The page's own fetch
   * takes the answer of the same request sent ahead by the script-tag loader's play button
   * (fetch-ahead.ts), if there is one.
   */
  #public<T>(path: string, signal?: AbortSignal): Promise<T> {
    const url = this.url(path);
    return this.#answer<T>((this.#fetch === pageFetch && takeAhead(url, signal)) || this.#fetch(url, { signal }));
  }

  /** The JSON of a relay answer; `{error: {code, message}}` answers and failed fetches as SvcErrors. */
  async #answer<T>(sent: Promise<Response>): Promise<T> {
    let response: Response;
    try {
      response = await sent;
    } catch (error) {
      // Loaded on this rare path only; when even that fails (offline), the failure stays a network error.
      throw await import('./fetch-failure.js').then(
        ({ explainFetchFailure }) => explainFetchFailure(this.url('/config'), error, this.#fetch),
        () => networkError(error),
      );
    }
    const data: unknown = await response.json().catch(() => undefined);
    if (response.ok) return data as T;
    throw errorFromResponse(response.status, data, retryAfterSeconds(response.headers.get('retry-after')));
  }
}

const refusedId = (id: string) => new SvcError('validation_failed', `Invalid id "${id}": it must be 1 to 128 letters, digits, "-" or "_".`);

/**
 * `id` as a segment of a relay path; throws (validation_failed) for one the relay would refuse, before
 * anything is sent: a `..` would leave the route (a URL drops dot segments).
 */
function segment(id: string): string {
  if (!RELAY_ID.test(id)) throw refusedId(id);
  return id;
}

/**
 * `GET /config` as the elements use it: each field they read, when present, has its type (a relay
 * without one of them leaves that element on its default: the seed's regions, no size limit, no
 * player); anything else is passed through.
 */
function checkConfig(config: RelayConfig): RelayConfig {
  const range = config?.rendition_count;
  const problems = [
    typeof config !== 'object' || config === null,
    config?.player_origin !== undefined && typeof config.player_origin !== 'string',
    config?.iframe_origins !== undefined && !(Array.isArray(config.iframe_origins) && config.iframe_origins.every((o) => typeof o === 'string')),
    config?.upload_url !== undefined && typeof config.upload_url !== 'string',
    config?.max_upload_bytes !== undefined && typeof config.max_upload_bytes !== 'number',
    config?.regions !== undefined && !(Array.isArray(config.regions) && config.regions.length > 0 && config.regions.every((r) => typeof r === 'string')),
    range !== undefined && !(Number.isInteger(range?.min) && Number.isInteger(range?.max) && range.min <= range.max),
  ];
  if (problems.some(Boolean)) throw new SvcError('internal', 'The relay answered GET /config with fields of the wrong type.');
  return config;
}

function checkPlaylist(answer: AnnotatedPlaylist): AnnotatedPlaylist {
  if (!isPlaylist(answer)) throw new SvcError('internal', 'The relay answered without the playlist (id, save_date and content).');
  return answer;
}

/** A created channel must carry what its panel shows: anything else is an error, not a blank panel. */
function checkChannel(channel: Channel): Channel {
  const config = channel?.config;
  const texts = [channel?.id, config?.publishing_point_primary, config?.publishing_point_backup ?? '', config?.stream_name, config?.login, config?.password];
  if (!texts.every((text) => typeof text === 'string')) {
    throw new SvcError('upstream_rejected', 'The relay answered without the channel’s ingest settings.');
  }
  return channel;
}

/** An embed answer whose `code` is not text carries no player: refused like a bad code. */
function checkEmbed(answer: EmbedCodeResponse): EmbedCodeResponse {
  if (typeof answer?.code !== 'string') throw new SvcError('embed_rejected', 'The relay answered without an embed code (code is not a string).');
  return answer;
}

function errorFromResponse(status: number, data: unknown, retryAfter?: number): SvcError {
  const error = (data as { error?: { code?: unknown; message?: unknown; fields?: Record<string, string> } })?.error;
  const code = isErrorCode(error?.code) ? error.code : status >= 500 ? 'upstream_unavailable' : 'internal';
  const message =
    typeof error?.message === 'string' ? error.message : `The relay answered ${status} without an explanation.`;
  const current = (data as { current?: unknown })?.current;
  return new SvcError(code, message, status, error?.fields, current ?? data, retryAfter);
}
