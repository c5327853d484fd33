// The whole stack on loopback for tests: the local service (four origins, control API on; the
// observed profile with a consistency delay unless told otherwise) and the relay (dev identity,
// in-memory SQLite) on its own port, talking real HTTP to each other.
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createLocalService, type LocalService, type LocalServiceOptions } from '../../src/emulator/app.js';
import { createRelay, type Relay, type RelayOptions } from '../../src/relay/app.js';

export interface Stack {
  service: LocalService;
  /** e.g. http://127.0.0.1:40123/svc */
  relayUrl: string;
  /** The emulator's control API base, e.g. http://127.0.0.1:40120/_control */
  controlUrl: string;
  close(): Promise<void>;
}

/** The relay options that point a relay at this local service (with the seed profile: the seed's forms). */
export function serviceOptions(service: LocalService): Pick<
  RelayOptions,
  'apiKey' | 'baseUrl' | 'uploadUrl' | 'playerUrl' | 'iframeOrigins' | 'playlistUpdate' | 'playlistUpdateEnvelope' | 'playlistPositions'
> {
  const seed = service.profile === 'seed'
    ? { playlistUpdate: { method: 'PUT', path: '/v2/playlist/{playlistId}/content' }, playlistUpdateEnvelope: 'array' as const, playlistPositions: 'string' as const }
    : {};
  return { apiKey: service.apiKey, baseUrl: service.baseUrl, uploadUrl: service.uploadUrl, playerUrl: service.playerUrl, iframeOrigins: [service.iframeUrl], ...seed };
}

/** The consistency delay of the stack's local service unless a test asks for another. */
export const STACK_CONSISTENCY_MS = 800;

export async function startStack(
  options: { processingMs?: number; profile?: LocalServiceOptions['profile']; consistencyMs?: number; relay?: Partial<RelayOptions> } = {},
): Promise<Stack> {
  const service = await createLocalService({
    profile: options.profile ?? 'observed',
    consistencyMs: options.consistencyMs ?? STACK_CONSISTENCY_MS,
    apiPort: 0,
    uploadPort: 0,
    playerPort: 0,
    control: true,
    processingMs: options.processingMs ?? 300,
  });
  // The server must listen before the relay exists: the relay needs its URL for callbacks.
  const target: { relay?: Relay } = {};
  const server: Server = await new Promise((resolve) => {
    const s = createServer((incoming, outgoing) => target.relay!.requestListener(incoming, outgoing));
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const relay = createRelay({
    ...serviceOptions(service),
    publicUrl: origin,
    auth: 'dev',
    // A SQLite file, as the relay runs it: reloads and reconnects read what was stored.
    database: join(mkdtempSync(join(tmpdir(), 'svc-stack-')), 'relay.db'),
    // Every browser test file shares the one dev user: production limits would throttle the suite.
    rateLimits: {
      create: { limit: 10_000, windowMs: 60_000 },
      read: { limit: 100_000, windowMs: 60_000 },
      public: { limit: 100_000, windowMs: 60_000 },
    },
    ...options.relay,
  });
  target.relay = relay;
  return {
    service,
    relayUrl: `${origin}/svc`,
    controlUrl: `${service.baseUrl}/_control`,
    async close() {
      await relay.close();
      await new Promise((resolve) => server.close(resolve));
      await service.close();
    },
  };
}

/**
 * Uploads a real file through the relay the way a browser does (sign, post the form in order,
 * mark uploaded) and waits until the relay says it is ready. Returns the VOD id and upload id.
 */
export async function uploadVod(
  relayUrl: string,
  filePath: string,
  headers: Record<string, string> = {},
): Promise<{ upload_id: string; vod_id: string; title: string }> {
  const json = { 'Content-Type': 'application/json', 'X-Svc-Request': '1', ...headers };
  const bytes = await readFile(filePath);
  const signed = await fetch(`${relayUrl}/uploads`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ source: basename(filePath), size: bytes.length, type: 'video/mp4' }),
  });
  if (signed.status !== 201) throw new Error(`sign failed: ${signed.status} ${await signed.text()}`);
  const { upload_id, upload_url, fields } = (await signed.json()) as {
    upload_id: string;
    upload_url: string;
    fields: [string, string][];
  };
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'video/mp4' }), basename(filePath));
  const posted = await fetch(upload_url, { method: 'POST', body: form });
  if (!posted.ok) throw new Error(`upload failed: ${posted.status} ${await posted.text()}`);
  const marked = await fetch(`${relayUrl}/uploads/${upload_id}/uploaded`, { method: 'POST', headers: json, body: '{}' });
  if (!marked.ok) throw new Error(`mark uploaded failed: ${marked.status} ${await marked.text()}`);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const state = (await (await fetch(`${relayUrl}/uploads/${upload_id}`, { headers: json })).json()) as {
      state: string;
      vod?: { id: string; title: string };
    };
    if (state.state === 'ready' && state.vod) return { upload_id, vod_id: state.vod.id, title: state.vod.title };
    if (state.state === 'failed') throw new Error(`upload ${upload_id} failed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`upload ${upload_id} not ready in time`);
}
