// Request-body validation for the API origin: JSON parsing and zod errors turned into the 400
// body that names each bad field.
import type { Context } from 'hono';
import type { z } from 'zod';
import { jsonError } from './http.js';

/** `content[0].type` style names for a zod issue path; the whole body is `body`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part, index) => (typeof part === 'number' ? `[${part}]` : index ? `.${String(part)}` : String(part)))
      .join('') || 'body'
  );
}

export function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = fieldName(issue.path);
    fields[name] ??= issue.message;
  }
  return fields;
}

export function invalid(fields: Record<string, string>): Response {
  const names = Object.keys(fields).join(', ');
  return jsonError(400, 'validation_failed', `Invalid request body: ${names}.`, fields);
}

/** Parses the JSON body against a schema: the data, or the 400 answer to send. */
export async function parseBody<T extends z.ZodType>(
  c: Context,
  schema: T,
): Promise<{ data: z.infer<T> } | { response: Response }> {
  let value: unknown;
  try {
    value = JSON.parse(await c.req.text());
  } catch {
    return { response: jsonError(400, 'validation_failed', 'The body must be JSON.', { body: 'must be JSON' }) };
  }
  const result = schema.safeParse(value);
  if (!result.success) return { response: invalid(fieldsOf(result.error)) };
  return { data: result.data };
}
