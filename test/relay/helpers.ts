// Helpers of the relay tests: a relay on a real loopback port, JWT signing, log capture and a
// scanner that fails when the API key shows up anywhere in a response.
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { serve } from '@hono/node-server';
import { SignJWT } from 'jose';
import { createRelay, type Relay, type RelayOptions } from '../../src/relay/app.js';
import { freshDatabase, postgresAvailable } from '../support/postgres.js';
import { withDeadline } from '../support/wait.js';

export const JWT_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

export function signToken(sub: string, secret = JWT_SECRET, expires = '10m'): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().setExpirationTime(expires).sign(new TextEncoder().encode(secret));
}

/** A store the relay tests run against. */
/** Options of a relay whose service is unreachable (the tests that need no upstream), and requests to it. */
export function offlineOptions(apiKey: string) {
  return {
    apiKey,
    baseUrl: 'http://127.0.0.1:9',
    uploadUrl: 'http://127.0.0.1:10/upload',
    playerUrl: 'http://127.0.0.1:11',
    publicUrl: 'http://relay.test',
  };
}
export const relayRequest = (path: string, init: RequestInit = {}) => new Request(`http://relay.test/svc${path}`, init);

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty database (a `database` option): SQLite in memory, or a file in `dir` when given. */
  database(dir?: string): Promise<string>;
}

/** SQLite always; PostgreSQL when its server binaries are installed (test/support/postgres.ts). */
export const STORES: StoreKind[] = [
  // A file, as the relay runs it (durability is part of what is tested), in `dir` or a fresh directory.
  { name: 'sqlite', database: async (dir) => join(dir ?? mkdtempSync(join(tmpdir(), 'svc-relay-test-')), `relay-${randomBytes(4).toString('hex')}.db`) },
  ...(postgresAvailable() ? [{ name: 'postgres' as const, database: () => freshDatabase() }] : []),
];

/**
 * describe() once per store, the store's name in the title: the one way a relay test that
 * touches the store runs against SQLite and PostgreSQL. Use `await store.database()` in before().
 */
export function describeStores(title: string, body: (store: StoreKind) => void): void {
  for (const store of STORES) describe(`${title} [${store.name}]`, () => body(store));
}

export function logCapture() {
  const lines: string[] = [];
  return { lines, sink: (line: string) => void lines.push(line) };
}

export interface RelayServer {
  relay: Relay;
  origin: string;
  url: string;
  close(): Promise<void>;
}

/** A relay on 127.0.0.1:<free port>, served by its Node request listener as the CLI serves it. */
export async function startRelay(options: RelayOptions | ((origin: string) => RelayOptions)): Promise<RelayServer> {
  const box: { relay?: Relay } = {};
  const server: Server = await new Promise((resolve) => {
    const s = createServer((incoming, outgoing) => box.relay!.requestListener(incoming, outgoing));
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const relay = (box.relay = createRelay(typeof options === 'function' ? options(origin) : { publicUrl: origin, ...options }));
  return {
    relay,
    origin,
    url: `${origin}/svc`,
    async close() {
      await relay.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Collects every response's headers and body text so a test can assert the key is nowhere. */
export class KeyScanner {
  readonly seen: string[] = [];
  constructor(readonly secret: string) {}

  async fetch(url: string, init?: RequestInit): Promise<{ response: Response; text: string; json: any }> {
    const response = await fetch(url, init);
    const text = await response.text();
    this.record(response, text);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { response, text, json };
  }

  record(response: Response, text: string) {
    const headers = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    this.seen.push(`${response.status} ${response.url}\n${headers}\n\n${text}`);
  }

  assertClean() {
    assert.ok(this.seen.length > 0, 'the scanner saw no responses');
    for (const entry of this.seen) {
      assert.ok(!entry.includes(this.secret), `the API key leaked in:\n${entry.slice(0, 500)}`);
    }
  }
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Svc-Request': '1', ...headers },
  body: JSON.stringify(body),
});

export function multipart(parts: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.append(name, value);
  return form;
}

/** Reads `event: upload` messages of an SSE response as they come. */
export class SseReader {
  readonly events: { id: number; event: string; data: any }[] = [];
  readonly comments: string[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];
  #done = false;
  readonly finished: Promise<void>;

  constructor(readonly response: Response) {
    this.finished = this.#pump();
  }

  #reader: ReadableStreamDefaultReader<string> | undefined;

  /** Disconnects (like a browser tab closing). */
  async close(): Promise<void> {
    await this.#reader?.cancel().catch(() => {});
    await this.finished;
  }

  async #pump() {
    const reader = (this.#reader = this.response.body!.pipeThrough(new TextDecoderStream()).getReader());
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.#buffer += value;
        let index: number;
        while ((index = this.#buffer.indexOf('\n\n')) >= 0) {
          const block = this.#buffer.slice(0, index);
          this.#buffer = this.#buffer.slice(index + 2);
          const message: { id?: number; event?: string; data?: string } = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) message.id = Number(line.slice(4));
            else if (line.startsWith('event: ')) message.event = line.slice(7);
            else if (line.startsWith('data: ')) message.data = line.slice(6);
          }
          if (message.data !== undefined) this.events.push({ id: message.id!, event: message.event ?? 'message', data: JSON.parse(message.data) });
          this.#wake();
        }
      }
    } catch {
      // aborted by the test
    } finally {
      this.#done = true;
      this.#wake();
    }
  }

  #wake() {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /**
   * Resolves when `predicate` holds (checked after each message); rejects if the stream ends first,
   * or when it still does not hold after `limitMs` (heartbeats keep a stream alive forever).
   */
  async until(predicate: () => boolean, what: string, limitMs = 20_000): Promise<void> {
    const waiting = (async () => {
      while (!predicate()) {
        if (this.#done) throw new Error(`SSE stream ended before: ${what}`);
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
      }
    })();
    await withDeadline(waiting, `${what} on the SSE stream (${this.events.length} events so far)`, limitMs);
  }

  get ended(): boolean {
    return this.#done;
  }
}

export async function control(controlUrl: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${controlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * A loopback HTTP server in front of `target` (the local service's API) that forwards every
 * request and remembers the callback URLs the relay sends in `POST /v2/vod`: tests that play the
 * service's callback need the token, which the service's control API never shows.
 */
export async function recordingProxy(target: () => string): Promise<{ url: string; callbackUrls: string[]; close(): Promise<void> }> {
  const callbackUrls: string[] = [];
  const server: Server = await new Promise((resolve) => {
    const s = serve(
      {
        fetch: async (request) => {
          const url = new URL(request.url);
          const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
          if (request.method === 'POST' && url.pathname === '/v2/vod' && body) {
            const callback = (JSON.parse(body) as { callback_url?: string }).callback_url;
            if (callback) callbackUrls.push(callback);
          }
          const headers = new Headers(request.headers);
          headers.delete('host');
          return fetch(target() + url.pathname + url.search, { method: request.method, headers, body });
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s as Server),
    );
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    callbackUrls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
