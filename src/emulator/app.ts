// createLocalService: the service of the seed on this machine, as three origins (API, upload
// address, player) on three ports, like production. Each origin is a Hono app, i.e. a
// web-standard fetch handler, served here with @hono/node-server.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { apiApp } from './api.js';
import type { ServiceContext } from './context.js';
import { Control } from './control.js';
import { Encoder } from './encoder.js';
import { silentLogger, type Logger } from './log.js';
import { playerApp } from './player/origin.js';
import { Store } from './store.js';
import { uploadApp } from './upload.js';

export interface LocalServiceOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Ports of the three origins; 0 (the default) = any free port. */
  apiPort?: number;
  uploadPort?: number;
  playerPort?: number;
  /** The account's API key (X-Api-Key). Default `dev-key`. */
  apiKey?: string;
  accountId?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  bucket?: string;
  /** Delay before an uploaded VOD is ready and its callback is sent. Default 1500. */
  processingMs?: number;
  /** Where uploaded files go; a temporary folder (removed by close) when not given. */
  dataDir?: string;
  /** Enables the control API under /_control on the API origin. Default false. */
  control?: boolean;
  /** Largest file the upload address accepts for a VOD. Default 5 GiB. */
  maxUploadBytes?: number;
  /** Callback attempts, the first included. Default 6. */
  callbackAttempts?: number;
  /** Delay before the first callback retry, doubled each time. Default 500. */
  callbackRetryMs?: number;
  /** Time limit of one callback attempt. Default 10000. */
  callbackTimeoutMs?: number;
  /** Policy lifetime of upload signatures. Default 1 hour. */
  signatureTtlMs?: number;
  logger?: Logger;
}

export interface LocalService {
  baseUrl: string;
  uploadUrl: string;
  playerUrl: string;
  accountId: string;
  apiKey: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  dataDir: string;
  /** The three origins as fetch handlers (usable without sockets: `api.request('/v2/...')`). */
  api: Hono;
  upload: Hono;
  player: Hono;
  close(): Promise<void>;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  apiKey: 'dev-key',
  accountId: 'acct-local',
  accessKeyId: 'AKIALOCALSERVICE0001',
  secretAccessKey: 'local-service-secret-access-key',
  region: 'us-east-1',
  bucket: 'svc-local-uploads',
  processingMs: 1500,
  maxUploadBytes: 5 * 1024 ** 3,
  callbackAttempts: 6,
  callbackRetryMs: 500,
  callbackTimeoutMs: 10_000,
} as const;

function listen(app: Hono, host: string, port: number): Promise<ServerType> {
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, () => resolvePromise(server));
    server.once('error', reject);
  });
}

function urlOf(server: ServerType, host: string): string {
  const { port } = server.address() as AddressInfo;
  // A wildcard address is not something a browser can reach; loopback is.
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export async function createLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const o = { ...DEFAULTS, ...withoutUndefined(options) };
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ? resolve(options.dataDir) : await mkdtemp(join(tmpdir(), 'svc-emulator-'));
  await mkdir(dataDir, { recursive: true });
  const log = options.logger ?? silentLogger;
  const control = new Control({ signature_ttl_ms: options.signatureTtlMs ?? null, processing_ms: o.processingMs });
  const ctx: ServiceContext = {
    config: {
      apiKey: o.apiKey,
      accountId: o.accountId,
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, region: o.region },
      bucket: o.bucket,
      acl: 'public-read',
      maxUploadBytes: o.maxUploadBytes,
      dataDir,
      control: Boolean(o.control),
      ingestDomain: 'svc.localhost',
    },
    urls: { baseUrl: '', uploadUrl: '', playerUrl: '' },
    store: new Store(),
    control,
    encoder: new Encoder(
      control,
      { callbackAttempts: o.callbackAttempts, callbackRetryMs: o.callbackRetryMs, callbackTimeoutMs: o.callbackTimeoutMs },
      log,
    ),
    log,
  };
  const api = apiApp(ctx);
  const upload = uploadApp(ctx);
  const player = playerApp(ctx);
  const servers: ServerType[] = [];
  try {
    servers.push(await listen(api, o.host, options.apiPort ?? 0));
    servers.push(await listen(upload, o.host, options.uploadPort ?? 0));
    servers.push(await listen(player, o.host, options.playerPort ?? 0));
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  ctx.urls.baseUrl = urlOf(servers[0]!, o.host);
  ctx.urls.uploadUrl = urlOf(servers[1]!, o.host);
  ctx.urls.playerUrl = urlOf(servers[2]!, o.host);
  log.info('listening', { ...ctx.urls, data_dir: dataDir, control: ctx.config.control });

  let closing: Promise<void> | undefined;
  return {
    ...ctx.urls,
    accountId: o.accountId,
    apiKey: o.apiKey,
    accessKeyId: o.accessKeyId,
    secretAccessKey: o.secretAccessKey,
    region: o.region,
    bucket: o.bucket,
    dataDir,
    api,
    upload,
    player,
    close() {
      closing ??= (async () => {
        ctx.encoder.close();
        await Promise.all(servers.map(closeServer));
        if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolvePromise) => {
    server.close(() => resolvePromise());
    // Keep-alive and half-finished uploads would hold close() open.
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
