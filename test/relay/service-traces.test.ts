// The service's error bodies carry a human reason, a newline, then internal detail (a JSON trace
// and a request id): the caller gets the reason only, the relay's request line the rest, once.
// Against the local service's observed profile, which answers its errors in that form.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies and log lines are checked field by field */
import { it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { serve, type ServerType } from '@hono/node-server';
import { startStack, type Stack } from '../support/servers.js';
import { control, describeStores, json, logCapture, startRelay } from './helpers.js';

const H = { 'X-Svc-Request': '1' };

/** The relay's request lines for `path`, parsed. */
const requestLines = (lines: string[], path: string) =>
  lines.map((line) => JSON.parse(line)).filter((entry) => entry.event === 'request' && entry.path === path);

describeStores('service error traces', (store) => {
  let stack: Stack;
  const logs = logCapture();

  before(async () => {
    stack = await startStack({ relay: { logger: logs.sink, database: await store.database() } });
  });
  afterEach(() => control(stack.controlUrl, '/reset', {}));
  after(() => stack?.close());

  it('the local service answers a refusal as a reason, a newline and a JSON trace with a request id', async () => {
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/channel', status: 400, count: 1 });
    const response = await fetch(`${stack.service.baseUrl}/v2/channel`, {
      method: 'POST',
      headers: { 'X-Api-Key': stack.service.apiKey, 'X-Format': 'json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 't', description: '', region: 'europe', rendition_count: 1 }),
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { details: string };
    const [reason, trace, ...more] = body.details.split('\n');
    assert.equal(reason, 'Answer 400 injected by the control API.');
    assert.deepEqual(more, []);
    const parsed = JSON.parse(trace!);
    assert.match(parsed.request_id, /^r-[0-9a-f]{12}$/);
    assert.equal(typeof parsed.trace, 'string');
  });

  it('passes the first line to the caller and logs the trace and request id once, on the request line', async () => {
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/channel', status: 400, count: 1 });
    const from = logs.lines.length;
    const response = await fetch(`${stack.relayUrl}/channels`, json({ title: 'Refused', description: '', region: 'europe', rendition_count: 1 }, H));
    const body = (await response.json()) as any;
    assert.equal(response.status, 400);
    assert.equal(body.error.code, 'upstream_rejected');
    assert.equal(body.error.message, 'The service rejected POST /v2/channel (400): Answer 400 injected by the control API.');
    assert.doesNotMatch(JSON.stringify(body), /trace|request_id|r-[0-9a-f]{12}/);

    const lines = logs.lines.slice(from);
    const [line, ...others] = requestLines(lines, '/svc/channels');
    assert.equal(others.length, 0);
    assert.equal(line.status, 400);
    assert.match(line.upstream_request_id, /^r-[0-9a-f]{12}$/);
    assert.equal(JSON.parse(line.upstream_detail).request_id, line.upstream_request_id);
    assert.match(JSON.parse(line.upstream_detail).trace, /POST \/v2\/channel/);
    assert.equal(lines.filter((text) => text.includes(line.upstream_request_id)).length, 1, 'the request id is logged once');
  });

  it('logs the detail of a refusal the caller sees as not_found, and of a 5xx, which shows no reason', async () => {
    const id = 'p-missing-1';
    const from = logs.lines.length;
    const missing = await fetch(`${stack.relayUrl}/embed/playlist/${id}/javascript`);
    assert.equal(missing.status, 404);
    await control(stack.controlUrl, '/faults', { origin: 'api', method: 'POST', path: '/v2/playlist', status: 500, count: 1 });
    const failed = await fetch(`${stack.relayUrl}/playlists`, json({ title: 'x', description: '' }, H));
    assert.equal(failed.status, 502);
    assert.doesNotMatch(await failed.text(), /request_id|trace|injected/);
    const [notFound] = requestLines(logs.lines.slice(from), `/svc/embed/playlist/${id}/javascript`);
    assert.match(notFound.upstream_request_id, /^r-[0-9a-f]{12}$/);
    const [serverError] = requestLines(logs.lines.slice(from), '/svc/playlists');
    assert.match(serverError.upstream_detail, /^Answer 500 injected by the control API\.\n\{/);
    assert.match(serverError.upstream_request_id, /^r-[0-9a-f]{12}$/);
  });
});

/** A service that answers every request with one error body; for the shapes the local service does not use. */
async function refusingService(status: number, body: string, type = 'application/json'): Promise<{ url: string; close(): Promise<void> }> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(body, { status, headers: { 'Content-Type': type } }) }, () => resolve(s));
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const KEY = 'traces-key-0123456789abcdef';
const TRACE = { trace: 'at createChannel (channel.go:42)', request_id: 'r-51f0' };

/** Asks a relay in front of a service that refuses with `body` to create a channel; the answer and the relay's log lines. */
async function createAgainst(body: string, type = 'application/json'): Promise<{ response: Response; answer: any; lines: string[] }> {
  const service = await refusingService(400, body, type);
  const logs = logCapture();
  const relay = await startRelay({
    apiKey: KEY,
    baseUrl: service.url,
    uploadUrl: 'http://127.0.0.1:9/upload',
    playerUrl: 'http://127.0.0.1:9',
    auth: 'dev',
    database: ':memory:',
    logger: logs.sink,
  });
  try {
    const response = await fetch(`${relay.url}/channels`, json({ title: 'Taken', description: '', region: 'europe', rendition_count: 1 }, H));
    return { response, answer: await response.json(), lines: logs.lines };
  } finally {
    await relay.close();
    await service.close();
  }
}

for (const [name, body, type, reason] of [
  ['{details}', { details: `Channel title already in use\n${JSON.stringify(TRACE)}` }, 'application/json', 'Channel title already in use'],
  ['{message}', { message: `Channel title already in use\r\n${JSON.stringify(TRACE)}` }, 'application/json', 'Channel title already in use'],
  ['{errors: [...]}', { errors: [{ message: `too long\n${JSON.stringify(TRACE)}`, property: 'title' }] }, 'application/json', 'title: too long'],
  ['{error: {message}}', { error: { message: `Channel title already in use\n${JSON.stringify(TRACE)}` } }, 'application/json', 'Channel title already in use'],
  ['plain text', `Channel title already in use\n${JSON.stringify(TRACE)}`, 'text/plain', 'Channel title already in use'],
] as const) {
  it(`takes the first line of a ${name} refusal as the reason and logs the rest`, async () => {
    const { response, answer, lines } = await createAgainst(typeof body === 'string' ? body : JSON.stringify(body), type);
    assert.equal(response.status, 400);
    assert.equal(answer.error.message, `The service rejected POST /v2/channel (400): ${reason}`);
    const [line] = requestLines(lines, '/svc/channels');
    assert.equal(line.upstream_request_id, 'r-51f0');
    assert.equal(JSON.parse(line.upstream_detail).trace, TRACE.trace);
  });
}

it('scrubs the key and callback tokens from a logged trace', async () => {
  const trace = { trace: `key=${KEY} url=http://relay/svc/callbacks/upload/abcdefghijklmnop`, request_id: 'r-9' };
  const { response, lines } = await createAgainst(JSON.stringify({ details: `Nope\n${JSON.stringify(trace)}` }));
  assert.equal(response.status, 400);
  const [line] = requestLines(lines, '/svc/channels');
  assert.equal(line.upstream_request_id, 'r-9');
  assert.match(line.upstream_detail, /key=\[redacted\]/);
  assert.match(line.upstream_detail, /callbacks\/upload\/\[token\]/);
  assert.doesNotMatch(lines.join('\n'), new RegExp(KEY.slice(0, 12)));
});
