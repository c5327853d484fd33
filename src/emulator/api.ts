// The API origin ({base_url}): operations 1 and 3 to 11 and the playlist update under /v2, and
// the control API under /_control when enabled. The observed profile adds what the service's
// public clients show: plural playlist paths, 200/201, nulls and extra fields, `type` on list
// items, numeric positions, {details} error bodies, 403 for another account's ids and, with
// consistencyMs, eventual consistency (docs/local-service.md).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { schemas } from '../service/index.js';
import {
  API_KEY_HEADER,
  EMBED_KINDS,
  EMBED_VARIANTS,
  FORMAT_HEADER,
  FORMAT_VALUE,
  type EmbedKind,
  type EmbedVariant,
} from '../service/types.js';
import { DEFAULT_SIGNATURE_TTL_MS, type ServiceContext } from './context.js';
import { controlRoutes } from './control-routes.js';
import { contentId, embedCode, embedMarkup } from './embed.js';
import { faults, jsonError } from './http.js';
import { newChannel, newPlaylist, observedChannel, observedPlaylist, playlistView } from './resources.js';
import { createPostForm } from './s3-post.js';
import type { PlaylistEntry, PlaylistRecord } from './store.js';
import { fieldName, invalid, parseBody } from './validate.js';

const MAX_PLAYLIST_ITEMS = 1000;

function sameSecret(given: string, expected: string): boolean {
  // Hash first so both sides have the same length and the comparison time says nothing.
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function authenticate(apiKey: string): MiddlewareHandler {
  return async (c, next) => {
    const key = c.req.header(API_KEY_HEADER);
    if (key === undefined || !sameSecret(key, apiKey)) {
      return jsonError(401, 'unauthorized', `Missing or wrong ${API_KEY_HEADER} header.`);
    }
    if (c.req.header(FORMAT_HEADER) !== FORMAT_VALUE) {
      return jsonError(401, 'unauthorized', `The ${FORMAT_HEADER} header must be "${FORMAT_VALUE}".`);
    }
    return next();
  };
}

const notFound = (what: string, id: string) => jsonError(404, 'not_found', `No ${what} with id "${id}".`);

/**
 * Observed in public clients: error bodies are `{"details": "<message>\n<JSON trace>"}` (a human
 * message, a newline, then a JSON object with a trace and a request id; validation: `{"errors":
 * [{message, property, value}]}`), not `{"error": {...}}`. Rewrites every error the routes give.
 */
const observedErrors: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status < 400 || c.req.path.startsWith('/_control') || !c.res.headers.get('content-type')?.includes('json')) return;
  const body = (await c.res.clone().json().catch(() => undefined)) as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined;
  if (!body?.error) return;
  const { code = 'error', message = '', fields } = body.error;
  const trace = { trace: `at ${code} (${c.req.method} ${c.req.path})`, request_id: `r-${randomBytes(6).toString('hex')}` };
  const observed = fields
    ? { errors: Object.entries(fields).map(([property, reason]) => ({ message: reason, property, value: null })) }
    : { details: `${message}\n${JSON.stringify(trace)}` };
  c.res = Response.json(observed, { status: c.res.status });
};

