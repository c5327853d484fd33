// Helpers of the local-service tests: a seed-only API client, a real callback receiver and a
// polling wait (bounded, so a broken service fails the test instead of hanging it).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const KEY_HEADERS = { 'X-Api-Key': 'dev-key', 'X-Format': 'default' };

/** Calls {base_url} as the seed describes: key and format headers, JSON bodies. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = KEY_HEADERS,
  // Tests read many response shapes; each is checked by its assertions or its zod schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export { waitFor } from '../support/wait.js';

export interface ReceivedCallback {
  method: string;
  contentType: string;
  fields: Record<string, string>;
}

/** A tiny node:http server that records callback deliveries, parsed as multipart by undici. */
export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  /** Statuses to answer the next requests with (then 200). */
  readonly answers: number[] = [];
  #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<CallbackReceiver> {
    const server = createServer();
    const receiver = new CallbackReceiver(server);
    server.on('request', (request, response) => {
      void receiver.#handle(request).then(
        (status) => response.writeHead(status, { 'Content-Type': 'text/plain' }).end(String(status)),
        () => response.writeHead(400).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/callback`;
  }

  async #handle(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const contentType = request.headers['content-type'] ?? '';
    // Parse the body with the web-standard multipart parser, as a client of the seed would.
    const form = await new Response(Buffer.concat(chunks), { headers: { 'Content-Type': contentType } }).formData();
    const fields: Record<string, string> = {};
    for (const [name, value] of form) fields[name] = String(value);
    this.received.push({ method: request.method ?? '', contentType, fields });
    return this.answers.shift() ?? 200;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

/** The upload form of operation 2: the signature fields in the order returned, then `file`. */
export function uploadForm(signature: Record<string, string>, file: Blob, filename: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(signature)) form.append(name, value);
  form.append('file', file, filename);
  return form;
}

/** The `<Code>` of an S3 XML error body. */
export function s3Code(xml: string): string | undefined {
  return /<Code>([^<]*)<\/Code>/.exec(xml)?.[1];
}

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Cli {
  child: ChildProcess;
  /** The parsed ready line. */
  ready: Record<string, string>;
  stderr(): string;
  /** Sends the signal and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The CLI's source through tsx (bin/svc-emulator.js runs the compiled dist/, see test/e2e/packaging.test.ts). */
export const CLI = ['--import', 'tsx', 'src/emulator/cli.ts'];

/** Starts the CLI with `<args>` (by default from its source, in the repository) and waits for its ready line on stdout. */
export async function startCli(args: string[], { command = CLI, cwd = ROOT }: { command?: string[]; cwd?: string } = {}): Promise<Cli> {
  const child = spawn(process.execPath, [...command, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([
    once(lines, 'line'),
    exited.then(() => {
      throw new Error(`svc-emulator exited before ready: ${stderr}`);
    }),
  ])) as [string];
  return {
    child,
    ready: JSON.parse(line),
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}
