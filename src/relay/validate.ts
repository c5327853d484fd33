// Input checks at the edge: ids used in paths, JSON bodies (size, content type, syntax) and zod
// schemas turned into 400 validation_failed with a message per field.
import { z } from 'zod';
import type { Context } from 'hono';
import { schemas } from '../service/index.js';
import { RELAY_ID } from '../core/relay-url.js';
import { HttpError, badRequest } from './http-error.js';

/** Ids of uploads and of the service's content (the relay client checks an embed's with the same rule). */
export const id = z.string().regex(RELAY_ID, 'must be 1 to 128 letters, digits, "-" or "_"');

/** A path parameter that must be an id (Hono has already percent-decoded it). */
export function pathId(c: Context, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!RELAY_ID.test(value)) {
    throw badRequest(`Invalid ${name}: it must be 1 to 128 letters, digits, "-" or "_".`, { [name]: 'invalid id' });
  }
  return value;
}

export function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '(body)';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const fields = fieldsOf(result.error);
    const list = Object.entries(fields)
      .slice(0, 5)
      .map(([key, message]) => `${key}: ${message}`)
      .join('; ');
    throw badRequest(`Invalid request: ${list}.`, fields);
  }
  return result.data;
}

/** Reads a JSON body of at most `limit` bytes (415 for another content type, 413, 400). */
export async function jsonBody(c: Context, limit = 64 * 1024): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
  }
  const text = await readLimited(c.req.raw, limit);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

/** The body as text, refusing (413) more than `limit` bytes without reading it all. */
async function readLimited(request: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readLimitedBytes(request, limit));
}

/** Like readLimited, as bytes; a body not complete within `deadlineMs` is refused (400) so a slow sender cannot hold the handler. */
export async function readLimitedBytes(request: Request, limit: number, deadlineMs = 15_000): Promise<Uint8Array> {
  // The rest of the body is not read, so the connection cannot carry another request.
  const close = { headers: { Connection: 'close' } };
  const tooLarge = () => new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`, close);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const late = () => new HttpError(400, 'validation_failed', `The request body was not received within ${deadlineMs} ms.`, close);
    timer = setTimeout(() => reject(late()), deadlineMs);
  });
  deadline.catch(() => {});
  try {
    return await Promise.race([collect(), deadline]);
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }

  async function collect(): Promise<Uint8Array> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge();
      chunks.push(value);
    }
    const out = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

// The request schemas: the service's own (src/service/schemas.ts) with what the relay adds at the
// edge (trimmed titles, no control characters, defaults, messages per field). Limits and choices
// come from the service's schemas, so the two cannot drift apart.
const service = {
  playlist: schemas.playlistCreateRequest.shape,
  channel: schemas.channelCreateRequest.shape,
  item: schemas.playlistUpdateItem.shape,
};

/** "a, b or c" */
const choices = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/* eslint-disable no-control-regex -- these patterns exist to refuse control characters */
const line = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`).regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters');
/** Descriptions may hold tabs and line breaks. */
const description = (max: number) =>
  z.string().max(max, `must be at most ${max} characters`).regex(/^[^\x00-\x08\x0b-\x1f\x7f]*$/, 'must not contain control characters').default('');
/* eslint-enable no-control-regex */

/** The one rule for titles, wherever they come from (API requests, the service's callback). */
export const title = line(service.playlist.title.maxLength!);

export const uploadCreate = z.object({
  source: line(255),
  size: z.number('is required: the file size in bytes').int('must be an integer').min(0, 'must be at least 0'),
  type: z.string().max(255).optional(),
});

export const playlistCreate = z.object({
  title,
  description: description(service.playlist.description.maxLength!),
});

const renditions = service.channel.rendition_count;
const renditionRange = `must be an integer from ${renditions.minValue} to ${renditions.maxValue}`;

export const channelCreate = z.object({
  title: line(service.channel.title.maxLength!),
  description: description(service.channel.description.maxLength!),
  region: z.enum(service.channel.region.options, `must be ${choices(service.channel.region.options)}`),
  rendition_count: z.number(renditionRange).int(renditionRange).min(renditions.minValue!, renditionRange).max(renditions.maxValue!, renditionRange),
});

export const callbackFields = z.object({ file_id: id, title });

export const playlistContent = z.object({
  items: z
    .array(
      z.object({
        id,
        type: z.enum(service.item.type.options, `is required: ${choices(service.item.type.options.map((type) => `"${type}"`))}`),
      }),
    )
    .max(500, 'must hold at most 500 items'),
  base_save_date: z.string().min(1).max(64).optional(),
});
