// docs/performance.md's figures, written by every full run between these markers.
import type { Row } from './report.js';
import { formatTable, num } from './report.js';

export const PERFORMANCE_MARKERS = {
  start: '<!-- performance:start (written by `npm run bench`; do not edit) -->',
  end: '<!-- performance:end -->',
};

export function performanceDoc(results: {
  environment: {
    date: string;
    node: string;
    cpu_count: number;
    cpu_model: string;
    memory_mb: number;
    platform: string;
    load_average_1m: number;
    load_average_1m_end: number;
  };
  duration_s: number;
  figures: Row[];
  /** Set by `npm run bench -- --only=… --update`: groups re-measured after the full run. */
  updated?: { groups: string[]; environment: { date: string; load_average_1m: number; load_average_1m_end: number }; duration_s: number };
}): string {
  const env = results.environment;
  // Tag names in backticks so Markdown does not take them for HTML.
  const tick = (text: string) => text.replace(/<(svc-[a-z-]+)>/g, '`<$1>`');
  const table = formatTable(results.figures.map((r) => ({ ...r, figure: tick(r.figure), note: r.note && tick(r.note) })));
  const missed = results.figures
    .filter((r) => r.met === false)
    .map((r) => `* ${tick(r.figure)}: ${num(r.value, r.unit)}${r.ratio !== null ? ` (ratio ${r.ratio.toFixed(2)})` : ''}, target ${r.target}`);
  return `## Performance

Every figure is measured against a baseline measured in the same run on the same machine, so the
ratio says how close we are to what the machine allows. The machine is shared with other work,
so figures move from run to run (throughput and tail latencies by 10 to 30 %); ratios of two
measurements taken side by side move less than absolute values.

Latest run: ${env.date.slice(0, 16).replace('T', ' ')} UTC, Node ${env.node}, ${env.platform}, ${env.cpu_count} CPUs (${env.cpu_model}),
${Math.round(env.memory_mb / 1024)} GB; \`npm run bench\` took ${Math.round(results.duration_s)} s; 1-minute load average ${env.load_average_1m} at the
start and ${env.load_average_1m_end} at the end.${
    results.updated
      ? `\nRe-measured with \`--update\` on ${results.updated.environment.date.slice(0, 16).replace('T', ' ')} UTC (1-minute load average ${results.updated.environment.load_average_1m} at the start, ${results.updated.environment.load_average_1m_end} at the end): ${results.updated.groups.join(', ')}.`
      : ''
  }

${table}

${missed.length ? `Missed targets:\n\n${missed.join('\n')}\n` : 'Every target was met.\n'}
### What is measured, against what

