// 7. Click to load: a page of 20 players (`<svc-player loading=...>` in a column, the element
// bundled with esbuild as in 5) against the relay and local service, in Chromium. Before any
// interaction (no click, no scroll; 2 s after load), the requests and bytes the page made with
// `loading="click"`, `lazy` (the default) and `eager`; then, with `click`, the time from a real
// click on a play button to `svc-player-ready`, median over the page's players. The local player
// script is a few kilobytes; a real vendor player is hundreds, so what click saves grows with it.
import type { Page } from 'playwright-core';
import { sampleVideo } from './lib/video.js';
import { uploadVod } from '../test/support/servers.js';
import { launchChromium, servePage } from './lib/browser.js';
import { pageBundleSplit } from './lib/build.js';
import { startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { median, summary } from './lib/stats.js';

const G = '7 click';
const PLAYERS = 20;
const MODES = ['click', 'lazy', 'eager'] as const;

const PAGE_ENTRY = `
import './src/elements/svc-player/define.ts';

const w = window as unknown as Record<string, unknown>;
const params = new URLSearchParams(location.search);
const ids = params.get('ids')!.split(',');
const ready: number[] = [];
const clicked = new Map<Element, number>();
document.addEventListener('click', (event) => {
  const player = event.composedPath().find((node) => (node as Element).localName === 'svc-player');
  if (player) clicked.set(player as Element, performance.now());
}, true);
for (let i = 0; i < ${PLAYERS}; i++) {
  const el = document.createElement('svc-player');
  el.setAttribute('content-id', ids[i % ids.length]!);
  el.setAttribute('loading', params.get('mode')!);
  el.setAttribute('title', 'Video ' + (i + 1));
  el.addEventListener('svc-player-ready', () => ready.push(performance.now() - (clicked.get(el) ?? NaN)));
  document.body.append(el);
}
w.readyTimes = () => ready;
`;

const PAGE_HTML =
  '<!doctype html><meta charset="utf-8"><title>20 players</title>' +
  '<style>body{margin:0 auto;max-width:480px}svc-player{margin:0 0 16px}</style><script type="module" src="/main.js"></script>';

/** Requests and response bytes (headers + body, as the network saw them) of a page until `settle`. */
async function traffic(page: Page, url: string, settleMs: number): Promise<{ requests: number; bytes: number }> {
  let requests = 0;
  let bytes = 0;
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    requests++;
    pending.push(request.sizes().then((s) => void (bytes += s.responseHeadersSize + s.responseBodySize), () => {}));
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(settleMs);
  await Promise.all(pending);
  page.removeAllListeners('requestfinished');
  return { requests, bytes };
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const service = await startService({ processingMs: 0 });
  const relay = await startRelay(service, benchRelayOptions);
  const files = await pageBundleSplit(PAGE_ENTRY);
  const page = await servePage(
    {
      '/': ['text/html', PAGE_HTML],
      ...Object.fromEntries(Object.entries(files).map(([path, text]) => [path, ['text/javascript', text] as [string, string]])),
    },
    { prefix: '/svc', origin: relay.origin },
  );
  const browser = await launchChromium();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await uploadVod(relay.url, sampleVideo(), relayHeaders)).vod_id);
    const url = (mode: string) => `${page.origin}/?mode=${mode}&ids=${ids.join(',')}`;
    const settle = ctx.quick ? 1000 : 2000;
    const seen: Record<string, { requests: number; bytes: number }> = {};
    for (const mode of MODES) {
      // A fresh context per mode: nothing cached from the previous one.
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      seen[mode] = await traffic(await context.newPage(), url(mode), settle);
      await context.close();
      ctx.log(`  ${mode}: ${seen[mode]!.requests} requests, ${seen[mode]!.bytes} B before any interaction`);
    }

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const tab = await context.newPage();
    await tab.goto(url('click'), { waitUntil: 'load' });
    const clicks = ctx.quick ? 5 : 10;
    for (let i = 0; i < clicks; i++) {
      const button = tab.locator('svc-player').nth(i).locator('button[part~=play]');
      await button.scrollIntoViewIfNeeded();
      await button.click();
      await tab.waitForFunction((n) => (window as unknown as { readyTimes(): number[] }).readyTimes().length >= n, i + 1);
    }
    const times = await tab.evaluate(() => (window as unknown as { readyTimes(): number[] }).readyTimes());
    await context.close();

    const rows: Row[] = [];
    for (const mode of ['lazy', 'eager'] as const) {
      rows.push(
        row({
          group: G, figure: `page of ${PLAYERS} players before any interaction: requests, click vs ${mode}`,
          value: seen.click!.requests, unit: 'requests', baseline: seen[mode]!.requests, baselineLabel: `loading=${mode}`,
          target: 'fewer', met: seen.click!.requests < seen[mode]!.requests, details: seen,
        }),
        row({
          group: G, figure: `page of ${PLAYERS} players before any interaction: bytes, click vs ${mode}`,
          value: seen.click!.bytes, unit: 'B', baseline: seen[mode]!.bytes, baselineLabel: `loading=${mode}`,
          target: 'fewer', met: seen.click!.bytes < seen[mode]!.bytes,
        }),
      );
    }
    rows.push(
      row({
        group: G, figure: `loading=click: click -> svc-player-ready, median of ${times.length}`, value: median(times), unit: 'ms',
        baseline: null, baselineLabel: '', target: '', met: null, note: 'no target set in the issue',
        details: { click_to_ready_ms: summary(times) },
      }),
    );
    return rows;
  } finally {
    await browser.close();
    await page.close();
    await relay.stop();
    await service.stop();
  }
}
