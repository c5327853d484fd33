// 4. Readiness latency and relay memory with many SSE clients.
// The relay runs as its own process with its public URL pointed at a sink, so the local service's
// real upload-complete callbacks (multipart file_id and title) are captured there; the benchmark
// then replays each one to the relay and times from just before that POST to the `ready` event
// arriving in each of N clients reading `GET /svc/events`. Targets: p99 under 50 ms with 1,000
// clients; relay RSS under 200 MB with them.
// The clients are node:http requests read by the elements' own SSE parser (src/core/sse.ts): real
// HTTP (chunked bodies, one socket each) at the least cost a correct reader has, because all 1,000
// run in this one process, on the 2 CPUs the relay also uses, and whatever they spend is added to
// the last arrivals. Two diagnostic passes show that cost: the same clients over fetch streaming
// (what a browser page does, here 1,000 WHATWG streams on one thread) and raw sockets (no HTTP
// parsing at all).
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { SseParser } from '../src/core/sse.js';
import { rssMiB, startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { startSink, type Callback, type Sink } from './lib/service.js';
import { medianOfRuns, percentile, splitRuns, summary } from './lib/stats.js';
import { sampleVideo } from './lib/video.js';

const G = '4 ready';
/** Each p99 is the median of this many runs of consecutive callbacks (to the same clients). */
const RUNS = 3;
const MB = 1.048576; // MiB -> MB

/** Soft limit of open files of this process (Node raises it to the hard limit at start). */
export function openFileLimit(): number {
  try {
    const match = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return !match || match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return Infinity;
  }
}

/** Arrival times (performance.now()) of each upload's `ready` event, one per client. */
export class Arrivals {
  readonly times = new Map<string, number[]>();
  readonly #wake = new Set<() => void>();

  constructor(readonly clients: number) {}

  add(uploadId: string, at: number): void {
    let list = this.times.get(uploadId);
    if (!list) this.times.set(uploadId, (list = []));
    list.push(at);
    if (list.length >= this.clients) for (const wake of this.#wake) wake();
  }

  /** Resolves when every client has the event, or after `timeoutMs`. */
  all(uploadId: string, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if ((this.times.get(uploadId)?.length ?? 0) < this.clients) return;
        this.#wake.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#wake.delete(check);
        resolve();
      }, timeoutMs);
      this.#wake.add(check);
      check();
    });
  }
}

export type Stop = () => Promise<void>;

const eventHeaders = { ...relayHeaders, Accept: 'text/event-stream' };

/** The elements' SSE parser, recording when each `ready` upload event arrived (`at()`: its chunk's time). */
function readyParser(arrivals: Arrivals, at: () => number): SseParser {
  return new SseParser({
    onEvent(event) {
      if (event.type !== 'upload') return;
      const data = JSON.parse(event.data) as { upload_id: string; state: string };
      if (data.state === 'ready') arrivals.add(data.upload_id, at());
    },
  });
}

/** A node:http request on its own socket, its body decoded as it comes and read by src/core/sse.ts. */
export async function httpClient(url: string, arrivals: Arrivals): Promise<Stop> {
  const request = httpRequest(url, { agent: false, headers: eventHeaders });
  const response: IncomingMessage = await new Promise((resolve, reject) => {
    request.once('response', resolve).once('error', reject).end();
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(`events: ${response.statusCode}`);
  }
  let now = 0;
  const parser = readyParser(arrivals, () => now);
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    now = performance.now();
    parser.push(chunk);
  });
  response.on('error', () => {}); // the stop below, or the relay closing
  return async () => {
    request.destroy();
  };
}

/** A browser-like client: fetch streaming, a streaming TextDecoder and src/core/sse.ts. */
export async function fetchClient(url: string, arrivals: Arrivals): Promise<Stop> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: eventHeaders, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`events: ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let now = 0;
  const parser = readyParser(arrivals, () => now);
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      now = performance.now();
      parser.push(decoder.decode(value, { stream: true }));
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return async () => {
    controller.abort();
    await done.catch(() => {});
  };
}

/** The cheapest reader: a raw socket, the request written by hand, the event found by regex. */
async function rawClient(url: string, arrivals: Arrivals): Promise<Stop> {
  const { hostname, port, pathname } = new URL(url);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = netConnect({ host: hostname, port: Number(port) }, () => resolve(s));
    s.once('error', reject);
  });
  socket.setEncoding('latin1');
  let buffer = '';
  let headersDone = false;
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: string) => {
      const now = performance.now();
      buffer += chunk;
      if (!headersDone) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!/^HTTP\/1\.1 200/.test(buffer)) return reject(new Error(`events: ${buffer.split('\r\n')[0]}`));
        headersDone = true;
        buffer = buffer.slice(end + 4);
        resolve();
      }
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.includes('"state":"ready"')) continue;
        const id = /"upload_id":"([^"]+)"/.exec(block)?.[1];
        if (id) arrivals.add(id, now);
      }
    });
    socket.once('error', reject);
  });
  const headers = Object.entries(eventHeaders).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${headers}\r\n`);
  await ready;
  socket.on('error', () => {});
  return async () => {
    socket.destroy();
  };
}