1. **Bundle size**: minified (esbuild) and gzipped (level 9), 1 KB = 1024 bytes. "Own code" is an
   element's define module bundled with Lit and \`he\` left out. "Before visibility" is what a page
   with only \`<svc-player>\` downloads before the player can show: the entry and the chunks it
   imports statically (Lit included), each gzipped on its own; the player's lazy chunks (its load,
   and \`he\`, loaded only for an embed code with references the elements do not decode themselves:
   src/elements/shared/entities.ts) come after. Baselines:
   Lit alone (\`lit\` + \`lit/decorators.js\`) and the budgets of issue 9 (9 KB and 25 KB), measured
   with esbuild and again with Vite (Rollup, a code-split production build; the eager part is the
   entry chunk and the chunks it imports statically), the two bundlers users build with. esbuild
   (\`--splitting\`) puts each module that the entry and a lazy chunk both import into a chunk shared
   by exactly the entries that reach it, so the eager part of all four elements is eight files
   (\`bench/results.json\`: the row's note and \`joined_gzip_bytes\`, the same bytes gzipped as one
   file; the difference is what the split costs, gzip's per-file overhead and lost context): the
   entry; Lit whole (the player's load chunk imports \`lit\` for that alone: \`@lit/task\` takes only a
   part of it, which would be a file of its own); the relay client, \`@lit/task\`, the text formatter
   (\`shared/intl.ts\`) and errors in four, because the player's load chunk, the editor's, the
   uploader's, the parts that render and the relay client's failure explainer each take a different
   set of them (the relay client's file also holds the requests sent ahead and the service's names);
   the strings, the relay's address (\`core/relay-url.ts\`), the port, the parts' styles and the one
   chunk loader (\`shared/chunk.ts\`), which the player's two lazy chunks share with the first
   paints (the channel setup takes the embed code's decoder from the player's load chunk, so the
   decoder is no entry of its own reaching the chunk loader); and esbuild's CommonJS helper for
   \`he\`, which every entry reaches (about 0.1 KB in all: measured with \`he\` left out). The channel
   setup imports the preview's player with its first paint, not with its panel, so that the
   player's first paint is not one more file. Vite's
   eager part also holds its dynamic-import helper (\`__vitePreload\`, about 0.5 KB gzip, in any
   build with an \`import()\`) and a one-line entry file (the lazy chunks import from the shared
   one, and the entry keeps exactly its own exports), so it is about 0.06 KB above esbuild's. The
   script-tag build is made here exactly as \`npm run build\` makes \`dist/cdn/\` (Vite,
   \`--mode bundle\`): its loader \`elements.js\` (target 2 KB) and all its files together, compared
   with the same code split into ESM chunks by esbuild; what a page downloads of it is group 9.
2. **Relay**: cached \`GET /svc/embed/vod/<id>/javascript\` through the relay (its own process,
   compiled from \`dist/\` as installed users run it, served by \`relay.requestListener\` as the
   \`svc-relay\` command serves it, request logging on,
   rate limits raised), driven by autocannon with 50 connections, five runs of 2 s halves in
   A B C C B A order (medians of the runs), against a bare \`node:http\` server in its own process
   answering the same JSON: the limit of this machine; and a minimal Hono app, the framework's.
   Overhead: sequential requests over keep-alive (300 per target, interleaved), uncached embeds
   (a fresh VOD per request) and playlist GETs through the relay against the local service called
   directly with \`X-Api-Key\`; the figure is the difference of the medians. Rate limiter at scale:
   the cached embed GET from 1,000 and from 100,000 distinct client addresses (\`X-Forwarded-For\`
   behind \`trustProxy: 1\`, each address sent once first, so all are counted in the last minute),
   two relays in their own processes, five runs of 2 s halves in A B B A order; the figure is the
   time per request (1 / req/s at 50 connections) with 100,000 clients, the ratio the median of
   the runs' ratios to 1,000 clients (\`bench/many-clients.ts\`).
3. **Upload**: in Chromium, a 256 MiB Blob posted to the local service's upload address by the
   core poster (\`postForm\` of \`src/core/upload-form.ts\`, with the uploader's progress work) and
   by \`<svc-uploader>\` itself (signed through the relay, from \`svc-upload-start\` to
   \`svc-upload-uploaded\`), against a bare \`XMLHttpRequest\` posting the same form; one warm-up
   round, then the median of 5 rounds in rotated order. Memory: the local service as a CLI child receiving a
   1 GiB upload streamed from Node (\`bench/emulator-upload-memory.ts\`); peak growth of its resident
   memory (the larger of \`VmRSS\` sampled every 20 ms and \`VmHWM\` at the end) over \`VmRSS\`
   just before the upload, in MB (10^6 bytes).
4. **Readiness**: 1,000 clients read \`GET /svc/events\`, each a \`node:http\` request on its own
   socket whose body goes to the elements' own SSE parser (\`src/core/sse.ts\`), all connected to
   the relay as its own process. The local service's real upload-complete callbacks are captured,
   then each is replayed to the relay; latency runs from just before that POST to the \`ready\`
   event parsed in each client (30 callbacks, 30,000 deliveries, after 2 warm-up callbacks). The
   clients run in the benchmark's one process on the CPUs the relay also uses, so their own work
   is inside the figure. Two diagnostic passes show how much: the same parser over fetch streaming
   (what a page does; here 1,000 WHATWG streams on one thread) and raw sockets (no HTTP parsing,
   the event found by a regular expression). Memory: the relay's resident memory with the clients
   connected, against its idle level.
5. **Time to player**: in Chromium, from appending \`<svc-player kind="vod" loading="eager">\` to its
   \`svc-player-ready\` event (the player script injected and loaded), median of 50 with a warm relay
   cache, the page and \`/svc\` on one loopback origin. Baseline: the least a page can do by hand for
   the same result (fetch the embed code, decode it with the browser's parser, insert the script,
   wait for its load). Issue 9 sets no target for it.
6. **Several instances**: three relay processes on one PostgreSQL (a throwaway cluster started by
   the benchmark, as the tests start it). Readiness as in 4, with 1,000 fetch-streaming clients
   spread over the three instances and the callbacks replayed to the instances in turn, so most
   deliveries cross instances through \`LISTEN\`/\`NOTIFY\`; target p99 <= 100 ms, beside group 4's
   single-instance SQLite figure. Cached-embed throughput: autocannon with 50 connections against
   one instance, then spread over all three at once (A B B A halves of 10 s); the instances, the
   database and the load generator share the same CPUs.
7. **Click to load**: in Chromium, a page of 20 \`<svc-player>\` (three VODs in turn, 16:9 boxes in
   a 480 px column, 1280 x 720 viewport) with \`loading="click"\`, \`lazy\` and \`eager\`, each in a
   fresh browser context: requests and response bytes (headers and bodies, as the network saw them)
   from navigation until 2 s after load, with no click and no scroll. Then, with \`click\`, the time
   from a real click on a play button to that player's \`svc-player-ready\`, median over 10 players.
   The local player script is a few kilobytes; with a real vendor player of hundreds, what
   \`click\` saves grows accordingly.
8. **At scale**: in Chromium, at full speed and with the CPU slowed four times (DevTools
   \`Emulation.setCPUThrottlingRate\`). One \`<svc-uploader multiple>\` (default concurrency 2) given
   300 files at once (one small video under 300 names) against the relay (its limits raised) and
   the local service (processing 0 ms): time from \`addFiles\` until every row is shown, the longest
   task (\`longtask\` entries) after the first second, time per file until all are ready at 300
   against 30 files, and, while the 300 upload, a click every 250 ms with a wheel scroll between:
   the delay from each click's timestamp to the next frame after it was handled (p75, worst in
   the details). Then \`<svc-playlist-editor>\` with a 300-item playlist beside a 1,000-item
   library (its first 100 listed; its relay client answering from memory, so only the page's work is measured):
   Alt+ArrowDown ten times on a row and keystrokes in the library filter, each from the key's
   timestamp to the next frame; the details say where the main thread spent the time.
9. **The script tag on the wire**: in Chromium, pages with one \`<script type="module"
   src="/svc/elements.js">\` and the relay mounted under \`/svc\` of the page's loopback origin (the
   README's set-up), each in a fresh browser context (nothing cached): the encoded (compressed)
   body bytes of every \`/svc/*.js\` response (Resource Timing \`encodedBodySize\`; Chromium accepts
   brotli) once the page shows what it is measured for, and its requests to the relay's API. Median
   of 5 runs with the lowest and highest. Baseline: the single bundle the relay served before
   issue 28 (every tag and \`he\` in one file, uncompressed), built here from the same sources with
   the former Vite settings and loaded the same way. Budgets of issue 28: 20 click-to-load players
   before any click <= 5 KB and no API request, one player below the fold <= 12 KB, an uploader
   <= 25 KB, one player until \`svc-player-ready\` <= 45 KB, all four elements <= 60 KB. Then a real
   click on the first of 20 click-to-load players on a fresh page until its \`svc-player-ready\`,
   loader and single bundle alternating (15 runs each): the loader downloads the player's code when
   the pointer comes onto the button (Playwright's click moves it there a few ms before; every file
   of the player at once, their names written into the preview by the build) and starts the embed
   and config requests when the button is pressed; then the tag is defined and every player of the
   page upgrades (those not pointed at render once the clicked one has loaded:
   src/elements/svc-player/script-tag.ts). The single bundle had all of it before the click. The details give, per side,
   the medians of when (from the click) the tag was defined, the first embed request left and the
   last of our files arrived.

### Reproduce

\`\`\`sh
npm install
npm run bench                      # full run, under 10 minutes; prints the table, writes bench/results.json
npm run bench -- --quick           # short trials (2 s, 100 SSE clients, 64 MiB), bench/tmp/results-quick.json
npm run bench -- --only=size,relay # any of size, relay, upload, ready, instances, player, click, wire, scale
\`\`\`

Everything runs on loopback (127.0.0.1), in bounded time, and stops by itself. The browser
figures use Chromium from \`CHROME_PATH\` (default \`/usr/bin/chromium\`); the upload figures need
about 3 GB of free disk for the local service's temporary data. A benchmark that cannot run (a
part missing, an error) shows "n/a" with the reason; the run never fails.
`;
}

