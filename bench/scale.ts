// 8. At scale in the browser (issue 33): the main thread while many things happen, in Chromium,
// at full speed and with the CPU slowed four times (DevTools protocol,
// Emulation.setCPUThrottlingRate).
// * 300 files on one `<svc-uploader>` (the element bundled with esbuild, against the relay and the
//   local service; the same small video under 300 names): time until all rows are shown, the
//   longest task after the first second (long tasks as the browser reports them), time per file
//   to ready at 300 against 30, and the worst and p75 delay of clicks (and wheel scrolls in
//   between) made every 250 ms while the folder uploads: from the click's timestamp to the next
//   frame after its handler.
// * A 300-item playlist beside a 1,000-item library in `<svc-playlist-editor>` (its relay client
//   answers from memory: what is measured is the page's work): Alt+ArrowDown on a row (ten times,
//   the row going down) and keystrokes in the library filter, each from the key's timestamp to
//   the next frame; where the main thread spent the time (script, style, layout) is in the details.
import type { CDPSession, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { sampleVideo } from './lib/video.js';
import { launchChromium, servePage } from './lib/browser.js';
import { pageBundleSplit } from './lib/build.js';
import { startRelay, startService } from './lib/proc.js';
import { benchRelayOptions } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { median, percentile, summary } from './lib/stats.js';

const G = '8 scale';

const PAGE_ENTRY = `
import './src/elements/svc-uploader/define.ts';
import './src/elements/svc-playlist-editor/define.ts';

const w = window as unknown as Record<string, unknown>;
const params = new URLSearchParams(location.search);

// Long tasks and the delay from an input's timestamp to the next frame after it was handled.
const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });
const delays: Record<string, number[]> = { click: [], keydown: [] };
for (const type of ['click', 'keydown'] as const) {
  document.addEventListener(type, (event) => {
    if (type === 'keydown' && ['Alt', 'Control', 'Shift', 'Meta'].includes((event as KeyboardEvent).key)) return; // the chord's own key
    const at = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => delays[type]!.push(performance.now() - at), 0));
  }, true);
}
w.longTasks = () => longTasks;
w.delays = () => delays;

if (params.get('mode') === 'uploader') {
  const n = Number(params.get('n'));
  const el = document.createElement('svc-uploader') as HTMLElement & { addFiles(files: File[]): Promise<void>; items: { state: string }[] };
  el.setAttribute('multiple', '');
  document.body.append(el);
  w.run = async () => {
    const bytes = await (await fetch('/video.mp4')).arrayBuffer();
    const files = Array.from({ length: n }, (_, i) => new File([bytes], 'clip-' + (i + 1) + '.mp4', { type: 'video/mp4' }));
    const t0 = performance.now();
    await el.addFiles(files);
    const shownMs = performance.now() - t0;
    await new Promise<void>((resolve) => {
      const check = () => (el.items.every((item) => item.state === 'ready' || item.state === 'failed') ? resolve() : setTimeout(check, 50));
      check();
    });
    const doneMs = performance.now() - t0;
    const after = longTasks.filter((task) => task.start >= t0 + 1000 && task.start <= t0 + doneMs);
    return {
      shownMs,
      doneMs,
      failed: el.items.filter((item) => item.state === 'failed').length,
      longestTaskAfter1sMs: Math.max(0, ...after.map((task) => task.duration)),
      longTaskShare: longTasks.filter((task) => task.start >= t0 && task.start <= t0 + doneMs).reduce((sum, task) => sum + task.duration, 0) / doneMs,
    };
  };
} else {
  const items = Number(params.get('items'));
  const library = Number(params.get('library'));
  const title = (i: number) => 'Video number ' + (i + 1) + ' of the library';
  const client = {
    playlist: async (id: string) => ({
      id, title: 'Big playlist', description: '', save_date: '2026-01-01 00:00:00',
      content: { list: Array.from({ length: items }, (_, i) => ({ id: String(100000 + i * 3), position: String(i + 1), title: title(i * 3), type: 'vod' })) },
    }),
    library: async () => ({ items: Array.from({ length: library }, (_, i) => ({ id: String(100000 + i), type: 'vod', title: title(i), created_at: '2026-01-01T00:00:00Z' })) }),
  };
  const el = document.createElement('svc-playlist-editor') as HTMLElement & { client(): unknown };
  el.client = () => client;
  el.setAttribute('playlist-id', 'p1');
  document.body.append(el);
}
`;

const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>scale</title><body style="margin:0 auto;max-width:900px"><button id="poke">poke</button><script type="module" src="/main.js"></script>';

interface UploadRun {
  shownMs: number;
  doneMs: number;
  failed: number;
  longestTaskAfter1sMs: number;
  longTaskShare: number;
  clickDelays: number[];
}

async function throttle(page: Page, rate: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const service = await startService({ processingMs: 0 });
  const relay = await startRelay(service, benchRelayOptions);
  const files = await pageBundleSplit(PAGE_ENTRY);
  const page = await servePage(
    {
      '/': ['text/html', PAGE_HTML],
      '/video.mp4': ['video/mp4', readFileSync(sampleVideo())],
      ...Object.fromEntries(Object.entries(files).map(([path, text]) => [path, ['text/javascript', text] as [string, string]])),
    },
    { prefix: '/svc', origin: relay.origin },
  );
  const browser = await launchChromium();
  const big = ctx.quick ? 100 : 300;
  const small = ctx.quick ? 10 : 30;

  async function uploads(n: number, rate: number, interact: boolean): Promise<UploadRun> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const tab = await context.newPage();
      await tab.goto(`${page.origin}/?mode=uploader&n=${n}`, { waitUntil: 'load' });
      await tab.waitForFunction(() => typeof (window as unknown as { run?: unknown }).run === 'function');
      await throttle(tab, rate);
      const result = tab.evaluate(() => (window as unknown as { run(): Promise<Omit<UploadRun, 'clickDelays'>> }).run());
      let finished = false;
      void result.finally(() => (finished = true)).catch(() => {});
      if (interact) {
        // A user clicking and scrolling while the folder uploads.
        for (let i = 0; !finished; i++) {
          await tab.mouse.move(40, 20);
          await tab.mouse.wheel(0, i % 2 ? -400 : 400).catch(() => {});
          await tab.click('#poke', { timeout: 60_000 }).catch(() => {});
          await tab.waitForTimeout(250);
        }
      }
      const measured = await result;
      const { click } = await tab.evaluate(() => (window as unknown as { delays(): Record<string, number[]> }).delays());
      return { ...measured, clickDelays: click ?? [] };
    } finally {
      await context.close();
    }
  }

  /** Where the page's main thread spent its time (DevTools Performance.getMetrics), from here until `done()`. */
  async function busy(cdp: CDPSession): Promise<() => Promise<Record<string, number>>> {
    const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    await cdp.send('Performance.enable');
    const before = await read();
    return async () => {
      const after = await read();
      const ms = (name: string) => Math.round((after[name]! - before[name]!) * 1000);
      return { script_ms: ms('ScriptDuration'), style_ms: ms('RecalcStyleDuration'), layout_ms: ms('LayoutDuration'), task_ms: ms('TaskDuration') };
    };
  }

  async function editor(rate: number): Promise<{ move: number[]; filter: number[]; moveWork: Record<string, number>; filterWork: Record<string, number> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const tab = await context.newPage();
      await tab.goto(`${page.origin}/?mode=editor&items=300&library=1000`, { waitUntil: 'load' });
      await tab.locator('svc-playlist-editor [part~=library-show-all]').waitFor({ state: 'attached', timeout: 60_000 }); // the library is loaded (its first 100 listed)
      const cdp = await throttle(tab, rate);
      const reset = () => tab.evaluate(() => void ((window as unknown as { delays(): Record<string, number[]> }).delays().keydown!.length = 0));
      const keydowns = () => tab.evaluate(() => [...(window as unknown as { delays(): Record<string, number[]> }).delays().keydown!]);
      const repeats = ctx.quick ? 5 : 10;
      await reset();
      const rowAt = tab.locator('svc-playlist-editor li[part~=item]').nth(150);
      await rowAt.focus();
      let done = await busy(cdp);
      for (let i = 0; i < repeats; i++) {
        await tab.keyboard.press('Alt+ArrowDown'); // the row goes down ten places, focus with it
        await tab.waitForTimeout(300 * rate);
      }
      const move = await keydowns();
      const moveWork = await done();
      await reset();
      const filter = tab.locator('svc-playlist-editor input[part~=filter]');
      await filter.focus();
      done = await busy(cdp);
      for (let i = 0; i < repeats; i++) {
        await tab.keyboard.press(i % 2 ? 'Backspace' : '7');
        await tab.waitForTimeout(300 * rate);
      }
      return { move, filter: await keydowns(), moveWork, filterWork: await done() };
    } finally {
      await context.close();
    }
  }

  try {
    const rows: Row[] = [];
    for (const rate of [1, 4]) {
      ctx.log(`  ${big} files at CPU x${rate}`);
      const many = await uploads(big, rate, true);
      ctx.log(`  ${small} files at CPU x${rate}`);
      const few = await uploads(small, rate, false);
      const perBig = many.doneMs / big;
      const perSmall = few.doneMs / small;
      ctx.log(`  x${rate}: shown ${many.shownMs.toFixed(0)} ms, longest task ${many.longestTaskAfter1sMs.toFixed(0)} ms, ${perBig.toFixed(1)} vs ${perSmall.toFixed(1)} ms per file, clicks p75 ${percentile(many.clickDelays, 75).toFixed(0)} ms, failed ${many.failed}`);
      const at = `CPU x${rate}`;
      rows.push(
        row({
          group: G, figure: `${big} files on one page, ${at}: all rows shown`, value: many.shownMs, unit: 'ms',
          baseline: null, baselineLabel: '', target: '', met: null, note: 'no target set in the issue',
        }),
        row({
          group: G, figure: `${big} files, ${at}: longest task after the first second`, value: many.longestTaskAfter1sMs, unit: 'ms',
          baseline: rate === 1 ? 50 : null, baselineLabel: rate === 1 ? 'goal' : '', target: rate === 1 ? '<= 50 ms' : '',
          met: rate === 1 ? many.longestTaskAfter1sMs <= 50 : null,
          details: { long_task_share: Math.round(many.longTaskShare * 1000) / 1000, failed_rows: many.failed },
        }),
        row({
          group: G, figure: `${at}: time per file to ready, ${big} vs ${small} files`, value: perBig, unit: 'ms',
          baseline: perSmall, baselineLabel: `${small} files`, target: rate === 1 ? 'ratio <= 1.2' : '',
          met: rate === 1 ? perBig / perSmall <= 1.2 : null,
        }),
        row({
          group: G, figure: `${big} files, ${at}: click delay while clicking and scrolling, p75`, value: percentile(many.clickDelays, 75), unit: 'ms',
          baseline: rate === 4 ? 100 : null, baselineLabel: rate === 4 ? 'goal' : '', target: rate === 4 ? '<= 100 ms' : '',
          met: rate === 4 ? percentile(many.clickDelays, 75) <= 100 : null,
          details: { click_delay_ms: summary(many.clickDelays), worst_ms: Math.max(0, ...many.clickDelays) },
        }),
      );
    }
    for (const rate of [1, 4]) {
      ctx.log(`  editor at CPU x${rate}`);
      const { move, filter, moveWork, filterWork } = await editor(rate);
      ctx.log(`  editor x${rate}: Alt+Arrow ${median(move).toFixed(0)} ms (${JSON.stringify(moveWork)} for ${move.length} keys), filter ${median(filter).toFixed(0)} ms (${JSON.stringify(filterWork)})`);
      const at = `CPU x${rate}`;
      const goal = rate === 4;
      rows.push(
        row({
          group: G, figure: `300-item playlist beside 1,000-item library, ${at}: Alt+Arrow, median`, value: median(move), unit: 'ms',
          baseline: goal ? 50 : null, baselineLabel: goal ? 'goal' : '', target: goal ? '<= 50 ms' : '', met: goal ? median(move) <= 50 : null,
          details: { alt_arrow_ms: summary(move), main_thread_during_the_presses: moveWork },
        }),
        row({
          group: G, figure: `300-item playlist beside 1,000-item library, ${at}: filter keystroke, median`, value: median(filter), unit: 'ms',
          baseline: goal ? 50 : null, baselineLabel: goal ? 'goal' : '', target: goal ? '<= 50 ms' : '', met: goal ? median(filter) <= 50 : null,
          details: { filter_keystroke_ms: summary(filter), main_thread_during_the_keystrokes: filterWork },
        }),
      );
    }
    return rows;
  } finally {
    await browser.close();
    await page.close();
    await relay.stop();
    await service.stop();
  }
}
