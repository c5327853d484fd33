// Serves an uploaded file with HTTP Range support (what <video> needs to seek and to start
// playing before the whole file arrives). The type comes from the file's first bytes.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { Readable } from 'node:stream';

const BY_EXTENSION: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.ogv': 'video/ogg',
  '.ogg': 'video/ogg',
};

/** The media type from magic bytes, else from the source name's extension. */
export async function sniffType(file: string, sourceName: string): Promise<string> {
  const handle = await open(file, 'r');
  const head = Buffer.alloc(16);
  try {
    await handle.read(head, 0, 16, 0);
  } finally {
    await handle.close();
  }
  if (head.toString('latin1', 4, 8) === 'ftyp') {
    return head.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  }
  if (head.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (head.toString('latin1', 0, 4) === 'OggS') return 'video/ogg';
  return BY_EXTENSION[extname(sourceName).toLowerCase()] ?? 'application/octet-stream';
}

/** Inclusive byte range of a single-range `Range` header; null = whole file, 'invalid' = 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null; // multiple or odd ranges: answering the whole file is allowed
  const [, from, to] = match;
  if (from === '' && to === '') return 'invalid';
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'invalid';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'invalid';
  return { start, end };
}

export async function serveFile(
  request: Request,
  file: string,
  type: string,
  extraHeaders: Record<string, string>,
): Promise<Response> {
  const { size } = await stat(file);
  const headers: Record<string, string> = { ...extraHeaders, 'Accept-Ranges': 'bytes', 'Content-Type': type };
  const range = parseRange(request.headers.get('range') ?? undefined, size);
  if (range === 'invalid') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  const status = range ? 206 : 200;
  if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