export const SCRIPT_TAG_MARKERS = {
  start: '<!-- script-tag-costs:start (written by `npm run bench`, group 9; do not edit) -->',
  end: '<!-- script-tag-costs:end -->',
};

/**
 * The README's table of what each kind of page costs through the script tag (group 9 of
 * `figures`): the median of the runs with the lowest and highest, against the budget; undefined
 * when the group has no figure.
 */
export function scriptTagCosts(figures: Row[]): string | undefined {
  const rows = figures.filter((r) => r.group === '9 script tag' && r.value !== null);
  if (!rows.length) return undefined;
  const tick = (text: string) => text.replace(/\b(svc-[a-z-]+)\b/g, '`$1`');
  const measured = (r: Row) => {
    const digits = r.unit === 'KB' ? 2 : 1;
    const range = r.spread ? ` (${r.spread.min.toFixed(digits)}–${r.spread.max.toFixed(digits)}, ${r.spread.runs} runs)` : '';
    return `${r.value!.toFixed(digits)} ${r.unit}${range}`;
  };
  const verdict = (r: Row) => (r.met === null ? '' : r.met ? ': met' : ': **missed**');
  const lines = rows.map((r) => {
    if (r.unit === 'KB') {
      const page = r.figure.replace(/: our JavaScript on the wire$/, '');
      const budget = /^<= ([\d.]+ KB)/.exec(r.target)?.[1];
      return `| ${tick(page)} | ${measured(r)}${r.target.includes('no API request') && r.met ? ", no request to the relay's API" : ''} | ${budget ? `≤ ${budget}${verdict(r)}` : '—'} |`;
    }
    // The click figures: the loader against the single bundle, each clicked on a fresh page.
    const page = r.target ? `a click on one of 20 click-to-load players, until \`svc-player-ready\`` : `the same, the pointer resting ${/(\d+) ms/.exec(r.figure)?.[1]} ms on the button first`;
    return `| ${page} | ${measured(r)}; single bundle ${r.baseline!.toFixed(1)} ms | ${r.target ? `≤ single bundle${verdict(r)}` : '—'} |`;
  });
  return ['| Page | Median (lowest–highest) | Budget |', '|---|---|---|', ...lines].join('\n');
}
