// Server-side helpers for the <svc-playlist-editor> browser tests. They call the local service
// directly with the API key, behind the relay's back, to make what the relay cannot know about:
//   POST /__playlist-editor/upstream-channel  {title}                       -> the channel (unknown to the relay)
//   POST /__playlist-editor/upstream-content  {playlist_id, items:[{id,type}]} -> the playlist as the service returns it
import type { Stack } from '../servers.js';
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
