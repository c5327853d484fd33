// The iframe player's origin (observed in public clients: iframe codes point at an origin of their
// own, with paths /<vod|live|playlist>/<account_id>/<id>). Each page is the embed page, loading
// player.js from the player origin.
import { Hono } from 'hono';
import { CONTENT_ID_SEGMENT, type EmbedKind } from '../../service/types.js';
import type { ServiceContext } from '../context.js';
import { contentId } from '../embed.js';
import { embedPage } from './embed-page.js';
import { describeContent } from './origin.js';

const KIND_OF_SEGMENT = Object.fromEntries(Object.entries(CONTENT_ID_SEGMENT).map(([kind, segment]) => [segment, kind])) as Record<
  string,
  EmbedKind
>;

export function iframeApp(ctx: ServiceContext): Hono {
  const app = new Hono();
  app.get('/:segment/:account/:id', (c) => {
    const { segment, account, id } = c.req.param();
    const kind = Object.hasOwn(KIND_OF_SEGMENT, segment) ? KIND_OF_SEGMENT[segment] : undefined;
    const description = kind && account === ctx.config.accountId ? describeContent(ctx, contentId(account, kind, id)) : undefined;
    if (!description) return c.text('This content is not available.', 404);
    return embedPage(description.content_id, description.title, new URL(ctx.urls.playerUrl).origin);
  });
  app.notFound((c) => c.text('Not found', 404));
  app.onError((error, c) => {
    ctx.log.warn('iframe_error', { message: error.message });
    return c.text('The iframe origin failed to answer.', 500);
  });
  return app;
}
