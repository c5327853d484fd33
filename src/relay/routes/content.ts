// Content the caller owns: playlists (create, read annotated, replace content), channels, library.
// Upstream answers are read tolerantly (only ids, titles, save dates and list items are checked;
// every other field passes through), a create is recorded before anything else can fail, and the
// service's eventual consistency is covered for SVC_CONSISTENCY_WINDOW_MS (docs/relay.md). A save
// (version check, upstream write, its record) holds the playlist's lock in the store, and the
// consistency state lives in the store: every instance on one database sees one truth. An update
// is recorded as in flight before it is sent, so one whose save lost the lock (its instance died)
// cannot overwrite a later save answered 200.
import type { Context, Hono } from 'hono';
import { paths, schemas, type ContentType } from '../../service/index.js';
import type { AnnotatedPlaylist, AnnotatedPlaylistItem, Library } from '../../core/wire.js';
import { HttpError, badRequest, forbidden, notFound } from '../http-error.js';
import { LockBusyError, type ContentRecord, type LibraryCursor, type OwnedType, type PlaylistLock } from '../store/store.js';
import { channelCreate, jsonBody, parse, pathId, playlistContent, playlistCreate } from '../validate.js';
import { callsService, type Deps } from '../deps.js';
import type { AppEnv } from '../request.js';
import { wasUnanswered } from '../upstream.js';
import { delay } from '../../core/timing.js';

/** Waits between GETs of a playlist the service does not show yet (about 3 s in all). */
const NOT_YET_VISIBLE_RETRIES_MS = [200, 400, 800, 1600];

type Item = Record<string, unknown> & { id: string; position: string; type?: unknown };
/** An upstream playlist as the relay reads it: id a string, content.list normalized, the rest as sent. */
type Read = Record<string, unknown> & {
  id: string;
  title?: unknown;
  save_date?: unknown;
  content: Record<string, unknown> & { list: Item[] | null };
};

/** A save the service answered 2xx but may not show yet (stored as JSON, the sets as arrays). */
interface PendingSave {
  items: { id: string; type: ContentType }[];
  at: number;
  /** The save_date callers get while the service catches up. */
  shown: string;
  /** The service's save_date once it shows this list. */
  applied?: string;
  /** Versions older than this save (save dates and lists): the service showing one of them is lagging. */
  olderDates: Set<string>;
  olderLists: Set<string>;
}

/**
 * A save whose update was sent to the service and whose outcome is not recorded (stored before the
 * update is sent, removed once its outcome is recorded). Found by the next holder of the lock, it
 * belongs to a save that lost the lock (its instance died, its connection dropped) or could not
 * record its outcome: its list may be the current one, or still reach the service until `deadline`.
 */
interface Flight {
  items: { id: string; type: ContentType }[];
  at: number;
  /** The latest the update can still reach the service (epoch ms): sent at `at`, never retried. */
  deadline: number;
  /** Save dates of the versions before it: the service showing its list with another date applied it. */
  olderDates: string[];
}

/** Time past the upstream timeout that an update, once sent, is still counted as able to land. */
const FLIGHT_MARGIN_MS = 5_000;

/** A playlist's consistency state as read from the store, within the window. */
interface Pending {
  /** The playlist as the service answered its create through a relay on this store. */
  created?: { playlist: Read; at: number };
  save?: PendingSave;
  /** The stored text of `save`: it is changed only if no other instance replaced it meanwhile. */
  saveText?: string;
  flight?: Flight;
  flightText?: string;
}

const saveText = (save: PendingSave) => JSON.stringify({ ...save, olderDates: [...save.olderDates], olderLists: [...save.olderLists] });

const listKey = (list: readonly { id: string }[] | null | undefined) => (list ?? []).map((item) => item.id).join('\n');
const isType = (value: unknown): value is ContentType => value === 'vod' || value === 'channel';

