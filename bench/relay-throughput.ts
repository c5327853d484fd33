// 2. Relay throughput and overhead.
// * Cached `GET /svc/embed/vod/<id>/javascript` through the relay (own process, relay.requestListener)
//   against a bare node:http server (own process) answering the same JSON: autocannon, 50
//   connections, five runs of 2 s per target and half (A B C C B A) after a short warm-up.
//   Target: the median of the runs' ratios at least 0.7 of the bare server's req/s.
// * Uncached embed and playlist GET through the relay against the local service called directly
//   with X-Api-Key: sequential requests over keep-alive, interleaved. Target: at most 1 ms added
//   at the median. The embed cache is defeated with distinct VOD ids (one request per id).
import autocannon from 'autocannon';
import { sampleVideo } from './lib/video.js';
import { uploadVod } from '../test/support/servers.js';
import { closeAgents, interleaved } from './lib/http.js';
import { spawnReady, root, startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { apiHeaders, createVods, startSink } from './lib/service.js';
import { median, medianOfRuns, summary } from './lib/stats.js';
import { readFileSync } from 'node:fs';

const G = '2 relay';
/** The cached-embed figures are medians of this many runs. */
const RUNS = 5;

async function cannon(url: string, seconds: number, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 50, duration: seconds, headers, timeout: 10 });
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  return result;
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const half = ctx.quick ? 1 : 2;
  const sequential = ctx.quick ? 60 : 300;
  const service = await startService();
  const relay = await startRelay(service, benchRelayOptions);
  const sink = await startSink();
  try {
    const { vod_id } = await uploadVod(relay.url, sampleVideo(), relayHeaders);
    const embedUrl = `${relay.url}/embed/vod/${encodeURIComponent(vod_id)}/javascript`;
    const first = await fetch(embedUrl, { headers: relayHeaders });
    const body = await first.text();
    if (!first.ok) throw new Error(`embed through the relay: ${first.status} ${body}`);
    const bare = await spawnReady(`${root}bench/servers/bare.ts`, [body]);
    const hono = await spawnReady(`${root}bench/servers/hono-min.ts`, [body]);
    try {
      const path = `/svc/embed/vod/${encodeURIComponent(vod_id)}/javascript`;
      const targets = {
        bare: { url: `${String(bare.ready.url)}${path}`, headers: {} },
        hono: { url: `${String(hono.ready.url)}${path}`, headers: {} },
        relay: { url: embedUrl, headers: relayHeaders },
      };
      type Kind = keyof typeof targets;
      // Each run: two halves per target in A B C C B A order, so that drift in machine load (it is
      // shared) affects all alike. The figures are the medians of the runs' figures.
      ctx.log(`  autocannon, ${RUNS} runs of A B C C B A, ${half} s each, 50 connections`);
      for (const t of Object.values(targets)) await cannon(t.url, 1, t.headers);
      const perRun: Record<Kind, number[]> = { bare: [], hono: [], relay: [] };
      const latency: Record<Kind, { p50: number; p99: number }[]> = { bare: [], hono: [], relay: [] };
      for (let run = 0; run < RUNS; run++) {
        const results: Record<Kind, Awaited<ReturnType<typeof cannon>>[]> = { bare: [], hono: [], relay: [] };
        for (const kind of ['bare', 'hono', 'relay', 'relay', 'hono', 'bare'] as const) {
          results[kind].push(await cannon(targets[kind].url, half, targets[kind].headers));
        }
        for (const kind of Object.keys(results) as Kind[]) {
          const list = results[kind];
          perRun[kind].push(list.reduce((sum, r) => sum + r.requests.total, 0) / list.reduce((sum, r) => sum + r.duration, 0));
          latency[kind].push(...list.map((r) => ({ p50: r.latency.p50, p99: r.latency.p99 })));
        }
      }
      const ratios = (kind: Kind) => perRun[kind].map((rps, i) => rps / perRun.bare[i]!);
      const round = (values: number[]) => values.map((v) => Math.round(v * 100) / 100);
      const details = { rps_per_run: perRun, ratio_per_run: { relay: round(ratios('relay')), hono: round(ratios('hono')) }, latency_ms: latency, runs: RUNS, seconds_per_half: half, connections: 50 };
      const relayRuns = medianOfRuns(perRun.relay);
      const honoRuns = medianOfRuns(perRun.hono);
      const bareRps = median(perRun.bare);
      const relayRatio = median(ratios('relay'));
      rows.push(row({
        group: G, figure: 'cached embed GET through the relay, req/s', value: relayRuns.value, spread: relayRuns.spread, unit: 'req/s',
        baseline: bareRps, baselineLabel: 'bare node:http', ratio: relayRatio, target: 'ratio >= 0.7',
        met: relayRatio >= 0.7, note: `ratio = median of the runs' ratios (${round(ratios('relay')).join(', ')})`, details,
      }));
      rows.push(row({
        group: G, figure: 'same JSON from a minimal Hono app (framework ceiling)', value: honoRuns.value, spread: honoRuns.spread, unit: 'req/s',
        baseline: bareRps, baselineLabel: 'bare node:http', ratio: median(ratios('hono')), target: '', met: null,
        note: `diagnostic: @hono/node-server with no middleware; ratios ${round(ratios('hono')).join(', ')}`, details,
      }));
    } finally {
      await bare.stop();
      await hono.stop();
    }

    // Uncached embeds: one fresh VOD per relay request.
    const video = new Uint8Array(readFileSync(sampleVideo()));
    const ids = await createVods(service, sink, sequential + 20, video);
    ctx.log(`  ${ids.length} VODs made for uncached embeds; ${sequential} sequential requests per target`);
    const embedSamples = await interleaved(
      [
        { name: 'relay', url: (i) => `${relay.url}/embed/vod/${encodeURIComponent(ids[i]!)}/javascript`, headers: relayHeaders },
        { name: 'direct', url: (i) => `${service.baseUrl}/v2/vod/${encodeURIComponent(ids[i]!)}/embed/javascript`, headers: apiHeaders(service) },
      ],
      sequential + 20,
    );
    const drop = (s: number[]) => s.slice(20); // warm-up
    rows.push(added('uncached embed GET, added at the median', drop(embedSamples.relay!), drop(embedSamples.direct!)));

    // Playlist GET (never cached): a playlist holding the VOD.
    const created = await fetch(`${relay.url}/playlists`, {
      method: 'POST',
      headers: { ...relayHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Bench playlist', description: 'made by npm run bench' }),
    });
    const playlist = (await created.json()) as { id: string; save_date?: string };
    if (!created.ok) throw new Error(`create playlist: ${created.status} ${JSON.stringify(playlist)}`);
    const put = await fetch(`${relay.url}/playlists/${encodeURIComponent(playlist.id)}/content`, {
      method: 'PUT',
      headers: { ...relayHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: [{ id: vod_id, type: 'vod' }] }),
    });
    if (!put.ok) ctx.log(`  playlist content not set (${put.status}); measuring an empty playlist`);
    const playlistSamples = await interleaved(
      [
        { name: 'relay', url: () => `${relay.url}/playlists/${encodeURIComponent(playlist.id)}`, headers: relayHeaders },
        { name: 'direct', url: () => `${service.baseUrl}/v2/playlist/${encodeURIComponent(playlist.id)}`, headers: apiHeaders(service) },
      ],
      sequential + 20,
    );
    rows.push(added('playlist GET, added at the median', drop(playlistSamples.relay!), drop(playlistSamples.direct!)));
  } finally {
    closeAgents();
    await sink.close();
    await relay.stop();
    await service.stop();
  }
  return rows;
}

function added(figure: string, relay: number[], direct: number[]): Row {
  const value = median(relay) - median(direct);
  return row({
    group: G, figure, value, unit: 'ms', baseline: median(direct), baselineLabel: 'service direct, median',
    ratio: median(relay) / median(direct), target: '<= 1 ms added', met: value <= 1,
    note: 'ratio = relay median / direct median',
    details: { relay_ms: summary(relay), direct_ms: summary(direct) },
  });
}
