// The control API (/_control on the API origin, only with `control: true`): state, faults,
// callback faults, settings, content of a second account, reset. JSON, no API key, CORS for any origin (browser tests call it).
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { ServiceContext } from './context.js';
import { callbackFaultRequest, faultRequest, otherAccountRequest, settingsRequest } from './control.js';
import { parseBody } from './validate.js';

export function controlRoutes(ctx: ServiceContext): Hono {
  const { control } = ctx;
  const app = new Hono();
  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['Content-Type'] }));

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
