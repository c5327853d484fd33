// The control API (/_control on the API origin, only with `control: true`): state, faults,
// callback faults, settings, content of a second account, reset. JSON, no API key, so it answers
// loopback callers only (by socket address and by Host, against DNS rebinding), CORS for its own
// origin only, refuses changes from a foreign Origin (a cross-site form needs no preflight), and its
// state shows where callbacks go, never the callback URL (whose path carries the receiver's token).
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { jsonError } from './http.js';
import type { ServiceContext } from './context.js';
import { callbackFaultRequest, faultRequest, otherAccountRequest, settingsRequest } from './control.js';
import { parseBody } from './validate.js';

export function controlRoutes(ctx: ServiceContext): Hono {
  const { control } = ctx;
  const app = new Hono();
  const ownOrigin = () => new URL(ctx.urls.baseUrl).origin;
  app.use('*', async (c, next) => {
    // In-process calls (app.request in tests) have no socket: they are this process.
    const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
    const host = new URL(c.req.url).hostname;
    if ((address !== undefined && !isLoopbackAddress(address)) || !isLoopbackAddress(host)) {
      return jsonError(403, 'forbidden', 'The control API answers loopback callers only.');
    }
    const origin = c.req.header('origin');
    if (c.req.method !== 'GET' && c.req.method !== 'OPTIONS' && origin !== undefined && origin !== ownOrigin()) {
      return jsonError(403, 'forbidden', 'The control API refuses changes from another origin.');
    }
    return next();
  });
  app.use('*', cors({ origin: (origin) => (origin === ownOrigin() ? origin : null), allowMethods: ['GET', 'POST'], allowHeaders: ['Content-Type'] }));

  app.get('/state', (c) => c.json(control.state()));

  app.post('/faults', async (c) => {
    const parsed = await parseBody(c, faultRequest);
    if ('response' in parsed) return parsed.response;
    const fault = control.addFault(parsed.data);
    ctx.log.info('fault_added', { ...fault });
    return c.json({ id: fault.id }, 201);
  });

  app.post('/callbacks', async (c) => {
    const parsed = await parseBody(c, callbackFaultRequest);
    if ('response' in parsed) return parsed.response;
    if (parsed.data.fail_next !== undefined) control.failNext = parsed.data.fail_next;
    if (parsed.data.duplicate_next !== undefined) control.duplicateNext = parsed.data.duplicate_next;
    return c.json({ fail_next: control.failNext, duplicate_next: control.duplicateNext });
  });

  app.post('/settings', async (c) => {
    const parsed = await parseBody(c, settingsRequest);
    if ('response' in parsed) return parsed.response;
    if (parsed.data.signature_ttl_ms !== undefined) control.settings.signature_ttl_ms = parsed.data.signature_ttl_ms;
    if (parsed.data.processing_ms !== undefined) control.settings.processing_ms = parsed.data.processing_ms;
    if (parsed.data.list_item_types !== undefined) control.settings.list_item_types = parsed.data.list_item_types;
    if (parsed.data.policy_max_bytes !== undefined) control.settings.policy_max_bytes = parsed.data.policy_max_bytes;
    return c.json(control.settings);
  });

  // A VOD, channel or playlist of another account: its id exists on the service, but the API key
  // of this account may not use it (the observed profile answers 403; the seed profile 404).
  app.post('/other-account', async (c) => {
    const parsed = await parseBody(c, otherAccountRequest);
    if ('response' in parsed) return parsed.response;
    const id = ctx.store.newId();
    ctx.store.foreign.set(id, parsed.data.kind);
    return c.json({ id, kind: parsed.data.kind }, 201);
  });

  app.post('/reset', (c) => {
    control.reset();
    return c.json({ reset: true });
  });
  return app;
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3}|localhost)$/.test(bare);
}
