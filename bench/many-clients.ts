// 2. Relay: the cost of a cached `GET /svc/embed/vod/<id>/javascript` does not grow with the number
// of clients the rate limiter counts. Two relays (own processes, SVC_TRUST_PROXY=1, the public
// limit raised out of the way) are sent requests from 1,000 and from 100,000 distinct client
// addresses (X-Forwarded-For), each address first once (priming, so that every one is counted in
// the last minute), then in turn: autocannon, 50 connections, A B B A halves of 2 s per run, five
// runs. Target: the median of the runs' ratios (time per request with 100,000 clients over time
// per request with 1,000) at most 1.2.
import autocannon from 'autocannon';
import { sampleVideo } from './lib/video.js';
import { uploadVod } from '../test/support/servers.js';
import { startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { median, medianOfRuns } from './lib/stats.js';

const G = '2 relay';
const RUNS = 5;
const FEW = 1_000;
const MANY = 100_000;

/** The n-th client address: distinct for every n below 2^24. */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** autocannon requests from `clients` addresses in turn, starting at `from`. */
function fromClients(url: string, clients: number, options: { seconds?: number; amount?: number; from?: number }) {
  let next = options.from ?? 0;
  const path = new URL(url).pathname;
  return autocannon({
    url,
    connections: 50,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds }),
    timeout: 10,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request) => ({ ...request, headers: { ...relayHeaders, 'x-forwarded-for': address(next++ % clients) } }),
      },
    ],
  }).then((result) => {
    if (result.errors || result.timeouts || result.non2xx) throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
    return result;
  });
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const half = ctx.quick ? 1 : 2;
  const runs = ctx.quick ? 2 : RUNS;
  const service = await startService();
  const options = { ...benchRelayOptions, trustProxy: 1 };
  const few = await startRelay(service, options);
  const many = await startRelay(service, options);
  try {
    const { vod_id } = await uploadVod(few.url, sampleVideo(), relayHeaders);
    const path = `/embed/vod/${encodeURIComponent(vod_id)}/javascript`;
    const targets = { few: { url: `${few.url}${path}`, clients: FEW }, many: { url: `${many.url}${path}`, clients: MANY } };
    for (const target of Object.values(targets)) {
      const first = await fetch(target.url, { headers: relayHeaders }); // caches the code
      if (!first.ok) throw new Error(`embed through the relay: ${first.status} ${await first.text()}`);
      await first.text();
      // Every client once: all of them are counted in the last minute from now on.
      await fromClients(target.url, target.clients, { amount: target.clients });
    }
    ctx.log(`  ${FEW.toLocaleString('en')} and ${MANY.toLocaleString('en')} clients primed; ${runs} runs of A B B A, ${half} s each`);
    type Kind = keyof typeof targets;
    const rps: Record<Kind, number[]> = { few: [], many: [] };
    const offset: Record<Kind, number> = { few: 0, many: 0 };
    for (let i = 0; i < runs; i++) {
      const results: Record<Kind, { requests: number; seconds: number }> = { few: { requests: 0, seconds: 0 }, many: { requests: 0, seconds: 0 } };
      for (const kind of ['few', 'many', 'many', 'few'] as const) {
        const result = await fromClients(targets[kind].url, targets[kind].clients, { seconds: half, from: offset[kind] });
        offset[kind] += result.requests.total;
        results[kind].requests += result.requests.total;
        results[kind].seconds += result.duration;
      }
      for (const kind of ['few', 'many'] as const) rps[kind].push(results[kind].requests / results[kind].seconds);
    }
    const ratios = rps.few.map((value, i) => value / rps.many[i]!);
    const ratio = median(ratios);
    const round = (values: number[]) => values.map((v) => Math.round(v * 100) / 100);
    const perRequestUs = (values: number[]) => values.map((v) => 1e6 / v);
    const manyRuns = medianOfRuns(perRequestUs(rps.many));
    return [
      row({
        group: G, figure: `cached embed GET with ${MANY.toLocaleString('en')} clients in the last minute, µs per request`,
        value: manyRuns.value, spread: manyRuns.spread, unit: 'µs',
        baseline: median(perRequestUs(rps.few)), baselineLabel: `${FEW.toLocaleString('en')} clients`,
        ratio, target: 'ratio <= 1.2', met: ratio <= 1.2,
        note: `µs per request = 1 / req/s at 50 connections; ratio = median of the runs' ratios (${round(ratios).join(', ')})`,
        details: { rps_per_run: { [FEW]: rps.few, [MANY]: rps.many }, ratio_per_run: round(ratios), runs, seconds_per_half: half, connections: 50 },
      }),
    ];
  } finally {
    await few.stop();
    await many.stop();
    await service.stop();
  }
}