export function apiApp(ctx: ServiceContext): Hono {
  const { store, control, config } = ctx;
  const observed = config.profile === 'observed';
  const app = new Hono();
  if (observed) app.use('*', observedErrors);
  app.use('*', faults(control, 'api', (status) =>
    jsonError(status, 'fault_injected', `Answer ${status} injected by the control API.`),
  ));
  if (config.control) app.route('/_control', controlRoutes(ctx));
  app.use('/v2/*', authenticate(config.apiKey));
  app.use(
    '/v2/*',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => jsonError(413, 'payload_too_large', 'The request body is larger than 1 MiB.'),
    }),
  );

  // Operation 1: a VOD and its signed upload form.
  app.post('/v2/vod', async (c) => {
    const parsed = await parseBody(c, schemas.vodCreateRequest);
    if ('response' in parsed) return parsed.response;
    const id = store.newId();
    const key = `vod/${id}/none/${id}`;
    const now = new Date();
    const ttl = control.settings.signature_ttl_ms ?? DEFAULT_SIGNATURE_TTL_MS;
    store.vods.set(id, {
      id,
      title: parsed.data.source,
      callbackUrl: parsed.data.callback_url,
      uploadType: parsed.data.upload_type,
      key,
      status: 'awaiting_upload',
      createdAt: now.toISOString(),
    });
    ctx.log.info('vod_created', { vod_id: id });
    return c.json(
      createPostForm({
        credentials: config.credentials,
        bucket: config.bucket,
        key,
        acl: config.acl,
        successActionStatus: '201',
        maxBytes: control.settings.policy_max_bytes ?? config.maxUploadBytes,
        now,
        expiresAt: new Date(now.getTime() + ttl),
        ...(config.securityToken ? { securityToken: config.securityToken } : {}),
      }),
    );
  });

  /** Observed: another account's content answers 403. */
  const foreign = (id: string) =>
    observed && store.foreign.has(id) ? jsonError(403, 'forbidden', `The content "${id}" belongs to another account.`) : undefined;

  /** The playlist retrieval may see, or the answer to give instead (403, 404, or 404 while not yet visible). */
  function visible(id: string): PlaylistRecord | Response {
    const refused = foreign(id);
    if (refused) return refused;
    const record = store.playlists.get(id);
    if (!record || (record.visibleAt !== undefined && Date.now() < record.visibleAt)) return notFound('playlist', id);
    return record;
  }

  const view = (record: PlaylistRecord) => {
    const playlist = playlistView(record, store, observed && control.settings.list_item_types);
    return observed ? observedPlaylist(playlist) : playlist;
  };

  // Operation 3 (observed: also on the plural path).
  for (const path of observed ? ['/v2/playlist', '/v2/playlists'] : ['/v2/playlist']) {
    app.post(path, async (c) => {
      const parsed = await parseBody(c, schemas.playlistCreateRequest);
      if ('response' in parsed) return parsed.response;
      const id = store.newId();
      const record: PlaylistRecord = { playlist: newPlaylist(id, parsed.data, store.timestamp()), entries: [] };
      if (config.consistencyMs > 0) record.visibleAt = Date.now() + config.consistencyMs;
      store.playlists.set(id, record);
      // The create's own answer shows the playlist even while retrieval does not yet.
      return c.json(observed ? observedPlaylist(playlistView(record, store, true)) : playlistView(record, store));
    });
  }

  // Operation 4 (observed: also on the plural path).
  for (const path of observed ? ['/v2/playlist/:id', '/v2/playlists/:id'] : ['/v2/playlist/:id']) {
    app.get(path, (c) => {
      const record = visible(c.req.param('id')!);
      return 'entries' in record ? c.json(view(record)) : record;
    });
  }

  // The playlist update (not in the seed): the whole list is replaced. The observed form is
  // PUT /v2/playlists/{id}/content with the list as a JSON string and numeric positions; the
  // singular path, the array envelope and string positions are accepted too.
  for (const path of observed ? ['/v2/playlists/:id/content', '/v2/playlist/:id/content'] : ['/v2/playlist/:id/content']) {
    app.put(path, async (c) => {
      const id = c.req.param('id')!;
      const refused = foreign(id);
      if (refused) return refused;
      const record = store.playlists.get(id);
      if (!record) return notFound('playlist', id);
      const parsed = await parseUpdate(await c.req.text(), observed);
      if ('response' in parsed) return parsed.response;
      const problems: Record<string, string> = {};
      parsed.items.forEach((item, index) => {
        const exists =
          item.type === 'vod' ? store.vods.get(item.id)?.status === 'ready' : store.channels.has(item.id);
        if (!exists) {
          problems[`content[${index}].id`] =
            item.type === 'vod' ? `no ready VOD with id "${item.id}"` : `no channel with id "${item.id}"`;
        }
      });
      const positions = new Set(parsed.items.map((item) => Number(item.position)));
      const complete = parsed.items.every((_, index) => positions.has(index + 1));
      if (!complete || positions.size !== parsed.items.length) {
        problems['content'] = `positions must be 1 to ${parsed.items.length}, each once`;
      }
      if (Object.keys(problems).length) return invalid(problems);
      const entries: PlaylistEntry[] = [...parsed.items]
        .sort((a, b) => Number(a.position) - Number(b.position))
        .map(({ id: itemId, type }) => ({ id: itemId, type }));
      if (config.consistencyMs > 0) {
        // Eventual consistency: the answer and retrievals show the state before this update for a while.
        const now = Date.now();
        const lagging = record.stale && now < record.stale.until ? record.stale : { playlist: record.playlist, entries: record.entries };
        record.stale = { ...lagging, until: now + config.consistencyMs };
      }
      record.entries = entries;
      record.playlist = { ...record.playlist, save_date: store.timestamp() };
      return c.json(view(record));
    });
  }

  // Operation 5.
  app.post('/v2/channel', async (c) => {
    const parsed = await parseBody(c, schemas.channelCreateRequest);
    if ('response' in parsed) return parsed.response;
    const id = store.newId();
    const channel = newChannel(id, parsed.data, {
      accountId: config.accountId,
      playerUrl: ctx.urls.playerUrl,
      ingestDomain: config.ingestDomain,
      now: store.timestamp(),
    });
    store.channels.set(id, { channel, renditionCount: parsed.data.rendition_count });
    return observed ? c.json(observedChannel(channel), 201) : c.json(channel);
  });

  // Operations 6 to 11.
  app.get('/v2/:kind/:id/embed/:variant', (c) => {
    const { kind, id, variant } = c.req.param();
    if (!(EMBED_KINDS as readonly string[]).includes(kind) || !(EMBED_VARIANTS as readonly string[]).includes(variant)) {
      return jsonError(404, 'not_found', 'No such route.');
    }
    const refused = foreign(id);
    if (refused) return refused;
    const title = titleOf(ctx, kind as EmbedKind, id);
    if (title === undefined) return notFound(kind === 'vod' ? 'ready VOD' : kind, id);
    const markup = embedMarkup({
      playerUrl: ctx.urls.playerUrl,
      contentId: contentId(config.accountId, kind as EmbedKind, id),
      kind: kind as EmbedKind,
      variant: variant as EmbedVariant,
      title,
      ...(observed ? { iframe: { url: ctx.urls.iframeUrl, accountId: config.accountId, id } } : {}),
    });
    return c.json(embedCode(markup));
  });

  app.notFound(() => jsonError(404, 'not_found', 'No such route.'));
  app.onError((error) => {
    ctx.log.warn('api_error', { message: error.message });
    return jsonError(500, 'internal', 'The local service failed to answer this request.');
  });
  return app;
}

