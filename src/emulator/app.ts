// createLocalService: the service on this machine, as four origins (API, upload address, player,
// iframe player) on four ports, like production. Each origin is a Hono app, i.e. a web-standard
// fetch handler, served here with @hono/node-server. The `observed` profile (default) behaves as
// the real service's public clients show; `seed` keeps to the seed's literal contract.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { apiApp } from './api.js';
import type { Profile, ServiceContext } from './context.js';
import { Control } from './control.js';
import { Encoder } from './encoder.js';
import { silentLogger, type Logger } from './log.js';
import { iframeApp } from './player/iframe-origin.js';
import { playerApp } from './player/origin.js';
import { Store } from './store.js';
import { uploadApp } from './upload.js';

export interface LocalServiceOptions {
  /** 'observed' (default) or 'seed' (docs/local-service.md). */
  profile?: Profile;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Ports of the four origins; 0 (the default) = any free port. */
  apiPort?: number;
  uploadPort?: number;
  playerPort?: number;
  iframePort?: number;
  /** Sign uploads as with temporary credentials: an extra x-amz-security-token field. Default false. */
  temporaryCredentials?: boolean;
  /** A new playlist answers 404, an updated one shows its old content, for this long. Default 0. */
  consistencyMs?: number;
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
  profile: Profile;
  baseUrl: string;
  uploadUrl: string;
  playerUrl: string;
  /** The iframe player's origin (observed iframe codes point here). */
  iframeUrl: string;
  accountId: string;
  apiKey: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  dataDir: string;
  /** The four origins as fetch handlers (usable without sockets: `api.request('/v2/...')`). */
  api: Hono;
  upload: Hono;
  player: Hono;
  iframe: Hono;
  close(): Promise<void>;
}

export const DEFAULTS = {
  profile: 'observed' as Profile,
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
  consistencyMs: 0,
};

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
  const control = new Control({ signature_ttl_ms: options.signatureTtlMs ?? null, processing_ms: o.processingMs, list_item_types: true, policy_max_bytes: null });
  const ctx: ServiceContext = {
    config: {
      profile: o.profile,
      apiKey: o.apiKey,
      accountId: o.accountId,
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, region: o.region },
      bucket: o.bucket,
      acl: 'public-read',
      maxUploadBytes: o.maxUploadBytes,
      dataDir,
      control: Boolean(o.control),
      ingestDomain: 'svc.localhost',
      ...(o.temporaryCredentials ? { securityToken: `FwoGZXIvYXdzE${randomBytes(24).toString('base64url')}` } : {}),
      consistencyMs: o.consistencyMs,
    },
    urls: { baseUrl: '', uploadUrl: '', playerUrl: '', iframeUrl: '' },
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
  const iframe = iframeApp(ctx);
  const servers: ServerType[] = [];
  try {
    servers.push(await listen(api, o.host, options.apiPort ?? 0));
    servers.push(await listen(upload, o.host, options.uploadPort ?? 0));
    servers.push(await listen(player, o.host, options.playerPort ?? 0));
    servers.push(await listen(iframe, o.host, options.iframePort ?? 0));
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  ctx.urls.baseUrl = urlOf(servers[0]!, o.host);
  ctx.urls.uploadUrl = urlOf(servers[1]!, o.host);
  ctx.urls.playerUrl = urlOf(servers[2]!, o.host);
  ctx.urls.iframeUrl = urlOf(servers[3]!, o.host);
  log.info('listening', { ...ctx.urls, profile: o.profile, data_dir: dataDir, control: ctx.config.control });

  let closing: Promise<void> | undefined;
  return {
    ...ctx.urls,
    profile: o.profile,
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
    iframe,
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