export function registerContent(app: Hono<AppEnv>, deps: Deps) {
  const { store, upstream, config, log } = deps;
  const window = config.consistencyWindowMs;
  const quota = callsService(deps);

  /** Forgets states older than twice the window (an expired save is still seen once, to be logged). */
  function sweep() {
    store.prunePlaylistPending(Date.now() - 2 * window).catch((error: unknown) => log.error('playlist_pending_not_pruned', { error: String(error) }));
  }

  /** The playlist's consistency state, as any instance stored it. */
  async function pendingOf(id: string): Promise<Pending> {
    const stored = await store.playlistPending(id);
    const pending: Pending = {};
    try {
      if (stored.created && Date.now() - stored.created.at <= window) {
        pending.created = { playlist: JSON.parse(stored.created.data) as Read, at: stored.created.at };
      }
      if (stored.save) {
        const raw = JSON.parse(stored.save.data) as Omit<PendingSave, 'olderDates' | 'olderLists'> & { olderDates: string[]; olderLists: string[] };
        pending.save = { ...raw, olderDates: new Set(raw.olderDates), olderLists: new Set(raw.olderLists) };
        pending.saveText = stored.save.data;
      }
      if (stored.flight) {
        pending.flight = JSON.parse(stored.flight.data) as Flight;
        pending.flightText = stored.flight.data;
      }
    } catch (error) {
      log.error('playlist_pending_unreadable', { playlist_id: id, error: String(error) });
    }
    return pending;
  }

  /** Replaces (or with null removes) the pending save read in `pending`, unless another instance replaced it. */
  async function updateSave(id: string, pending: Pending, next: PendingSave | null) {
    const expected = pending.saveText;
    pending.save = next ?? undefined;
    pending.saveText = next ? saveText(next) : undefined;
    if (expected === undefined) return;
    await store
      .replacePlaylistPending(id, 'save', expected, pending.saveText ?? null)
      .catch((error: unknown) => log.error('playlist_pending_not_saved', { playlist_id: id, error: String(error) }));
  }

  /**
   * Under the lock, an earlier save's update whose outcome was never recorded: once the service
   * shows its list (or it can no longer land, nor the service lag behind it) it is forgotten and the
   * save goes on; until then no save can be decided (503 with Retry-After), so none is answered 200
   * and then overwritten by it.
   */
  async function settleFlight(id: string, pending: Pending, before: Read & { pending?: true }, lock: PlaylistLock) {
    const flight = pending.flight;
    if (!flight || pending.flightText === undefined) return;
    const date = typeof before.save_date === 'string' ? before.save_date : '';
    const landed = !before.pending && listKey(before.content.list) === listKey(flight.items) && !flight.olderDates.includes(date);
    const until = flight.deadline + window;
    if (!landed && Date.now() <= until) {
      log.warn('playlist_save_undecided', { playlist_id: id, until: new Date(until).toISOString() });
      const seconds = Math.min(5, Math.max(1, Math.ceil((until - Date.now()) / 1000)));
      throw new HttpError(503, 'upstream_unavailable', 'An earlier save of this playlist may still reach the service; try again shortly.', {
        headers: { 'Retry-After': String(seconds) },
      });
    }
    log.info('playlist_flight_settled', { playlist_id: id, landed });
    await lock.replacePending('flight', pending.flightText, null);
    pending.flight = undefined;
    pending.flightText = undefined;
  }

  async function requireOwned(type: OwnedType, id: string, user: string) {
    const record = await store.getContent(type, id);
    if (!record) throw notFound(`No ${type} ${id} is known to this relay.`);
    if (record.owner !== user) throw forbidden(`This ${type} belongs to another user.`);
    return record;
  }

  /** Reads an upstream playlist, or undefined when it lacks what the relay uses (logged). */
  function read(raw: unknown, what: string): Read | undefined {
    const parsed = schemas.playlistRead.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log.error('upstream_unexpected_body', { what, issue: issue && `${issue.path.join('.')}: ${issue.message}` });
      return undefined;
    }
    const data = parsed.data as Record<string, unknown> & { id: string; content?: Record<string, unknown> | null };
    const list = (data.content?.list as (Record<string, unknown> & { id: string; position?: unknown })[] | null | undefined) ?? null;
    const items = list?.map((item, index) => ({ ...item, position: String(item.position ?? index + 1) }));
    return { ...data, content: { start_time: '00:00:00', ...data.content, list: items?.length ? items : null } };
  }

  function readOrFail(raw: unknown, what: string): Read {
    const playlist = read(raw, what);
    if (!playlist) throw new HttpError(502, 'upstream_unavailable', `The service answered ${what} with an unexpected shape.`);
    return playlist;
  }

  /** The service's type where it gives one, else what the relay created, else the last save's type. */
  async function annotate(playlist: Read): Promise<AnnotatedPlaylist> {
    const list = playlist.content.list;
    if (!list) return playlist as unknown as AnnotatedPlaylist;
    const [known, saved] = await Promise.all([store.contentByIds(list.map((item) => item.id)), store.playlistTypes(playlist.id)]);
    const typeOf = (item: Item): ContentType | null => {
      if (isType(item.type)) return item.type;
      const types = new Set(known.filter((record) => record.id === item.id).map((record) => record.type));
      if (types.size === 1) return [...types][0] as ContentType;
      return types.size === 0 ? (saved.get(item.id) ?? null) : null;
    };
    const annotated: AnnotatedPlaylistItem[] = list.map((item) => ({ ...(item as unknown as AnnotatedPlaylistItem), type: typeOf(item) }));
    return { ...playlist, content: { ...playlist.content, list: annotated } } as unknown as AnnotatedPlaylist;
  }

  /** The playlist as the service shows it; a new one it does not show yet is retried, then answered as created. */
  async function current(record: ContentRecord, pending: Pending): Promise<Read & { pending?: true }> {
    const id = record.id;
    const get = async () =>
      readOrFail(await upstream.json('GET', paths.playlist(id), undefined, undefined, { given: `playlist ${id}` }), `GET ${paths.playlist(id)}`);
    const createdAt = pending.created?.at ?? Date.parse(record.createdAt);
    for (let attempt = 0; ; attempt++) {
      try {
        return await get();
      } catch (error) {
        const young = Date.now() - createdAt < window;
        if (!(error instanceof HttpError && error.status === 404 && young)) throw error;
        const wait = NOT_YET_VISIBLE_RETRIES_MS[attempt];
        if (wait === undefined) break;
        await delay(wait);
      }
    }
    log.info('playlist_pending', { playlist_id: id, reason: 'not_yet_visible' });
    const playlist = pending.created?.playlist ?? {
      id,
      title: record.title,
      description: null,
      content: { list: null, start_time: '00:00:00' },
      creation_date: record.createdAt,
      save_date: record.createdAt,
    };
    return { ...playlist, pending: true };
  }

  /** Overlays a save the service has not applied yet (in order, with types), marked pending. */
  async function overlay(playlist: Read & { pending?: true }, pending: Pending): Promise<Read & { pending?: true }> {
    const save = pending.save;
    if (!save) return playlist;
    if (Date.now() - save.at > window) {
      await updateSave(playlist.id, pending, null);
      if (listKey(playlist.content.list) !== listKey(save.items)) log.warn('playlist_save_not_applied', { playlist_id: playlist.id, window_ms: window });
      return playlist;
    }
    const key = listKey(playlist.content.list);
    const date = typeof playlist.save_date === 'string' ? playlist.save_date : '';
    if (key === listKey(save.items) && !playlist.pending) {
      if (save.applied === undefined) await updateSave(playlist.id, pending, { ...save, applied: date });
      return playlist;
    }
    const lagging = playlist.pending || save.olderDates.has(date) || date === save.shown || date === save.applied || save.olderLists.has(key);
    if (!lagging) {
      // Someone saved after us: the service's version is the current one.
      await updateSave(playlist.id, pending, null);
      return playlist;
    }
    const upstreamItems = new Map((playlist.content.list ?? []).map((item) => [item.id, item]));
    const records = await store.contentByIds(save.items.map((item) => item.id));
    const list = save.items.map((item, index) => ({
      thumbnail_id: '',
      title: records.find((record) => record.id === item.id && record.type === item.type)?.title ?? '',
      ...upstreamItems.get(item.id),
      id: item.id,
      type: item.type,
      position: String(index + 1),
    }));
    return { ...playlist, save_date: save.shown, content: { ...playlist.content, list: list.length ? list : null }, pending: true };
  }

  /** A create for the caller: validated, limited, and recorded as theirs before anything else can fail. */
  async function create(c: Context<AppEnv>, type: 'playlist' | 'channel', schema: typeof playlistCreate | typeof channelCreate, path: string) {
    const user = c.get('user');
    const body = parse(schema, await jsonBody(c));
    deps.createLimiter.hit(`${type}:${user}`);
    const raw = await upstream.json('POST', path, body);
    const id = createdId(raw, `POST ${path}`);
    const answered = (raw as { title?: unknown }).title;
    await record({ type, id, owner: user, title: typeof answered === 'string' && answered ? answered : body.title });
    // A channel's config holds encoder credentials: only ids are logged.
    log.info(`${type}_created`, { [`${type}_id`]: id, user });
    return { raw, id };
  }

  app.post('/playlists', quota, async (c) => {
    const { raw, id } = await create(c, 'playlist', playlistCreate, paths.playlists());
    // Whatever fails from here on, the caller gets the created playlist.
    const playlist = read(raw, `POST ${paths.playlists()}`) ?? ({ ...(raw as object), id, content: { list: null, start_time: '00:00:00' } } as Read);
    sweep();
    await store
      .setPlaylistPending(id, 'created', { data: JSON.stringify(playlist), at: Date.now() })
      .catch((error: unknown) => log.error('playlist_pending_not_saved', { playlist_id: id, error: String(error) }));
    return c.json(await annotate(playlist).catch(() => playlist), 201);
  });

  app.get('/playlists/:id', quota, async (c) => {
    const id = pathId(c, 'id');
    const owned = await requireOwned('playlist', id, c.get('user'));
    const pending = await pendingOf(id);
    return c.json(await annotate(await overlay(await current(owned, pending), pending)));
  });

  app.put('/playlists/:id/content', quota, async (c) => {
    const id = pathId(c, 'id');
    const user = c.get('user');
    const owned = await requireOwned('playlist', id, user);
    const body = parse(playlistContent, await jsonBody(c, 256 * 1024));
    const known = await store.contentByIds(body.items.map((item) => item.id));
    // By id, whatever type the caller claims: a foreign VOD listed as a channel is still foreign.
    const foreign = body.items.find(
      (item) => known.some((r) => r.id === item.id && r.owner !== user) && !known.some((r) => r.id === item.id && r.owner === user),
    );
    if (foreign) throw forbidden(`The item ${foreign.id} belongs to another user.`);
    // One save of a playlist at a time on every instance: the check, the write and its record.
    return store.withPlaylistLock(id, async (lock) => {
      const pending = await pendingOf(id);
      const before = await current(owned, pending);
      await settleFlight(id, pending, before, lock);
      const shown = await overlay(before, pending);
      if (body.base_save_date !== undefined) {
        // The versions a caller may hold of the current state: what the relay shows, and while a
        // save of ours is pending, both the date we showed for it and the service's own once applied.
        const save = pending.save;
        const versions = new Set([shown.save_date, save?.shown, save?.applied].filter(Boolean));
        if (!versions.has(body.base_save_date)) {
          throw new HttpError(409, 'conflict', 'The playlist was changed since you loaded it; reload it and apply your change again.', {
            extra: { current: await annotate(shown) },
          });
        }
      }
      const items = body.items.map((item, index) => ({
        id: item.id,
        type: item.type,
        position: config.playlistPositions === 'number' ? index + 1 : String(index + 1),
      }));
      const content = config.playlistUpdateEnvelope === 'string' ? JSON.stringify(items) : items;
      const path = config.playlistUpdate.path.replace('{playlistId}', encodeURIComponent(id));
      const previous = pending.save;
      const beforeDate = typeof before.save_date === 'string' ? before.save_date : '';
      const olderDates = new Set([beforeDate, ...(previous ? [...previous.olderDates, previous.shown, previous.applied ?? ''] : [])].filter(Boolean));
      const saved = body.items.map(({ id: itemId, type }) => ({ id: itemId, type }));
      // Recorded before the update is sent: whoever holds the lock next counts this list as possibly
      // current until its outcome is recorded, even if this instance dies or loses the lock meanwhile.
      const sent = Date.now();
      const flightText = JSON.stringify({ items: saved, at: sent, deadline: sent + config.timeoutMs + FLIGHT_MARGIN_MS, olderDates: [...olderDates] } satisfies Flight);
      await lock.setPending('flight', { data: flightText, at: sent + config.timeoutMs + FLIGHT_MARGIN_MS }).catch((error: unknown) => {
        log.error('playlist_pending_not_saved', { playlist_id: id, error: String(error) });
        throw new HttpError(503, 'upstream_unavailable', 'The relay could not record the save before sending it; nothing was sent. Try again.', {
          headers: { 'Retry-After': '2' },
        });
      });
      const forgetFlight = () =>
        lock.replacePending('flight', flightText, null).catch((error: unknown) => log.error('playlist_pending_not_saved', { playlist_id: id, error: String(error) }));
      let answer: unknown;
      try {
        answer = await upstream.json(config.playlistUpdate.method, path, { content }, undefined, { given: `playlist ${id}` });
      } catch (error) {
        // The service answered (a refusal): the update is over. Unanswered, it may still land: the record stays.
        if (!wasUnanswered(error) && lock.held()) await forgetFlight();
        throw error;
      }
      // The service accepted the save: from here on only a lost lock turns it into an error.
      log.info('playlist_saved', { playlist_id: id, user, items: items.length });
      await store.savePlaylistTypes(id, body.items).catch((error: unknown) => log.error('playlist_types_not_saved', { playlist_id: id, error: String(error) }));
      const answered = answer && typeof answer === 'object' ? read(answer, `${config.playlistUpdate.method} ${path}`) : undefined;
      const answeredDate = typeof answered?.save_date === 'string' ? answered.save_date : '';
      const applied = answered && listKey(answered.content.list) === listKey(body.items) ? answeredDate : undefined;
      const olderLists = new Set([listKey(before.content.list), ...(previous ? [...previous.olderLists, listKey(previous.items)] : [])]);
      olderLists.delete(listKey(body.items));
      sweep();
      const save: PendingSave = {
        items: saved,
        at: Date.now(),
        shown: answeredDate && !olderDates.has(answeredDate) ? answeredDate : laterThan(olderDates),
        applied,
        olderDates,
        olderLists,
      };
      pending.save = save;
      pending.saveText = saveText(save);
      // Recorded before the lock is released: the next save, on any instance, compares against it.
      // Not recorded, the flight record stays and stands for it.
      const recorded = await lock.setPending('save', { data: pending.saveText, at: save.at }).then(
        () => true,
        (error: unknown) => (log.error('playlist_pending_not_saved', { playlist_id: id, error: String(error) }), false),
      );
      if (!lock.held()) {
        // Another instance may have decided a save since: the flight record tells it about this one.
        throw new HttpError(503, 'upstream_unavailable', 'The save reached the service, but the relay lost its lock on the playlist meanwhile; reload the playlist to see which list is current.', {
          headers: { 'Retry-After': '1' },
        });
      }
      if (recorded) await forgetFlight();
      const view = await overlay(answered ?? before, pending);
      if (view.pending) log.info('playlist_pending', { playlist_id: id, reason: 'save_not_yet_visible' });
      return c.json(await annotate(view));
    }).catch((error: unknown) => {
      if (!(error instanceof LockBusyError)) throw error;
      log.warn('playlist_lock_busy', { playlist_id: id, error: error.message });
      throw new HttpError(503, 'upstream_unavailable', 'Another save of this playlist is taking long; try again shortly.', { headers: { 'Retry-After': '2' } });
    });
  });

  app.post('/channels', quota, async (c) => {
    const { raw, id } = await create(c, 'channel', channelCreate, paths.channels());
    const channel: Record<string, unknown> = { ...(raw as Record<string, unknown>), id };
    const settings = schemas.channelConfigRead.safeParse(channel.config);
    if (!settings.success) {
      const issue = settings.error.issues[0];
      log.warn('upstream_unexpected_body', { what: `POST ${paths.channels()}`, channel_id: id, issue: issue && `config.${issue.path.join('.')}: ${issue.message}` });
    }
    return c.json(channel, 201);
  });

  app.get('/library', quota, async (c) => {
    const limit = c.req.query('limit');
    if (limit !== undefined && !/^[1-9]\d{0,14}$/.test(limit)) throw badRequest('limit must be a whole number from 1.', { limit: 'invalid' });
    const cursor = c.req.query('cursor');
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (after === null) throw badRequest('cursor must be a next_cursor of an earlier page.', { cursor: 'invalid' });
    const page = await store.library(c.get('user'), { limit: Math.min(Number(limit ?? LIBRARY_PAGE), LIBRARY_PAGE), after });
    const library: Library = {
      items: page.items.map((record) => ({ id: record.id, type: record.type, title: record.title, created_at: record.createdAt })),
      next_cursor: page.next && encodeCursor(page.next),
    };
    return c.json(library);
  });

  /** The id of what the service says it created; without one nothing is known to exist (502). */
  function createdId(raw: unknown, what: string): string {
    const parsed = schemas.channelRead.pick({ id: true }).safeParse(raw);
    if (parsed.success) return parsed.data.id;
    log.error('upstream_unexpected_body', { what, issue: 'no id in the answer' });
    throw new HttpError(502, 'upstream_unavailable', `The service answered ${what} without an id; nothing was recorded.`);
  }

  /** Records ownership of what the service created; retried, because losing it would orphan the content. */
  async function record(content: Omit<ContentRecord, 'createdAt'>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await store.addContent(content);
        return;
      } catch (error) {
        if (attempt === 3) {
          // Still answered with the created object (never a 5xx for a create that succeeded).
          log.error('content_not_recorded', { type: content.type, id: content.id, owner: content.owner, error: String(error) });
          return;
        }
        await delay(100 * attempt);
      }
    }
  }
}

/** The most items of one `/library` page, and the page size when the caller gives none. */
export const LIBRARY_PAGE = 500;

/** A library cursor as callers see it: opaque (base64url of the last item's date and insertion order). */
function encodeCursor(cursor: LibraryCursor): string {
  return Buffer.from(`${cursor.createdAt} ${cursor.rowid}`).toString('base64url');
}

/** The cursor of an earlier page's `next_cursor`, or null for anything else. */
function decodeCursor(text: string): LibraryCursor | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(text)) return null;
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z) (\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString());
  return match ? { createdAt: match[1]!, rowid: Number(match[2]) } : null;
}

/** An ISO timestamp after every date in `dates` (the version shown for a save the service has not dated). */
function laterThan(dates: Set<string>): string {
  const latest = Math.max(Date.now(), ...[...dates].map((date) => Date.parse(date) + 1).filter(Number.isFinite));
  return new Date(latest).toISOString();
}
