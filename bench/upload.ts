// 3. Upload.
// * Throughput: the uploader's core poster (src/core/upload-form.ts, XMLHttpRequest) and the
//   <svc-uploader> element itself (signing through the relay) in Chromium posting a 256 MiB Blob
//   made in the page to the local service's upload address, against a bare XMLHttpRequest posting
//   the same form. Alternating trials after a warm-up round, median of each. Target: >= 0.9.
// * Memory: the local service (CLI child) receiving a 1 GiB upload streamed from Node; growth of
//   its resident memory (/proc/<pid>/status VmRSS, sampled every 20 ms) over its idle level after
//   a small warm-up upload. Target: under 64 MB.
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { launchChromium, servePage } from './lib/browser.js';
import { pageBundle } from './lib/build.js';
import { sampleRss, startRelay, startService } from './lib/proc.js';
import { benchRelayOptions } from './lib/relay-options.js';
import { row, type BenchContext, type Row } from './lib/report.js';
import { post, sign, startSink, type ServiceInfo } from './lib/service.js';
import { median } from './lib/stats.js';

const G = '3 upload';
const MiB = 2 ** 20;

// The page's module: the core poster under a name the benchmark calls, and the bare baseline.
const PAGE_ENTRY = `
import { TransferRate } from './src/core/transfer-progress.ts';
import { postForm } from './src/core/upload-form.ts';
import './src/elements/svc-uploader/define.ts';

type Fields = [string, string][];
const w = window as unknown as Record<string, unknown>;
let blob: Blob | undefined;
w.makeBlob = (bytes: number) => {
  // Zeros behind an MP4 'ftyp' box: the uploader checks a file's first bytes are a video container's.
  const body = new Uint8Array(bytes);
  body.set([0, 0, 0, 16, ...Array.from('ftypisom', (c) => c.charCodeAt(0))]);
  blob = new Blob([body], { type: 'video/mp4' });
  return blob.size;
};
w.bare = (url: string, fields: Fields) =>
  new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append('file', blob!, 'bench.mp4');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.onload = () => resolve({ ms: performance.now() - t0, status: xhr.status });
    xhr.onerror = () => reject(new Error('bare XHR failed'));
    const t0 = performance.now();
    xhr.send(form);
  });
// The poster as <svc-uploader> calls it, with the element's per-progress work (speed window).
w.core = async (url: string, fields: Fields) => {
  const rate = new TransferRate();
  let progressEvents = 0;
  const t0 = performance.now();
  const result = await postForm({
    url,
    fields,
    file: blob!,
    filename: 'bench.mp4',
    onProgress: (loaded) => {
      progressEvents++;
      rate.add(loaded, performance.now());
    },
  });
  return { ms: performance.now() - t0, status: result.status, progressEvents };
};
// The whole element: signed through the relay (/svc, proxied), from svc-upload-start (signature
// in hand, transfer starts) to svc-upload-uploaded (the upload address accepted the file).
w.element = async () => {
  const el = document.createElement('svc-uploader');
  document.body.append(el);
  await el.updateComplete;
  let t0 = 0;
  const done = new Promise<number>((resolve, reject) => {
    el.addEventListener('svc-upload-start', () => (t0 = performance.now()), { once: true });
    el.addEventListener('svc-upload-uploaded', () => resolve(performance.now() - t0), { once: true });
    el.addEventListener('svc-error', (e) => reject(new Error(JSON.stringify((e as CustomEvent).detail))), { once: true });
  });
  await el.addFiles([new File([blob!], 'bench.mp4', { type: 'video/mp4' })]);
  const ms = await done;
  el.remove();
  return { ms, status: 200 };
};
`;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  try {
    rows.push(...(await throughput(ctx)));
  } catch (error) {
    rows.push(failed('core poster throughput, MB/s', 'ratio >= 0.9', error));
    ctx.log(`  throughput failed: ${error instanceof Error ? error.stack : error}`);
  }
  try {
    rows.push(await memory(ctx));
  } catch (error) {
    rows.push(failed('service RSS growth during a 1 GiB upload', '< 64 MB', error));
    ctx.log(`  memory failed: ${error instanceof Error ? error.stack : error}`);
  }
  return rows;
}

function failed(figure: string, target: string, error: unknown): Row {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 120);
  return { group: G, figure, value: null, unit: '', baseline: null, baselineLabel: '', ratio: null, target, met: null, note: message };
}

