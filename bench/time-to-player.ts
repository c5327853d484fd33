// 5. Time to player: from `<svc-player>` being connected to the player script being injected
// (its `svc-player-ready` event), median of 50 with a warm relay cache, in Chromium. The page
// imports the element bundled with esbuild (its load in a lazily loaded chunk) from a loopback
// server that also proxies /svc to the relay, so the element uses its default relay `/svc`.
// svc-player-ready fires when the injected player script has loaded. Baseline: the least a page
// can do for the same result, by hand: fetch the embed code, decode it with the browser's parser,
// create the script element, insert it and wait for its load event.
import { sampleVideo } from './lib/video.js';
import { uploadVod } from '../test/support/servers.js';
import { launchChromium, servePage } from './lib/browser.js';
import { pageBundleSplit } from './lib/build.js';
import { startRelay, startService } from './lib/proc.js';
import { benchRelayOptions, relayHeaders } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { median, summary } from './lib/stats.js';

const G = '5 player';

const PAGE_ENTRY = `
import './src/elements/svc-player/define.ts';

const w = window as unknown as Record<string, unknown>;
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

w.element = async (id: string, count: number) => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const el = document.createElement('svc-player');
    el.setAttribute('kind', 'vod');
    el.setAttribute('content-id', id);
    el.setAttribute('loading', 'eager');
    let t0 = 0;
    const ready = new Promise<number>((resolve, reject) => {
      el.addEventListener('svc-player-ready', () => resolve(performance.now() - t0), { once: true });
      el.addEventListener('svc-error', (e) => reject(new Error(JSON.stringify((e as CustomEvent).detail))), { once: true });
      setTimeout(() => reject(new Error('no svc-player-ready within 10 s')), 10_000);
    });
    t0 = performance.now();
    document.body.append(el);
    times.push(await ready);
    el.remove();
    await pause();
  }
  return times;
};

w.baseline = async (id: string, count: number) => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const host = document.createElement('div');
    const t0 = performance.now();
    document.body.append(host);
    const { code } = await (await fetch('/svc/embed/vod/' + encodeURIComponent(id) + '/javascript', { headers: { 'X-Svc-Request': '1' } })).json();
    const decoded = new DOMParser().parseFromString(code, 'text/html').documentElement.textContent ?? '';
    const parsed = new DOMParser().parseFromString(decoded, 'text/html').querySelector('script');
    const script = document.createElement('script');
    for (const name of ['id', 'src', 'width', 'height', 'class']) {
      const value = parsed?.getAttribute(name);
      if (value !== null && value !== undefined) script.setAttribute(name, value);
    }
    const loaded = new Promise((resolve, reject) => {
      script.addEventListener('load', resolve, { once: true });
      script.addEventListener('error', () => reject(new Error('player script failed')), { once: true });
    });
    host.append(script);
    await loaded;
    times.push(performance.now() - t0);
    host.remove();
    await pause();
  }
  return times;
};
`;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const count = ctx.quick ? 10 : 50;
  const service = await startService({ processingMs: 0 });
  const relay = await startRelay(service, benchRelayOptions);
  const files = await pageBundleSplit(PAGE_ENTRY);
  const page = await servePage(
    {
      '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>player bench</title><script type="module" src="/main.js"></script>'],
      ...Object.fromEntries(Object.entries(files).map(([path, text]) => [path, ['text/javascript', text] as [string, string]])),
    },
    { prefix: '/svc', origin: relay.origin },
  );
  const browser = await launchChromium();
  try {
    const { vod_id } = await uploadVod(relay.url, sampleVideo(), relayHeaders);
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.origin);
    await tab.waitForFunction(() => 'element' in window && customElements.get('svc-player') !== undefined);
    type Fn = (id: string, n: number) => Promise<number[]>;
    const call = (fn: 'element' | 'baseline', n: number) =>
      tab.evaluate(([f, id, k]) => (window as unknown as Record<string, Fn>)[f]!(id, k), [fn, vod_id, n] as const);
    // Warm-up: the relay's embed cache, the lazy load chunk, player.js in the HTTP cache.
    const [cold] = await call('element', 1);
    await call('baseline', 3);
    await call('element', 3);
    const element: number[] = [];
    const baseline: number[] = [];
    for (let done = 0; done < count; done += 10) {
      baseline.push(...(await call('baseline', Math.min(10, count - done))));
      element.push(...(await call('element', Math.min(10, count - done))));
    }
    if (errors.length) ctx.log(`  page errors: ${errors.slice(0, 3).join(' | ')}`);
    return [
      row({
        group: G, figure: `svc-player connected -> svc-player-ready, median of ${count}`, value: median(element), unit: 'ms',
        baseline: median(baseline), baselineLabel: 'hand-written fetch + insert', target: '', met: null,
        note: 'no target set in the issue',
        details: { element_ms: summary(element), baseline_ms: summary(baseline), first_cold_ms: cold },
      }),
    ];
  } finally {
    await browser.close();
    await page.close();
    await relay.stop();
    await service.stop();
  }
}
