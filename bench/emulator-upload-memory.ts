// Acceptance 4 of issue 2: a 1 GiB upload raises the local service's resident memory by less than
// 64 MB. Starts the CLI (`bin/svc-emulator.js`) as a child process, streams a 1 GiB multipart form
// generated on the fly (the client holds one 1 MiB chunk, never the file), and samples the
// child's VmRSS from /proc/<pid>/status during the upload, plus VmHWM at the end.
//
//   npx tsx bench/emulator-upload-memory.ts [bytes]      prints one JSON line with the figures
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface MemoryResult {
  bytes: number;
  status: number;
  etagMatches: boolean;
  baselineRssKb: number;
  peakRssKb: number;
  hwmKb: number;
  /** max(peak sampled VmRSS, final VmHWM) minus VmRSS just before the upload, in MB (10^6). */
  growthMb: number;
  seconds: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHUNK = 1024 * 1024;

function status(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

async function startService(): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(
    process.execPath,
    ['bin/svc-emulator.js', '--api-port', '0', '--upload-port', '0', '--player-port', '0', '--processing-ms', '3600000'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { child, ready: JSON.parse(line) };
}

async function sign(baseUrl: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/v2/vod`, {
    method: 'POST',
    headers: { 'X-Api-Key': 'dev-key', 'X-Format': 'default', 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'big.bin', upload_type: 'ajax', callback_url: 'http://127.0.0.1:9/none' }),
  });
  if (!response.ok) throw new Error(`operation 1 failed: ${response.status}`);
  return (await response.json()) as Record<string, string>;
}

/** Posts a form whose file is `bytes` zero bytes, streamed chunk by chunk with backpressure. */
async function postGenerated(uploadUrl: string, fields: Record<string, string>, bytes: number): Promise<{ status: number; etag: string }> {
  const boundary = `----svcbench${Date.now()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = request(uploadUrl, {
    method: 'POST',
    headers: {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(head.length + bytes + tail.length),
    },
  });
  const answered = once(req, 'response') as Promise<[import('node:http').IncomingMessage]>;
  req.write(head);
  const chunk = Buffer.alloc(CHUNK);
  for (let sent = 0; sent < bytes; sent += CHUNK) {
    const piece = bytes - sent >= CHUNK ? chunk : chunk.subarray(0, bytes - sent);
    if (!req.write(piece)) await once(req, 'drain');
  }
  req.end(tail);
  const [response] = await answered;
  response.resume();
  await once(response, 'end');
  return { status: response.statusCode ?? 0, etag: String(response.headers.etag ?? '') };
}

function md5OfZeros(bytes: number): string {
  const hash = createHash('md5');
  const chunk = Buffer.alloc(CHUNK);
  for (let done = 0; done < bytes; done += CHUNK) hash.update(bytes - done >= CHUNK ? chunk : chunk.subarray(0, bytes - done));
  return `"${hash.digest('hex')}"`;
}

export async function measureUploadMemory(bytes = 1024 ** 3): Promise<MemoryResult> {
  const { child, ready } = await startService();
  try {
    const pid = child.pid!;
    // Warm up the code paths of an upload first, so the baseline includes them.
    const warm = await postGenerated(ready.upload_url!, await sign(ready.base_url!), 4 * CHUNK);
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}`);
    const fields = await sign(ready.base_url!);
    const baseline = status(pid).rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, status(pid).rss);
    }, 20);
    const started = performance.now();
    let result;
    try {
      result = await postGenerated(ready.upload_url!, fields, bytes);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const end = status(pid);
    peak = Math.max(peak, end.rss);
    return {
      bytes,
      status: result.status,
      etagMatches: result.etag === md5OfZeros(bytes),
      baselineRssKb: baseline,
      peakRssKb: peak,
      hwmKb: end.hwm,
      growthMb: Math.round(((Math.max(peak, end.hwm) - baseline) * 1024) / 1e4) / 100,
      seconds: Math.round(seconds * 10) / 10,
    };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bytes = Number(process.argv[2] ?? 1024 ** 3);
  const result = await measureUploadMemory(bytes);
  process.stdout.write(JSON.stringify({ bench: 'emulator-upload-memory', limitMb: 64, pass: result.growthMb < 64 && result.status === 201 && result.etagMatches, ...result }) + '\n');
}
