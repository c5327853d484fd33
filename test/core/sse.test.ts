import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelayClient, type UploadEvent } from '../../src/core/relay-client.js';
import { SvcError } from '../../src/core/errors.js';
import {
  SseParser,
  UploadWatcher,
  readEventStream,
  type SseEvent,
  type WatchMode,
} from '../../src/core/sse.js';

interface Parsed {
  events: SseEvent[];
  comments: string[];
  retries: number[];
}

function parse(chunks: string[]): Parsed {
  const out: Parsed = { events: [], comments: [], retries: [] };
  const parser = new SseParser({
    onEvent: (event) => out.events.push(event),
    onComment: (text) => out.comments.push(text),
    onRetry: (ms) => out.retries.push(ms),
  });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return out;
}

const ev = (data: string, type = 'message', lastEventId = ''): SseEvent => ({ type, data, lastEventId });

const CASES: { name: string; input: string; expected: Partial<Parsed> & { events: SseEvent[] } }[] = [
  { name: 'one event', input: 'data: hello\n\n', expected: { events: [ev('hello')] } },
  { name: 'multi-line data', input: 'data: a\ndata: b\ndata:\n\n', expected: { events: [ev('a\nb\n')] } },
  {
    name: 'relay upload event',
    input: 'id: 7\nevent: upload\ndata: {"upload_id":"u1","state":"ready"}\n\n',
    expected: { events: [ev('{"upload_id":"u1","state":"ready"}', 'upload', '7')] },
  },
  {
    name: 'comments and heartbeats',
    input: ': ping\n\n:no space\ndata: x\n\n',
    expected: { events: [ev('x')], comments: ['ping', 'no space'] },
  },
  { name: 'CRLF', input: 'data: a\r\ndata: b\r\n\r\n', expected: { events: [ev('a\nb')] } },
  { name: 'CR only', input: 'data: a\rdata: b\r\rdata: c\r\r', expected: { events: [ev('a\nb'), ev('c')] } },
  { name: 'mixed terminators', input: 'data: a\r\n\ndata: b\n\r\n', expected: { events: [ev('a'), ev('b')] } },
  { name: 'one leading space removed, no more', input: 'data:x\n\ndata:  y\n\n', expected: { events: [ev('x'), ev(' y')] } },
  { name: 'field without colon', input: 'data\n\n', expected: { events: [ev('')] } },
  {
    name: 'event type without data is not dispatched and does not leak',
    input: 'event: upload\n\ndata: y\n\n',
    expected: { events: [ev('y')] },
  },
  {
    name: 'ids persist, an empty id resets, NUL ids are ignored',
    input: 'id: 1\ndata: a\n\ndata: b\n\nid: 2\0\ndata: c\n\nid\ndata: d\n\n',
    expected: { events: [ev('a', 'message', '1'), ev('b', 'message', '1'), ev('c', 'message', '1'), ev('d')] },
  },
  {
    name: 'retry only with digits',
    input: 'retry: 3000\n\nretry: 1.5\nretry: x\nretry:250\n\n',
    expected: { events: [], retries: [3000, 250] },
  },
  { name: 'unknown fields ignored', input: 'foo: bar\ndata: z\nevent\n\n', expected: { events: [ev('z')] } },
  { name: 'unterminated last event discarded', input: 'data: a\n\ndata: b\n', expected: { events: [ev('a')] } },
  { name: 'byte order mark', input: '\uFEFFdata: a\n\n', expected: { events: [ev('a')] } },
  { name: 'colon in value', input: 'data: {"a":"b:c"}\n\n', expected: { events: [ev('{"a":"b:c"}')] } },
];

describe('SseParser', () => {
  for (const { name, input, expected } of CASES) {
    const want: Parsed = { comments: [], retries: [], ...expected };
    it(`${name}: whole`, () => assert.deepEqual(parse([input]), want));
    it(`${name}: split at every position`, () => {
      for (let i = 0; i <= input.length; i++) {
        assert.deepEqual(parse([input.slice(0, i), input.slice(i)]), want, `split at ${i}`);
      }
    });
    it(`${name}: one character at a time`, () => assert.deepEqual(parse([...input]), want));
  }

  it('exposes the last event id for reconnection', () => {
    const parser = new SseParser({ onEvent: () => undefined });
    parser.push('id: 41\ndata: a\n\nid: 42\n');
    assert.equal(parser.lastEventId, '42');
  });
});

