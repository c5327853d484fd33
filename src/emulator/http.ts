// Small HTTP pieces the three origins share: the JSON error body, body draining and the fault
// middleware of the control API.
import type { MiddlewareHandler } from 'hono';
import type { Control, Origin } from './control.js';

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export function jsonError(status: number, code: string, message: string, fields?: Record<string, string>): Response {
  const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}) } };
  return Response.json(body, { status });
}

/** Reads a request body to its end without keeping it, so the client can read our answer. */
export async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  try {
    const reader = body.getReader();
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing left to drain.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies injected faults of one origin: waits `latency_ms`, then closes the connection without an
 * answer when the fault drops it, answers `status` through `answer` when it has one, else lets the
 * request through.
 */
export function faults(
  control: Control,
  origin: Origin,
  answer: (status: number, request: Request) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const fault = control.takeFault(origin, c.req.method, new URL(c.req.url).pathname);
    if (!fault) return next();
    if (fault.latency_ms > 0) await sleep(fault.latency_ms);
    if (fault.drop) {
      // Served by @hono/node-server, which passes Node's request as `incoming`.
      (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket?.destroy();
      return new Response(null, { status: 502 }); // never written: the socket is gone
    }
    if (fault.status === null) return next();
    return answer(fault.status, c.req.raw);
  };
}
