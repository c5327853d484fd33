// GET /events: the caller's upload state changes as Server-Sent Events (see sse.ts for resets,
// the per-user cap and the end of a stream when its token expires).
import type { Hono } from 'hono';
import { badRequest } from '../http-error.js';
import { callsService, type Deps } from '../deps.js';
import type { AppEnv } from '../request.js';

export function registerEvents(app: Hono<AppEnv>, deps: Deps) {
  app.get('/events', callsService(deps), (c) => {
    const raw = c.req.header('last-event-id') ?? c.req.query('last_event_id');
    let lastId: number | undefined;
    if (raw !== undefined && raw !== '') {
      if (!/^\d{1,15}$/.test(raw)) throw badRequest('Last-Event-ID must be a non-negative integer.', { last_event_id: 'invalid' });
      lastId = Number(raw);
    }
    const user = c.get('user');
    const body = deps.hub.stream({
      owner: user,
      lastId,
      expiresAt: c.get('expiresAt'),
      onError: (error) => deps.log.error('sse_replay_failed', { user, error }),
    });
    return new Response(body, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      },
    });
  });
}
