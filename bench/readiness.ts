// 4. Readiness latency and relay memory with many SSE clients.
// The relay runs as its own process with its public URL pointed at a sink, so the local service's
// real upload-complete callbacks (multipart file_id and title) are captured there; the benchmark
// then replays each one to the relay and times from just before that POST to the `ready` event
// arriving in each of N clients reading `GET /svc/events` with fetch streaming (as the elements
// do). Targets: p99 under 50 ms with 1,000 clients; relay RSS under 200 MB with them connected.
import { readFileSync } from 'node:fs';
import { sampleVideo } from './lib/video.js';
import { rssMiB, startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { startSink } from './lib/service.js';
import { SseParser } from '../src/core/sse.js';
import { percentile, summary } from './lib/stats.js';

const G = '4 ready';
const MB = 1.048576; // MiB -> MB

interface Client {
  controller: AbortController;
  done: Promise<void>;
}

/** Soft limit of open files of this process (Node raises it to the hard limit at start). */
function openFileLimit(): number {
  try {
    const match = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return !match || match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return Infinity;
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const wanted = ctx.quick ? 100 : 1000;
  // Each client is one socket here and one in the relay; keep room for everything else.
  const clientCount = Math.min(wanted, Math.max(10, openFileLimit() - 200));
  if (clientCount < wanted) ctx.log(`  open-file limit allows only ${clientCount} clients (ulimit -n)`);
  const trials = ctx.quick ? 8 : 30;
  const service = await startService({ processingMs: 0 });
  const sink = await startSink();
  const relay = await startRelay(service, { ...benchRelayOptions, publicUrl: sink.url, heartbeatMs: 15_000 });
  const clients: Client[] = [];
  /** upload_id -> arrival times (performance.now()) of its ready event, one per client. */
  const arrivals = new Map<string, number[]>();
  const wake = new Set<() => void>();
  try {
    const video = new Uint8Array(readFileSync(sampleVideo()));
    const json = { ...relayHeaders, 'Content-Type': 'application/json' };

    // Uploads whose callbacks are captured, prepared before any client connects.
    const uploads: { uploadId: string; callbackIndex: number }[] = [];
    for (let i = 0; i < trials + 2; i++) {
      const signed = await fetch(`${relay.url}/uploads`, {
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
      const marked = await fetch(`${relay.url}/uploads/${body.upload_id}/uploaded`, { method: 'POST', headers: json, body: '{}' });
      if (!marked.ok) throw new Error(`uploaded: ${marked.status} ${await marked.text()}`);
      await marked.arrayBuffer();
      uploads.push({ uploadId: body.upload_id, callbackIndex: i });
    }
    await sink.waitFor(uploads.length);
    const byTitle = new Map(sink.callbacks.map((c) => [/name="title"\r\n(?:[^\r\n]+\r\n)*\r\n([^\r\n]*)/.exec(c.body.toString('latin1'))?.[1], c]));

    await new Promise((resolve) => setTimeout(resolve, 300));
    const idle = rssMiB(relay.pid) * MB;

    ctx.log(`  connecting ${clientCount} SSE clients`);
    const connect = async () => {
      const controller = new AbortController();
      const response = await fetch(`${relay.url}/events`, {
        headers: { ...relayHeaders, Accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) throw new Error(`events: ${response.status} ${await response.text()}`);
      // A reader, a streaming TextDecoder and the elements' own SSE parser (src/core/sse.ts).
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let now = 0;
      const parser = new SseParser({
        onEvent(event) {
          if (event.type !== 'upload') return;
          const data = JSON.parse(event.data) as { upload_id: string; state: string };
          if (data.state !== 'ready') return;
          let list = arrivals.get(data.upload_id);
          if (!list) arrivals.set(data.upload_id, (list = []));
          list.push(now);
          if (list.length >= clientCount) for (const w of wake) w();
        },
      });
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
      clients.push({ controller, done });
    };
    for (let i = 0; i < clientCount; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, clientCount - i) }, connect));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const connected = rssMiB(relay.pid) * MB;

    ctx.log(`  ${trials} callbacks replayed, each to ${clientCount} clients`);
    const latencies: number[] = [];
    const perTrialP99: number[] = [];
    /** How long the relay took to answer the callback itself (store write, fan-out started). */
    const callbackAnswer: number[] = [];
    let missing = 0;
    // The first two callbacks warm the route up and are not counted.
    for (const [i, upload] of uploads.entries()) {
      const callback = byTitle.get(`ready-${upload.callbackIndex}.mp4`) ?? sink.callbacks[upload.callbackIndex]!;
      const all = new Promise<void>((resolve) => {
        const check = () => {
          if ((arrivals.get(upload.uploadId)?.length ?? 0) >= clientCount) {
            wake.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          wake.delete(check);
          resolve();
        }, 5000);
        wake.add(check);
      });
      const t0 = performance.now();
      const answer = await fetch(`${relay.origin}${callback.path}`, {
        method: 'POST', headers: { 'Content-Type': callback.contentType }, body: new Uint8Array(callback.body),
      });
      await answer.arrayBuffer();
      const answered = performance.now() - t0;
      if (!answer.ok) throw new Error(`callback replay: ${answer.status}`);
      await all;
      const times = arrivals.get(upload.uploadId) ?? [];
      if (i >= 2) {
        missing += clientCount - times.length;
        const trial = times.map((t) => t - t0);
        latencies.push(...trial);
        perTrialP99.push(percentile(trial, 99));
        callbackAnswer.push(answered);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = rssMiB(relay.pid) * MB;
    const p99 = percentile(latencies, 99);
    const p50 = percentile(latencies, 50);
    return [
      row({
        group: G, figure: `callback -> ready event, p99 (${clientCount} SSE clients)`, value: p99, unit: 'ms',
        baseline: p50, baselineLabel: 'p50', target: '< 50 ms', met: clientCount < wanted ? null : missing === 0 && p99 < 50,
        note: [missing ? `${missing} events never arrived` : '', clientCount < wanted ? `only ${clientCount} clients: raise ulimit -n` : '']
          .filter(Boolean).join('; ') || undefined,
        details: { latency_ms: summary(latencies), callback_answer_ms: summary(callbackAnswer), per_trial_p99_ms: perTrialP99, trials, clients: clientCount, missing },
      }),
      row({
        group: G, figure: `relay RSS with ${clientCount} SSE clients`, value: Math.max(connected, after), unit: 'MB',
        baseline: idle, baselineLabel: 'relay idle', target: '< 200 MB', met: clientCount < wanted ? null : Math.max(connected, after) < 200,
        details: { idle_mb: idle, connected_mb: connected, after_trials_mb: after },
      }),
    ];
  } finally {
    for (const client of clients) client.controller.abort();
    await Promise.allSettled(clients.map((c) => c.done));
    await relay.stop();
    await sink.close();
    await service.stop();
  }
}
