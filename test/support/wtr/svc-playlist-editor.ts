// Server-side helpers for the <svc-playlist-editor> browser tests. They call the local service
// directly with the API key, behind the relay's back, to make what the relay cannot know about:
//   POST /__playlist-editor/upstream-channel  {title}                       -> the channel (unknown to the relay)
//   POST /__playlist-editor/upstream-content  {playlist_id, items:[{id,type}]} -> the playlist as the service returns it
//   POST /__playlist-editor/big-library  {count, allowed_origins}  -> {relay_url}: a relay on its own port whose
//     store lists `count` VODs for the dev user (titles "Library video n", ids from 900000), against the local service
import { serve, type ServerType } from '@hono/node-server';
import { createRelay } from '../../../src/relay/app.js';
import { SqliteStore } from '../../../src/relay/store/sqlite.js';
import { serviceOptions, type Stack } from '../servers.js';
import { readJson, type Ctx } from '../wtr-stack.js';
import { API_KEY_HEADER, FORMAT_HEADER, FORMAT_VALUE, paths } from '../../../src/service/types.js';

async function upstream(stack: Stack, method: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(stack.service.baseUrl + path, {
    method,
    headers: {
      [API_KEY_HEADER]: stack.service.apiKey,
      [FORMAT_HEADER]: FORMAT_VALUE,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A relay on its own loopback port whose library holds `count` VODs of the dev user. */
async function bigLibraryRelay(stack: Stack, count: number, allowedOrigins: string[]): Promise<string> {
  const store = new SqliteStore(':memory:');
  for (let i = 0; i < count; i++) await store.addContent({ type: 'vod', id: String(900_000 + i), owner: 'dev', title: `Library video ${i + 1}` });
  const target: { fetch?: (request: Request) => Response | Promise<Response> } = {};
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch: (request) => target.fetch!(request), hostname: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      target.fetch = createRelay({ ...serviceOptions(stack.service), publicUrl: origin, auth: 'dev', store, allowedOrigins, logger: () => {} }).fetch;
      server.unref();
      resolve(`${origin}/svc`);
    });
  });
}

export function middleware(state: { stack?: Stack }) {
  return async (ctx: Ctx, next: () => Promise<void>): Promise<void> => {
    if (!ctx.path.startsWith('/__playlist-editor/') || ctx.method !== 'POST') return next();
    const stack = state.stack;
    if (!stack) throw new Error('test stack not started');
    const body = ((await readJson(ctx.req)) ?? {}) as Record<string, unknown>;
    let result: { status: number; text: string };
    if (ctx.path === '/__playlist-editor/upstream-channel') {
      result = await upstream(stack, 'POST', paths.channels(), {
        title: String(body.title ?? 'Upstream-only channel'),
        description: 'Created on the service directly, so the relay does not know its type.',
        region: 'europe',
        rendition_count: 1,
      });
    } else if (ctx.path === '/__playlist-editor/big-library') {
      const url = await bigLibraryRelay(stack, Number(body.count), (body.allowed_origins as string[] | undefined) ?? []);
      result = { status: 200, text: JSON.stringify({ relay_url: url }) };
    } else if (ctx.path === '/__playlist-editor/upstream-content') {
      const items = (body.items as { id: string; type: string }[]).map((item, index) => ({
        id: item.id,
        type: item.type,
        position: String(index + 1),
      }));
      result = await upstream(stack, 'PUT', paths.playlistContent(String(body.playlist_id)), { content: items });
    } else {
      return next();
    }
    ctx.status = result.status;
    ctx.type = 'application/json';
    ctx.body = result.text;
  };
}