/** A tiny relay stand-in on loopback: the test decides what each request gets. */
function relay(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler);
  const requests: IncomingMessage[] = [];
  server.on('request', (req) => requests.push(req));
  return {
    server,
    requests,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return new RelayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc` });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sseHead = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

describe('readEventStream', () => {
  const ready = JSON.stringify({ upload_id: 'u1', source: 'été.mp4', state: 'ready', vod: { id: '9', title: 'été' } });
  const body = Buffer.from(`: ping\n\nid: 5\nevent: upload\ndata: ${ready}\n\n`, 'utf8');
  const stub = relay((req, res) => {
    if (req.url === '/svc/events') {
      res.writeHead(200, sseHead);
      // Bytes split inside the multi-byte "é" and inside the CRLF-free terminator.
      const cut = body.indexOf(0xc3) + 1;
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 20);
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"internal","message":"no"}}');
  });
  let client: RelayClient;
  before(async () => (client = await stub.listen()));
  after(() => stub.close());

  it('reads events across chunk boundaries with the relay headers and Last-Event-ID', async () => {
    const events: SseEvent[] = [];
    const comments: string[] = [];
    let opened = 0;
    const result = await readEventStream({
      client,
      lastEventId: '4',
      onOpen: () => opened++,
      onEvent: (event) => events.push(event),
      onComment: (text) => comments.push(text),
    });
    assert.equal(opened, 1);
    assert.deepEqual(events, [{ type: 'upload', data: ready, lastEventId: '5' }]);
    assert.deepEqual(comments, ['ping']);
    assert.deepEqual(result, { lastEventId: '5', received: true });
    const request = stub.requests.at(-1)!;
    assert.equal(request.headers['last-event-id'], '4');
    assert.equal(request.headers['x-svc-request'], '1');
    assert.equal(request.headers.accept, 'text/event-stream');
  });

  it('rejects an answer that is not an event stream', async () => {
    await assert.rejects(
      readEventStream({ client, path: '/nope', onEvent: () => undefined }),
      (error: SvcError) => error instanceof SvcError && error.status === 500 && /HTTP 500/.test(error.message),
    );
  });

  it('rejects with aborted when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      readEventStream({ client, signal: controller.signal, onEvent: () => undefined }),
      (error: SvcError) => error.code === 'aborted',
    );
  });
});

function until<T>(predicate: () => T | undefined, label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const value = predicate();
      if (value) return resolve(value);
      if (Date.now() - started > 5000) return reject(new Error(`timed out waiting for ${label}`));
      setTimeout(check, 5);
    };
    check();
  });
}

describe('UploadWatcher', () => {
  it('reconnects with Last-Event-ID and catches up with GET when the stream opens', async () => {
    const lastIds: (string | undefined)[] = [];
    const stub = relay((req, res) => {
      if (req.url === '/svc/events') {
        lastIds.push(req.headers['last-event-id'] as string | undefined);
        res.writeHead(200, sseHead);
        if (lastIds.length === 1) {
          // First connection: one event for another upload, then the connection drops.
          res.end('retry: 10\nid: 1\nevent: upload\ndata: {"upload_id":"other","source":"o","state":"processing"}\n\n');
        } else {
          res.end('id: 2\nevent: upload\ndata: {"upload_id":"u1","source":"a.mp4","state":"ready","vod":{"id":"v1","title":"a"}}\n\n');
        }
        return;
      }
      if (req.url === '/svc/uploads/u1') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"upload_id":"u1","source":"a.mp4","state":"processing"}');
        return;
      }
      res.writeHead(404).end();
    });
    const client = await stub.listen();
    const events: UploadEvent[] = [];
    const modes: WatchMode[] = [];
    const watcher = new UploadWatcher({
      client,
      backoffMs: 10,
      onEvent: (event) => events.push(event),
      onModeChange: (mode) => modes.push(mode),
    });
    try {
      watcher.watch('u1');
      await until(() => events.find((e) => e.upload_id === 'u1' && e.state === 'ready'), 'ready event');
      assert.deepEqual(lastIds.slice(0, 2), [undefined, '1']);
      assert.ok(events.some((e) => e.upload_id === 'u1' && e.state === 'processing'), 'caught up with GET');
      assert.ok(events.some((e) => e.upload_id === 'other'), 'every upload event is passed on');
      assert.deepEqual(modes.slice(0, 3), ['streaming', 'reconnecting', 'streaming']);
      watcher.unwatch('u1');
      await until(() => watcher.mode === 'idle' || undefined, 'idle');
    } finally {
      watcher.close();
      await stub.close();
    }
  });

  it('falls back to polling GET /svc/uploads/{id} when the stream keeps failing', async () => {
    let polls = 0;
    let streamAttempts = 0;
    const stub = relay((req, res) => {
      if (req.url === '/svc/events') {
        streamAttempts++;
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"upstream_unavailable","message":"down"}}');
        return;
      }
      if (req.url === '/svc/uploads/u2') {
        polls++;
        res.writeHead(200, { 'content-type': 'application/json' });
        const state = polls < 3 ? '"processing"' : '"ready","vod":{"id":"v2","title":"b"}';
        res.end(`{"upload_id":"u2","source":"b.mp4","state":${state}}`);
        return;
      }
      res.writeHead(404).end();
    });
    const client = await stub.listen();
    const events: UploadEvent[] = [];
    const modes: WatchMode[] = [];
    const errors: SvcError[] = [];
    const watcher = new UploadWatcher({
      client,
      backoffMs: 5,
      maxFailures: 2,
      pollIntervalMs: 10,
      onEvent: (event) => events.push(event),
      onModeChange: (mode) => modes.push(mode),
      onError: (error) => errors.push(error),
    });
    try {
      watcher.watch('u2');
      const ready = await until(() => events.find((e) => e.state === 'ready'), 'ready by polling');
      assert.deepEqual(ready.vod, { id: 'v2', title: 'b' });
      assert.equal(streamAttempts, 2);
      assert.ok(modes.includes('polling'));
      assert.equal(errors.length, 2);
      assert.ok(errors.every((e) => e.code === 'upstream_unavailable' && e.status === 503));
    } finally {
      watcher.close();
      await stub.close();
    }
  });

  it('reports and drops an upload the relay does not know', async () => {
    const stub = relay((req, res) => {
      if (req.url === '/svc/events') {
        res.writeHead(200, sseHead);
        res.write(': ping\n\n'); // stays open
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"not_found","message":"Unknown upload."}}');
    });
    const client = await stub.listen();
    const errors: [string, string | undefined][] = [];
    const watcher = new UploadWatcher({
      client,
      onEvent: () => undefined,
      onError: (error, id) => errors.push([error.code, id]),
    });
    try {
      watcher.watch('gone');
      await until(() => errors.length > 0 || undefined, 'not_found');
      assert.deepEqual(errors, [['not_found', 'gone']]);
      assert.equal(watcher.watched.has('gone'), false);
    } finally {
      watcher.close();
      await stub.close();
    }
  });

  it('on event: reset drops its cursor, takes the relay\'s, and re-reads what it follows', async () => {
    const lastIds: (string | undefined)[] = [];
    let gets = 0;
    const stub = relay((req, res) => {
      if (req.url === '/svc/events') {
        lastIds.push(req.headers['last-event-id'] as string | undefined);
        res.writeHead(200, sseHead);
        if (lastIds.length === 1) res.end('retry: 10\nid: 900\nevent: upload\ndata: {"upload_id":"x","source":"x","state":"signed"}\n\n');
        else if (lastIds.length === 2) res.end('id: 3\nevent: reset\ndata: {"last_event_id":3}\n\n');
        else res.write(': open\n\n');
        return;
      }
      if (req.url === '/svc/uploads/u3') {
        gets++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(gets < 3 ? '{"upload_id":"u3","source":"c.mp4","state":"processing"}' : '{"upload_id":"u3","source":"c.mp4","state":"ready","vod":{"id":"v3","title":"c"}}');
        return;
      }
      res.writeHead(404).end();
    });
    const client = await stub.listen();
    const events: UploadEvent[] = [];
    const watcher = new UploadWatcher({ client, backoffMs: 5, onEvent: (event) => events.push(event) });
    try {
      watcher.watch('u3');
      await until(() => lastIds.length >= 3 || undefined, 'third connection');
      assert.deepEqual(lastIds.slice(0, 3), [undefined, '900', '3'], 'the reset id replaced the cursor');
      await until(() => events.find((e) => e.upload_id === 'u3' && e.state === 'ready'), 'ready by re-reading after the reset');
    } finally {
      watcher.close();
      await stub.close();
    }
  });

  it('reconnects at once when its token expired, and polls when it was pushed out by newer streams', async () => {
    let connections = 0;
    let polls = 0;
    const stub = relay((req, res) => {
      if (req.url === '/svc/events') {
        connections++;
        res.writeHead(200, sseHead);
        // retry: 60 s: only an immediate reconnect (token_expired) can open the second stream in time.
        if (connections === 1) res.end('retry: 60000\nevent: close\ndata: {"reason":"token_expired"}\n\n');
        else res.end('event: close\ndata: {"reason":"too_many_streams"}\n\n');
        return;
      }
      if (req.url === '/svc/uploads/u4') {
        polls++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"upload_id":"u4","source":"d.mp4","state":"processing"}');
        return;
      }
      res.writeHead(404).end();
    });
    const client = await stub.listen();
    const modes: WatchMode[] = [];
    const watcher = new UploadWatcher({ client, pollIntervalMs: 10, streamRetryEvery: 1000, onEvent: () => undefined, onModeChange: (mode) => modes.push(mode) });
    try {
      watcher.watch('u4');
      await until(() => (modes.includes('polling') && polls > 4) || undefined, 'polling after too_many_streams');
      assert.equal(connections, 2, 'no reconnect loop that would push another tab\'s stream out');
      assert.ok(!modes.includes('reconnecting'), 'token expiry reconnects without waiting');
    } finally {
      watcher.close();
      await stub.close();
    }
  });
});