/**
 * Uploads signed through the relay at `relayUrl` (whose public URL is the sink), posted and marked
 * uploaded; returns each with the service's real callback, captured by the sink, not yet delivered.
 */
export async function prepareUploads(relayUrl: string, sink: Sink, count: number, video: Uint8Array<ArrayBuffer>) {
  const json = { ...relayHeaders, 'Content-Type': 'application/json' };
  const uploads: { uploadId: string; callback: Callback }[] = [];
  const before = sink.callbacks.length;
  for (let i = 0; i < count; i++) {
    const signed = await fetch(`${relayUrl}/uploads`, {
      method: 'POST', headers: json, body: JSON.stringify({ source: `ready-${i}.mp4`, size: video.length, type: 'video/mp4' }),
    });
    const body = (await signed.json()) as { upload_id: string; upload_url: string; fields: [string, string][] };
    if (signed.status !== 201) throw new Error(`sign: ${signed.status} ${JSON.stringify(body)}`);
    const form = new FormData();
    for (const [name, value] of body.fields) form.append(name, value);
    form.append('file', new Blob([video], { type: 'video/mp4' }), `ready-${i}.mp4`);
    const posted = await fetch(body.upload_url, { method: 'POST', body: form });
    if (!posted.ok) throw new Error(`upload: ${posted.status} ${await posted.text()}`);
    await posted.arrayBuffer();
    const marked = await fetch(`${relayUrl}/uploads/${body.upload_id}/uploaded`, { method: 'POST', headers: json, body: '{}' });
    if (!marked.ok) throw new Error(`uploaded: ${marked.status} ${await marked.text()}`);
    await marked.arrayBuffer();
    await sink.waitFor(before + i + 1);
    uploads.push({ uploadId: body.upload_id, callback: sink.callbacks[before + i]! });
  }
  return uploads;
}

/** Opens `count` clients, 50 at a time, the i-th on `url(i)`. */
export async function connectClients(count: number, url: (i: number) => string, open: typeof fetchClient, arrivals: Arrivals): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < count; i += 50) {
    stops.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(url(i + j), arrivals)))));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return stops;
}

/**
 * Replays each upload's captured callback to `origin(i)` and times, from just before the POST,
 * the `ready` event in every client. The first `warmup` callbacks warm the route up and are not
 * counted; each counted one is a trial (its latencies, one per client that got the event).
 */
