// 6. Several relay instances on one PostgreSQL (a throwaway cluster, as the tests start it).
// * Callback -> ready latency: 3 relay processes on one database, 1,000 fetch-streaming SSE
//   clients spread over them (334/333/333), the captured callbacks replayed to the instances in
//   turn; latency from just before the POST to the `ready` event parsed in every client, so it
//   includes the NOTIFY fan-out to the other two instances. Target: p99 <= 100 ms. Group 4 has
//   the same measurement for one relay on SQLite.
// * Cached-embed throughput: autocannon against 1 instance (50 connections) and against 3 at once
//   (17 + 17 + 16 connections), in A B B A halves. On a machine with 2 shared cores more processes
//   cannot add CPU; the figure shows what the instances cost or gain here.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { serverBinaries, startCluster } from '../test/support/postgres.js';
import { Arrivals, connectClients, fetchClient, openFileLimit, prepareUploads, replayCallbacks, type Stop } from './readiness.js';
import { onCleanup, startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { createVods, startSink } from './lib/service.js';
import { percentile, summary } from './lib/stats.js';
import { sampleVideo } from './lib/video.js';

const G = '6 instances';
const INSTANCES = 3;

async function database(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`).finally(() => client.end());
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

async function cannon(urls: string[], connections: number, seconds: number): Promise<{ rps: number; p99: number[] }> {
  const results = await Promise.all(
    urls.map((url, i) => {
      const share = Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
      return autocannon({ url, connections: share, duration: seconds, headers: relayHeaders, timeout: 10 });
    }),
  );
  for (const r of results) if (r.errors || r.timeouts || r.non2xx) throw new Error(`${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return { rps: results.reduce((sum, r) => sum + r.requests.total / r.duration, 0), p99: results.map((r) => r.latency.p99) };
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const bin = serverBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries not installed (apt install postgresql)');
  const cluster = await startCluster(bin);
  const forget = onCleanup(async () => cluster.stop());
  const wanted = ctx.quick ? 100 : 1000;
  const clientCount = Math.min(wanted, Math.max(10, openFileLimit() - 300));
  const trials = ctx.quick ? 8 : 30;
  const warmup = 2;
  const seconds = ctx.quick ? 2 : 10;
  const service = await startService({ processingMs: 0 });
  const sink = await startSink();
  const stops: Stop[] = [];
  try {
    const url = await database(cluster.url, 'bench');
    const options = { ...benchRelayOptions, database: url, publicUrl: sink.url, heartbeatMs: 15_000 };
    const relays = await Promise.all(Array.from({ length: INSTANCES }, () => startRelay(service, options)));
    const video = new Uint8Array(readFileSync(sampleVideo()));

    // Readiness over 3 instances.
    const uploads = await prepareUploads(relays[0]!.url, sink, trials + warmup, video);
    const arrivals = new Arrivals(clientCount);
    ctx.log(`  connecting ${clientCount} SSE clients over ${INSTANCES} instances on one PostgreSQL, then ${trials} callbacks`);
    stops.push(...(await connectClients(clientCount, (i) => `${relays[i % INSTANCES]!.url}/events`, fetchClient, arrivals)));
    const { trials: counted, missing } = await replayCallbacks(uploads, (i) => relays[i % INSTANCES]!.origin, arrivals, warmup);
    const latencies = counted.flat();
    await Promise.allSettled(stops.splice(0).map((stop) => stop()));
    const p99 = percentile(latencies, 99);

    // Cached-embed throughput, 1 instance against 3.
    const [vodId] = await createVods(service, sink, 1, video);
    const embeds = relays.map((relay) => `${relay.url}/embed/vod/${encodeURIComponent(vodId!)}/javascript`);
    for (const embed of embeds) if (!(await fetch(embed, { headers: relayHeaders })).ok) throw new Error('embed through the relay failed');
    ctx.log(`  autocannon ${seconds} s per target (1 instance, ${INSTANCES} instances; two halves, A B B A), 50 connections`);
    await cannon(embeds, 50, 1);
    const runs = { one: [] as number[], all: [] as number[] };
    for (const kind of ['one', 'all', 'all', 'one'] as const) {
      runs[kind].push((await cannon(kind === 'one' ? embeds.slice(0, 1) : embeds, 50, seconds / 2)).rps);
    }
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    await Promise.all(relays.map((relay) => relay.stop()));
    return [
      row({
        group: G, figure: `callback -> ready event, p99 (${clientCount} SSE clients over ${INSTANCES} instances, one PostgreSQL)`, value: p99, unit: 'ms',
        baseline: percentile(latencies, 50), baselineLabel: 'p50', target: '<= 100 ms',
        met: clientCount < wanted ? null : missing === 0 && p99 <= 100,
        note: missing ? `${missing} events never arrived` : 'single-instance SQLite figure: group 4',
        details: { latency_ms: summary(latencies), trials, clients: clientCount, instances: INSTANCES, missing },
      }),
      row({
        group: G, figure: `cached embed GET, ${INSTANCES} instances together, req/s`, value: mean(runs.all), unit: 'req/s',
        baseline: mean(runs.one), baselineLabel: '1 instance', target: '', met: null,
        note: 'same 2 shared cores for all instances and the load generator',
        details: { runs, seconds_per_target: seconds, connections: 50 },
      }),
    ];
  } finally {
    await Promise.allSettled(stops.map((stop) => stop()));
    await sink.close();
    await service.stop();
    forget();
    cluster.stop();
  }
}
