// GET /events over real HTTP, as browsers see it through @hono/node-server: the headers the
// middleware set (CORS) with the stream's own, live events, replay after Last-Event-ID, a client
// that goes away, and the end of the streams when the relay closes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SqliteStore } from '../../src/relay/store/sqlite.js';
import { hashToken } from '../../src/relay/upload-tokens.js';
import { offlineOptions, startRelay, type RelayServer } from './helpers.js';

const CMS = 'https://cms.test';

/** Reads an event stream until `until` matches what arrived; fails after 5 s. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: RegExp, text = ''): Promise<string> {
  const decoder = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not in time: ${JSON.stringify(text)}`)), 5000);
  });
  try {
    while (!until.test(text)) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  return text;
}

describe('event stream over HTTP', () => {
  let store: SqliteStore;
  let server: RelayServer;
  before(async () => {
    store = new SqliteStore(':memory:');
    server = await startRelay((origin) => ({
      ...offlineOptions('events-key-' + randomBytes(8).toString('hex')),
      publicUrl: origin,
      auth: 'dev',
      store,
      allowedOrigins: [CMS],
      logger: () => {},
    }));
  });
  after(() => server.close());

  const open = (headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${server.url}/events`, { headers: { 'X-Svc-Request': '1', ...headers }, signal });

  it('answers with the stream headers and, cross-origin, the CORS ones', async () => {
    const controller = new AbortController();
    const response = await open({ Origin: CMS }, controller.signal);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(response.headers.get('access-control-allow-origin'), CMS);
    assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
    assert.match(await readUntil(response.body!.getReader(), /: connected\n\n/), /^retry: 2000\n/);
    controller.abort();
  });

  it('delivers stored events live, and replays after Last-Event-ID', async () => {
    const controller = new AbortController();
    const reader = (await open({}, controller.signal)).body!.getReader();
    await readUntil(reader, /: connected\n\n/);
    const { event } = await store.createUpload({ id: 'live-1', owner: 'dev', source: 'a.mp4', tokenHash: hashToken('live-1') });
    const text = await readUntil(reader, /"upload_id":"live-1"/);
    assert.match(text, new RegExp(`id: ${event.seq}\\nevent: upload\\ndata: \\{"upload_id":"live-1","source":"a.mp4","state":"signed"\\}\\n\\n`));
    controller.abort();

    const second = await store.createUpload({ id: 'live-2', owner: 'dev', source: 'b.mp4', tokenHash: hashToken('live-2') });
    const replay = new AbortController();
    const again = await readUntil((await open({ 'Last-Event-ID': String(event.seq) }, replay.signal)).body!.getReader(), /"upload_id":"live-2"/);
    assert.ok(!again.includes('"upload_id":"live-1"'), 'nothing already seen is sent again');
    assert.match(again, new RegExp(`id: ${second.event.seq}\\nevent: upload`));
    replay.abort();
  });

  it('keeps serving the others when a client goes away, and ends them when the relay closes', async () => {
    const gone = new AbortController();
    await readUntil((await open({}, gone.signal)).body!.getReader(), /: connected\n\n/);
    const staying = (await open()).body!.getReader();
    await readUntil(staying, /: connected\n\n/);
    gone.abort();
    // A write to the closed response must not disturb the stream that stays.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await store.createUpload({ id: 'after-abort', owner: 'dev', source: 'c.mp4', tokenHash: hashToken('after-abort') });
    await readUntil(staying, /"upload_id":"after-abort"/);
    const closing = server.relay.close();
    const end = await readUntil(staying, /event: close\ndata: \{"reason":"relay_closing"\}\n\n/);
    assert.match(end, /relay_closing/);
    assert.equal((await staying.read()).done, true, 'the response ends');
    await closing;
  });
});