/** Title of embeddable content, or undefined when there is none (a VOD only once ready). */
function titleOf(ctx: ServiceContext, kind: EmbedKind, id: string): string | undefined {
  if (kind === 'vod') {
    const vod = ctx.store.vods.get(id);
    return vod?.status === 'ready' ? vod.title : undefined;
  }
  if (kind === 'channel') return ctx.store.channels.get(id)?.channel.title;
  return ctx.store.playlists.get(id)?.playlist.title;
}

const updateItems = z.array(schemas.playlistUpdateItem).max(MAX_PLAYLIST_ITEMS);
/** Observed: positions may be numbers (1..n) as well as the seed's strings. */
const observedUpdateItems = z
  .array(schemas.playlistUpdateItem.extend({ position: z.union([z.string(), z.number().int()]).transform(String).pipe(z.string().regex(/^[1-9][0-9]*$/)) }))
  .max(MAX_PLAYLIST_ITEMS);

/** `{"content": [items]}` or `{"content": "<the same array as a JSON string>"}`. */
async function parseUpdate(
  text: string,
  observed: boolean,
): Promise<{ items: z.infer<typeof updateItems> } | { response: Response }> {
  const shape = 'an array of {id, type, position}, or that array as a JSON string';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { response: invalid({ body: 'must be JSON' }) };
  }
  if (typeof body !== 'object' || body === null || !('content' in body)) {
    return { response: invalid({ content: `required: ${shape}` }) };
  }
  let content = (body as { content: unknown }).content;
  if (typeof content === 'string') {
    try {
      content = JSON.parse(content);
    } catch {
      return { response: invalid({ content: `is a string but not JSON; expected ${shape}` }) };
    }
  }
  const result = (observed ? observedUpdateItems : updateItems).safeParse(content);
  if (!result.success) {
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) fields[fieldName(['content', ...issue.path])] ??= issue.message;
    return { response: invalid(fields) };
  }
  return { items: result.data };
}