async function throughput(ctx: BenchContext): Promise<Row[]> {
  const size = (ctx.quick ? 64 : 256) * MiB;
  const trials = ctx.quick ? 1 : 5;
  // No VOD gets ready during the run: processing (a timer in the local service) outlasts it.
  const service = await startService({ processingMs: 600_000 });
  const relay = await startRelay(service, benchRelayOptions);
  const sink = await startSink();
  const js = await pageBundle(PAGE_ENTRY);
  const page = await servePage(
    {
      '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>upload bench</title><script type="module" src="/bench.js"></script>'],
      '/bench.js': ['text/javascript', js],
    },
    { prefix: '/svc', origin: relay.origin },
  );
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.goto(page.origin);
    await tab.waitForFunction(() => 'core' in window);
    await tab.evaluate((bytes) => (window as unknown as { makeBlob(n: number): number }).makeBlob(bytes), size);
    const samples: Record<'bare' | 'core' | 'element', number[]> = { bare: [], core: [], element: [] };
    for (let i = 0; i < trials + 1; i++) {
      const order = ['bare', 'core', 'element'] as const;
      for (const kind of [...order.slice(i % 3), ...order.slice(0, i % 3)]) {
        const fields = await sign(service, `${sink.url}/callback`);
        const result = await tab.evaluate(
          ([fn, url, f]) => (window as unknown as Record<string, (u: string, f: unknown) => Promise<{ ms: number; status: number }>>)[fn]!(url, f),
          [kind, service.uploadUrl, fields] as const,
        );
        if (result.status < 200 || result.status >= 300) throw new Error(`${kind} upload answered ${result.status}`);
        if (i > 0) samples[kind].push(size / MiB / (result.ms / 1000));
        ctx.log(`  ${kind} ${(size / MiB).toFixed(0)} MiB in ${result.ms.toFixed(0)} ms`);
      }
    }
    const core = median(samples.core);
    const bare = median(samples.bare);
    const element = median(samples.element);
    const details = { size_bytes: size, trials, core_mib_s: samples.core, element_mib_s: samples.element, bare_mib_s: samples.bare };
    return [
      row({
        group: G, figure: `core poster (postForm) throughput, ${size / MiB} MiB Blob`, value: core, unit: 'MiB/s',
        baseline: bare, baselineLabel: 'bare XHR', target: 'ratio >= 0.9', met: core / bare >= 0.9, details,
      }),
      row({
        group: G, figure: `<svc-uploader> throughput, ${size / MiB} MiB file`, value: element, unit: 'MiB/s',
        baseline: bare, baselineLabel: 'bare XHR', target: 'ratio >= 0.9', met: element / bare >= 0.9, details,
      }),
    ];
  } finally {
    await browser.close();
    await page.close();
    await sink.close();
    await relay.stop();
    await service.stop();
  }
}

/** Posts a multipart upload of `size` zero bytes streamed from memory-light chunks. */
function streamUpload(service: ServiceInfo, fields: [string, string][], size: number): Promise<number> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MiB);
  return new Promise((resolve, reject) => {
    const req = request(service.uploadUrl, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + size + tail.length },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function memory(ctx: BenchContext): Promise<Row> {
  const size = (ctx.quick ? 256 : 1024) * MiB;
  // The local service's own measurement (issue 2, bench/emulator-upload-memory.ts) when present,
  // so that its acceptance check and this table report the same figure.
  try {
    const { measureUploadMemory } = await import('./emulator-upload-memory.js');
    const result = await measureUploadMemory(size);
    if (result.status < 200 || result.status >= 300) throw new Error(`upload answered ${result.status}`);
    ctx.log(`  ${size / MiB} MiB streamed in ${result.seconds} s; RSS ${(result.baselineRssKb / 1024).toFixed(1)} -> peak ${(result.peakRssKb / 1024).toFixed(1)} MiB (VmHWM ${(result.hwmKb / 1024).toFixed(1)})`);
    return row({
      group: G, figure: `service RSS growth during a ${size / 2 ** 30} GiB upload`, value: result.growthMb, unit: 'MB',
      baseline: size / 1e6, baselineLabel: 'upload size', target: '< 64 MB', met: result.growthMb < 64,
      note: result.etagMatches ? undefined : 'stored file ETag differs from the MD5 of what was sent',
      details: { ...result, method: 'bench/emulator-upload-memory.ts: max(sampled VmRSS, VmHWM) - VmRSS before' },
    });
  } catch (error) {
    ctx.log(`  emulator-upload-memory.ts unavailable (${error instanceof Error ? error.message : error}); measuring here`);
  }
  const service = await startService({ processingMs: 600_000 });
  const sink = await startSink();
  try {
    // Warm-up: the code paths of an upload are loaded before the idle level is read.
    await post(service, await sign(service, `${sink.url}/callback`), new Uint8Array(MiB));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fields = await sign(service, `${sink.url}/callback`);
    const sampler = sampleRss(service.pid, 20);
    const idle = sampler.samples[0]!;
    const t0 = performance.now();
    const status = await streamUpload(service, fields, size);
    const ms = performance.now() - t0;
    const { peak } = sampler.stop();
    if (status < 200 || status >= 300) throw new Error(`1 GiB upload answered ${status}`);
    const growth = (peak - idle) * 1.048576; // MiB -> MB
    ctx.log(`  ${size / MiB} MiB streamed in ${ms.toFixed(0)} ms; RSS ${idle.toFixed(1)} -> peak ${peak.toFixed(1)} MiB`);
    return row({
      group: G, figure: `service RSS growth during a ${size / 2 ** 30} GiB upload`, value: growth, unit: 'MB',
      baseline: size / 1e6, baselineLabel: 'upload size', target: '< 64 MB', met: growth < 64,
      details: { idle_rss_mib: idle, peak_rss_mib: peak, upload_ms: ms, size_bytes: size },
    });
  } finally {
    await sink.close();
    await service.stop();
  }
}
