// Talking to the local service directly, as the relay does (X-Api-Key), and a sink that receives
// its upload-complete callbacks so a benchmark can create VODs without a relay or replay a
// callback at a moment of its choosing.
import { createServer, type Server } from 'node:http';

export interface ServiceInfo {
  baseUrl: string;
  uploadUrl: string;
  apiKey: string;
}

export const apiHeaders = (service: ServiceInfo) => ({ 'X-Api-Key': service.apiKey, 'X-Format': 'default' });

export interface Callback {
  path: string;
  contentType: string;
  body: Buffer;
  fileId: string | undefined;
  at: number;
}

export interface Sink {
  url: string;
  callbacks: Callback[];
  /** Resolves when `count` callbacks arrived in total. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const callbacks: Callback[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fileId = /name="file_id"\r\n(?:[^\r\n]+\r\n)*\r\n([^\r\n]*)/.exec(body.toString('latin1'))?.[1];
      callbacks.push({ path: req.url ?? '/', contentType: String(req.headers['content-type'] ?? ''), body, fileId, at: performance.now() });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    callbacks,
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (callbacks.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`only ${callbacks.length} of ${count} callbacks arrived`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Operation 1: an upload signature, as ordered [name, value] pairs. */
export async function sign(service: ServiceInfo, callbackUrl: string, source = 'bench.mp4'): Promise<[string, string][]> {
  const response = await fetch(`${service.baseUrl}/v2/vod`, {
    method: 'POST',
    headers: { ...apiHeaders(service), 'Content-Type': 'application/json' },
    body: JSON.stringify({ source, upload_type: 'ajax', callback_url: callbackUrl }),
  });
  if (!response.ok) throw new Error(`sign: ${response.status} ${await response.text()}`);
  return Object.entries((await response.json()) as Record<string, string>);
}

export const vodIdOf = (fields: [string, string][]) => /^vod\/([^/]+)\//.exec(fields.find(([n]) => n === 'key')?.[1] ?? '')?.[1];

/** Operation 2 with a small in-memory file. */
export async function post(service: ServiceInfo, fields: [string, string][], bytes: Uint8Array<ArrayBuffer>, name = 'bench.mp4'): Promise<void> {
  const form = new FormData();
  for (const [key, value] of fields) form.append(key, value);
  form.append('file', new Blob([bytes], { type: 'video/mp4' }), name);
  const response = await fetch(service.uploadUrl, { method: 'POST', body: form });
  if (!response.ok) throw new Error(`upload: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** Creates `count` ready VODs straight on the service (callbacks go to the sink); returns their ids. */
export async function createVods(service: ServiceInfo, sink: Sink, count: number, bytes: Uint8Array<ArrayBuffer>): Promise<string[]> {
  const before = sink.callbacks.length;
  const ids: string[] = [];
  const queue = Array.from({ length: count }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const fields = await sign(service, `${sink.url}/callback/${i}`, `bench-${i}.mp4`);
        await post(service, fields, bytes, `bench-${i}.mp4`);
        ids.push(vodIdOf(fields) ?? '');
      }
    }),
  );
  await sink.waitFor(before + count);
  return sink.callbacks.slice(before).map((c) => c.fileId ?? '').filter(Boolean);
}