export async function replayCallbacks(uploads: { uploadId: string; callback: Callback }[], origin: (i: number) => string, arrivals: Arrivals, warmup: number) {
  const trials: number[][] = [];
  /** How long the relay took to answer the callback itself (store write, fan-out started). */
  const answers: number[] = [];
  let missing = 0;
  for (const [i, { uploadId, callback }] of uploads.entries()) {
    const all = arrivals.all(uploadId);
    const t0 = performance.now();
    const answer = await fetch(`${origin(i)}${callback.path}`, {
      method: 'POST', headers: { 'Content-Type': callback.contentType }, body: new Uint8Array(callback.body),
    });
    await answer.arrayBuffer();
    const answered = performance.now() - t0;
    if (!answer.ok) throw new Error(`callback replay: ${answer.status}`);
    await all;
    if (i >= warmup) {
      const trial = (arrivals.times.get(uploadId) ?? []).map((t) => t - t0);
      missing += arrivals.clients - trial.length;
      trials.push(trial);
      answers.push(answered);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { trials, answers, missing };
}

/** The p99 of each of `runs` runs of consecutive trials, their median and spread, and every latency. */
export function p99OfRuns(trials: number[][], runs: number) {
  const perRun = splitRuns(trials, runs).map((run) => percentile(run.flat(), 99));
  return { ...medianOfRuns(perRun), perRun, latencies: trials.flat() };
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const wanted = ctx.quick ? 100 : 1000;
  // Each client is one socket here and one in the relay; keep room for everything else.
  const clientCount = Math.min(wanted, Math.max(10, openFileLimit() - 200));
  if (clientCount < wanted) ctx.log(`  open-file limit allows only ${clientCount} clients (ulimit -n)`);
  const trials = ctx.quick ? 9 : 30;
  const warmup = 2;
  const service = await startService({ processingMs: 0 });
  const sink = await startSink();
  const relay = await startRelay(service, { ...benchRelayOptions, publicUrl: sink.url, heartbeatMs: 15_000 });
  const stops: Stop[] = [];
  const closeClients = async () => {
    await Promise.allSettled(stops.splice(0).map((stop) => stop()));
  };
  try {
    const video = new Uint8Array(readFileSync(sampleVideo()));

    // Uploads whose callbacks are captured, prepared before any client connects.
    const clients = { http: httpClient, fetch: fetchClient, raw: rawClient };
    const passes = Object.keys(clients).length;
    const uploads = await prepareUploads(relay.url, sink, passes * (trials + warmup), video);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idle = rssMiB(relay.pid) * MB;

    const pass = async (kind: keyof typeof clients, batch: { uploadId: string; callback: Callback }[]) => {
      const arrivals = new Arrivals(clientCount);
      ctx.log(`  ${kind}: connecting ${clientCount} SSE clients, then ${trials} callbacks replayed to all`);
      stops.push(...(await connectClients(clientCount, () => `${relay.url}/events`, clients[kind], arrivals)));
      const connected = rssMiB(relay.pid) * MB;
      const { trials: counted, answers, missing } = await replayCallbacks(batch, () => relay.origin, arrivals, warmup);
      const after = rssMiB(relay.pid) * MB;
      await closeClients();
      return { ...p99OfRuns(counted, RUNS), perTrialP99: counted.map((trial) => Math.round(percentile(trial, 99) * 10) / 10), answers, missing, connected, after };
    };

    const batch = (i: number) => uploads.slice(i * (trials + warmup), (i + 1) * (trials + warmup));
    const http = await pass('http', batch(0));
    const browserLike = await pass('fetch', batch(1));
    const raw = await pass('raw', batch(2));
    const note = (missing: number) =>
      [missing ? `${missing} events never arrived` : '', clientCount < wanted ? `only ${clientCount} clients: raise ulimit -n` : '']
        .filter(Boolean).join('; ') || undefined;
    const details = (r: typeof raw) => ({
      latency_ms: summary(r.latencies),
      callback_answer_ms: summary(r.answers),
      per_trial_p99_ms: r.perTrialP99,
      per_run_p99_ms: r.perRun,
      trials,
      runs: RUNS,
      clients: clientCount,
      missing: r.missing,
    });
    const memory = Math.max(http.connected, http.after, browserLike.connected, browserLike.after);
    const diagnostic = (r: typeof raw, what: string) =>
      row({
        group: G, figure: `same, ${clientCount} ${what}`, value: r.value, spread: r.spread, unit: 'ms',
        baseline: percentile(r.latencies, 50), baselineLabel: 'p50', target: '', met: null,
        note: note(r.missing) ?? 'diagnostic: what the clients cost', details: details(r),
      });
    return [
      row({
        group: G, figure: `callback -> ready event, p99 (${clientCount} SSE clients: node:http + src/core/sse.ts)`, value: http.value, spread: http.spread, unit: 'ms',
        baseline: percentile(http.latencies, 50), baselineLabel: 'p50', target: '<= 50 ms',
        met: clientCount < wanted ? null : http.missing === 0 && http.value <= 50,
        note: note(http.missing), details: details(http),
      }),
      diagnostic(browserLike, 'fetch-streaming clients (browser-like, all on one thread)'),
      diagnostic(raw, 'raw-socket clients (no HTTP parsing)'),
      row({
        group: G, figure: `relay RSS with ${clientCount} SSE clients`, value: memory, unit: 'MB',
        baseline: idle, baselineLabel: 'relay idle', target: '< 200 MB', met: clientCount < wanted ? null : memory < 200,
        details: { idle_mb: idle, http_pass_connected_mb: http.connected, fetch_pass_connected_mb: browserLike.connected, after_trials_mb: browserLike.after, raw_pass_connected_mb: raw.connected },
      }),
    ];
  } finally {
    await closeClients();
    await relay.stop();
    await sink.close();
    await service.stop();
  }
}
