// Content the caller owns: playlists (create, read annotated, replace content), channels, library.
import type { Hono } from 'hono';
import { paths, schemas, type Channel, type Playlist } from '../../service/index.js';
import type { AnnotatedPlaylist, Library } from '../../core/relay-client.js';
import { HttpError, forbidden, notFound } from '../http-error.js';
import type { OwnedType } from '../store/store.js';
import { channelCreate, jsonBody, parse, pathId, playlistContent, playlistCreate } from '../validate.js';
import type { AppEnv, Deps } from '../deps.js';

/** Runs `task` after every earlier task of the same key (one playlist save at a time). */
function serialized() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

export function registerContent(app: Hono<AppEnv>, deps: Deps) {
  const { store, upstream, config } = deps;
  const withPlaylistLock = serialized();

  async function requireOwned(type: OwnedType, id: string, user: string) {
    const record = await store.getContent(type, id);
    if (!record) throw notFound(`No ${type} ${id} is known to this relay.`);
    if (record.owner !== user) throw forbidden(`This ${type} belongs to another user.`);
    return record;
  }

  async function annotate(playlist: Playlist): Promise<AnnotatedPlaylist> {
    const list = playlist.content.list;
    if (!list) return playlist as AnnotatedPlaylist;
    const [known, saved] = await Promise.all([
      store.contentByIds(list.map((item) => item.id)),
      store.playlistTypes(playlist.id),
    ]);
    // What the relay created wins; else the type given in the last save the service accepted.
    const typeOf = (id: string) => {
      const types = new Set(known.filter((record) => record.id === id).map((record) => record.type));
      if (types.size === 1) return [...types][0] as 'vod' | 'channel';
      return types.size === 0 ? (saved.get(id) ?? null) : null;
    };
    return { ...playlist, content: { ...playlist.content, list: list.map((item) => ({ ...item, type: typeOf(item.id) })) } };
  }

  const fetchPlaylist = (id: string) => upstream.json<Playlist>('GET', paths.playlist(id), undefined, schemas.playlist);

  app.post('/playlists', async (c) => {
    const user = c.get('user');
    const body = parse(playlistCreate, await jsonBody(c));
    deps.createLimiter.hit(`playlist:${user}`);
    const playlist = await upstream.json<Playlist>('POST', paths.playlists(), body, schemas.playlist);
    await store.addContent({ type: 'playlist', id: playlist.id, owner: user, title: playlist.title });
    deps.log.info('playlist_created', { playlist_id: playlist.id, user });
    return c.json(await annotate(playlist), 201);
  });

  app.get('/playlists/:id', async (c) => {
    const id = pathId(c, 'id');
    await requireOwned('playlist', id, c.get('user'));
    return c.json(await annotate(await fetchPlaylist(id)));
  });

  app.put('/playlists/:id/content', async (c) => {
    const id = pathId(c, 'id');
    const user = c.get('user');
    await requireOwned('playlist', id, user);
    const body = parse(playlistContent, await jsonBody(c, 256 * 1024));
    const known = await store.contentByIds(body.items.map((item) => item.id));
    // By id, whatever type the caller claims: a foreign VOD listed as a channel is still foreign.
    const foreign = body.items.find(
      (item) => known.some((r) => r.id === item.id && r.owner !== user) && !known.some((r) => r.id === item.id && r.owner === user),
    );
    if (foreign) throw forbidden(`The item ${foreign.id} belongs to another user.`);
    return withPlaylistLock(id, async () => {
      if (body.base_save_date !== undefined) {
        const current = await fetchPlaylist(id);
        if (current.save_date !== body.base_save_date) {
          throw new HttpError(409, 'conflict', 'The playlist was changed since you loaded it; reload it and apply your change again.', {
            extra: { current: await annotate(current) },
          });
        }
      }
      const items = body.items.map((item, index) => ({ id: item.id, type: item.type, position: String(index + 1) }));
      const content = config.playlistUpdateEnvelope === 'string' ? JSON.stringify(items) : items;
      const path = config.playlistUpdate.path.replace('{playlistId}', encodeURIComponent(id));
      await upstream.json(config.playlistUpdate.method, path, { content });
      await store.savePlaylistTypes(id, body.items);
      deps.log.info('playlist_saved', { playlist_id: id, user, items: items.length });
      return c.json(await annotate(await fetchPlaylist(id)));
    });
  });

  app.post('/channels', async (c) => {
    const user = c.get('user');
    const body = parse(channelCreate, await jsonBody(c));
    deps.createLimiter.hit(`channel:${user}`);
    const channel = await upstream.json<Channel>('POST', paths.channels(), body, schemas.channel);
    await store.addContent({ type: 'channel', id: channel.id, owner: user, title: channel.title });
    // The channel's config holds encoder credentials: only its id is logged.
    deps.log.info('channel_created', { channel_id: channel.id, user });
    return c.json(channel, 201);
  });

  app.get('/library', async (c) => {
    const records = await store.library(c.get('user'));
    const library: Library = {
      items: records.map((record) => ({ id: record.id, type: record.type, title: record.title, created_at: record.createdAt })),
    };
    return c.json(library);
  });
}
