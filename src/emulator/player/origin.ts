// The player origin ({player_url}): player.js, the content descriptions it reads, the media
// files (with Range) and the iframe embed page.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { contentId, parseContentId } from '../embed.js';
import type { ServiceContext } from '../context.js';
import { faults, jsonError } from '../http.js';
import { serveFile, sniffType } from './media.js';
import { embedPage } from './embed-page.js';

const PLAYER_JS = readFileSync(new URL('./player.js', import.meta.url), 'utf8');

/** Served to any page: the player runs on other origins. */
const CROSS_ORIGIN = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };

export interface ContentDescription {
  content_id: string;
  type: 'vod' | 'playlist' | 'channel';
  title: string;
  media_url?: string;
  online?: boolean;
  items?: { id: string; type: 'vod' | 'channel'; content_id: string; title: string; media_url: string | null }[];
}

/** What player.js needs to show a content id, or undefined when there is nothing to show. */
export function describeContent(ctx: ServiceContext, value: string): ContentDescription | undefined {
  const { store, config } = ctx;
  const mediaUrl = (id: string) => `${ctx.urls.playerUrl}/media/${encodeURIComponent(id)}`;
  {
    const parsed = parseContentId(config.accountId, value);
    if (!parsed) return undefined;
    if (parsed.kind === 'vod') {
      const vod = store.vods.get(parsed.id);
      if (vod?.status !== 'ready') return undefined;
      return { content_id: value, type: 'vod', title: vod.title, media_url: mediaUrl(vod.id) };
    }
    if (parsed.kind === 'channel') {
      const channel = store.channels.get(parsed.id)?.channel;
      return channel && { content_id: value, type: 'channel', title: channel.title, online: channel.online };
    }
    const playlist = store.playlists.get(parsed.id);
    if (!playlist) return undefined;
    const items = playlist.entries.map((entry) => {
      const title =
        entry.type === 'vod' ? (store.vods.get(entry.id)?.title ?? '') : (store.channels.get(entry.id)?.channel.title ?? '');
      const ready = entry.type === 'vod' && store.vods.get(entry.id)?.status === 'ready';
      return {
        id: entry.id,
        type: entry.type,
        content_id: contentId(config.accountId, entry.type, entry.id),
        title,
        media_url: ready ? mediaUrl(entry.id) : null,
      };
    });
    return { content_id: value, type: 'playlist', title: playlist.playlist.title, items };
  }
}

export function playerApp(ctx: ServiceContext): Hono {
  const { store } = ctx;
  const app = new Hono();
  app.use('*', faults(ctx.control, 'player', (status) =>
    jsonError(status, 'fault_injected', `Answer ${status} injected by the control API.`),
  ));
  const types = new Map<string, string>();
  const describe = (value: string) => describeContent(ctx, value);

  app.get('/js/player.js', () =>
    new Response(PLAYER_JS, {
      headers: {
        ...CROSS_ORIGIN,
        'Content-Type': 'text/javascript; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      },
    }),
  );

  app.get('/api/content/:contentId', (c) => {
    const description = describe(c.req.param('contentId'));
    if (!description) {
      const response = jsonError(404, 'not_found', 'No content with this id is available.');
      response.headers.set('Access-Control-Allow-Origin', '*');
      return response;
    }
    return c.json(description, 200, { ...CROSS_ORIGIN, 'Cache-Control': 'no-store' });
  });

  app.on(['GET', 'HEAD'], '/media/:vodId', async (c) => {
    const vod = store.vods.get(c.req.param('vodId'));
    if (vod?.status !== 'ready' || !vod.file) return c.text('Not found', 404, CROSS_ORIGIN);
    let type = types.get(vod.id);
    if (!type) types.set(vod.id, (type = await sniffType(vod.file, vod.title)));
    return serveFile(c.req.raw, vod.file, type, { ...CROSS_ORIGIN, 'Cache-Control': 'no-cache' });
  });

  app.get('/embed/:contentId', (c) => {
    const description = describe(c.req.param('contentId'));
    if (!description) return c.text('This content is not available.', 404);
    return embedPage(description.content_id, description.title);
  });

  app.notFound((c) => c.text('Not found', 404));
  app.onError((error, c) => {
    ctx.log.warn('player_error', { message: error.message });
    return c.text('The player origin failed to answer.', 500);
  });
  return app;
}
