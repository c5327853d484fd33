// `npm run bench`: measures size, speed and memory against baselines measured in the same run,
// prints one table and writes bench/results.json. Never fails: a missed target is a row marked
// "missed", a part that cannot be measured a row marked "n/a".
//
//   npm run bench                      full run (a few minutes), writes bench/results.json, docs/performance.md and the README's script-tag costs
//   npm run bench -- --quick           short trial run, writes bench/tmp/results-quick.json
//   npm run bench -- --only=size,relay any of: size, relay, upload, ready, instances, player, click, wire, scale
//   npm run bench -- --only=ready,instances --update
//                                      re-measures those groups and merges them into bench/results.json, docs/performance.md and the README's script-tag costs
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cleanupAll, root } from './lib/proc.js';
import { spliceReadme } from '../scripts/build-docs.js';
import { PERFORMANCE_MARKERS, SCRIPT_TAG_MARKERS, performanceDoc, scriptTagCosts } from './lib/doc.js';
import { environment, formatTable, unavailable, type BenchContext, type Row } from './lib/report.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const update = args.includes('--update') && !quick && only !== undefined;

const benches: { key: string; group: string; title: string; timeoutMs: number; load: () => Promise<{ run(ctx: BenchContext): Promise<Row[]> }> }[] = [
  { key: 'size', group: '1 size', title: 'bundle size', timeoutMs: 60_000, load: () => import('./bundle-size.js') },
  { key: 'relay', group: '2 relay', title: 'relay throughput and overhead', timeoutMs: 120_000, load: () => import('./relay-throughput.js') },
  { key: 'relay', group: '2 relay', title: 'cached embed with many clients (rate limiter)', timeoutMs: 150_000, load: () => import('./many-clients.js') },
  { key: 'upload', group: '3 upload', title: 'upload throughput and service memory', timeoutMs: 180_000, load: () => import('./upload.js') },
  { key: 'ready', group: '4 ready', title: 'readiness latency with many SSE clients', timeoutMs: 120_000, load: () => import('./readiness.js') },
  { key: 'instances', group: '6 instances', title: 'three relay instances on one PostgreSQL', timeoutMs: 150_000, load: () => import('./instances.js') },
  { key: 'player', group: '5 player', title: 'time to player', timeoutMs: 90_000, load: () => import('./time-to-player.js') },
  { key: 'click', group: '7 click', title: 'click-to-load page of 20 players', timeoutMs: 90_000, load: () => import('./click-to-load.js') },
  { key: 'wire', group: '9 script tag', title: 'the script tag on the wire (loader, compression)', timeoutMs: 300_000, load: () => import('./script-tag.js') },
  { key: 'scale', group: '8 scale', title: 'at scale in the browser: 300 uploads, a big playlist', timeoutMs: 900_000, load: () => import('./scale.js') },
];

// Logs of the previous run's servers (bench/tmp is ignored by git).
rmSync(join(root, 'bench/tmp/logs'), { recursive: true, force: true });
const env = environment();
const started = performance.now();
const log = (message: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
const ctx: BenchContext = { quick, log };
// A benchmark's stray failure (a client stream cut when its server stops) must not end the run.
process.on('unhandledRejection', (reason) => log(`unhandled: ${reason instanceof Error ? reason.message : String(reason)}`));
process.on('uncaughtException', (error) => log(`uncaught: ${error.message}`));
// bin/svc-emulator.js and bench/servers/relay.ts run the compiled code in dist/ (as installed users
// get it): build it first. Should the build fail, dist/ is removed rather than measured: an older
// build would be reported as this commit (every row that needs it becomes n/a).
log('npm run build');
if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  log('build failed: dist/ removed; the relay, CLI and page rows will be n/a');
}
const rows: Row[] = [];
const timings: Record<string, number> = {};

for (const bench of benches) {
  if (only && !only.includes(bench.key)) continue;
  const t0 = performance.now();
  log(`${bench.title}${quick ? ' (quick)' : ''}`);
  try {
    const module = await bench.load();
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      module.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${bench.timeoutMs / 1000} s`)), bench.timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    rows.push(...result);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    log(`${bench.title} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    rows.push(unavailable(bench.group, bench.title, '', message.slice(0, 120)));
  } finally {
    await cleanupAll();
  }
  timings[bench.key] = Math.round(performance.now() - t0) / 1000;
  log(`${bench.title} done in ${timings[bench.key]} s`);
}

const seconds = Math.round(performance.now() - started) / 1000;
const table = formatTable(rows);
process.stdout.write(`\n${table}\n\n${quick ? 'quick mode: short trials, figures are indicative only\n' : ''}total ${seconds} s\n`);

const environmentNow = { ...env, load_average_1m_end: Math.round(loadavg()[0]! * 100) / 100 };
let results: Record<string, unknown> & Parameters<typeof performanceDoc>[0] = {
  mode: quick ? 'quick' : 'full',
  environment: environmentNow,
  duration_s: seconds,
  timings_s: timings,
  figures: rows,
  table,
};
if (update) {
  // The last full run, with the groups measured now replaced (a group that failed now keeps its old rows).
  const previous = JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8')) as typeof results;
  const measured = new Set(rows.filter((r) => r.value !== null).map((r) => r.group));
  const order = (group: string) => benches.findIndex((b) => b.group === group);
  const figures = [...previous.figures.filter((r) => !measured.has(r.group)), ...rows.filter((r) => measured.has(r.group))]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => order(a.r.group) - order(b.r.group) || a.i - b.i)
    .map(({ r }) => r);
  results = { ...previous, figures, table: formatTable(figures), updated: { groups: [...measured], environment: environmentNow, duration_s: seconds } };
}
const out = update ? join(root, 'bench/results.json') : quick || only ? join(root, 'bench/tmp/results-quick.json') : join(root, 'bench/results.json');
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
log(`wrote ${out.slice(root.length)}`);
if ((!quick && !only) || update) {
  const page = join(root, 'docs/performance.md');
  writeFileSync(page, spliceReadme(readFileSync(page, 'utf8'), performanceDoc(results), PERFORMANCE_MARKERS));
  log('wrote docs/performance.md');
  const costs = scriptTagCosts(results.figures);
  if (costs) {
    const readme = join(root, 'README.md');
    writeFileSync(readme, spliceReadme(readFileSync(readme, 'utf8'), costs, SCRIPT_TAG_MARKERS));
    log('wrote the script-tag costs in README.md');
  }
}
process.exit(0);
