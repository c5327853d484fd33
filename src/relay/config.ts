// Options of createRelay (library) and their defaults, plus the environment variables of the CLI
// (ARCHITECTURE.md, "Configuration"), validated with one clear message per problem. Messages
// name the variable and the expected form, never the value: a mis-set variable can hold the key.
import { fileURLToPath } from 'node:url';
import type { Authenticate } from './auth.js';
import type { Store } from './store/store.js';
import type { LogSink } from './log.js';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RelayOptions {
  apiKey: string;
  baseUrl: string;
  uploadUrl: string;
  playerUrl: string;
  /** Origin the service uses to reach the callback. Default http://127.0.0.1:8787. */
  publicUrl?: string;
  /** Default '/svc'. */
  basePath?: string;
  /** 'dev' trusts every caller as user "dev" (the CLI allows it on loopback only). Default 'jwt'. */
  auth?: 'dev' | 'jwt' | Authenticate;
  jwtSecret?: string;
  allowedOrigins?: string[];
  /** SQLite file path, ':memory:', or a postgres:// (postgresql://) URL. Default './.svc-data/relay.db'. */
  database?: string;
  /** PostgreSQL connections per relay instance. Default 10. */
  databasePool?: number;
  /** A store instance instead of `database`; the relay closes it on close(). */
  store?: Store;
  maxUploadBytes?: number;
  /** Upstream playlist update; `{playlistId}` is replaced by the encoded id. Default PUT /v2/playlists/{playlistId}/content. */
  playlistUpdate?: { method: string; path: string };
  /** 'string' (default) sends {"content": "<JSON of items>"}, 'array' sends {"content": [items]}. */
  playlistUpdateEnvelope?: 'array' | 'string';
  /** How update items carry `position`: 'number' (default, 1..n) or 'string' ("1".."n", the seed's form). */
  playlistPositions?: 'number' | 'string';
  /** Origins of the service's iframe player besides the player origin (which is always allowed). */
  iframeOrigins?: string[];
  /** How long after a create or save the relay covers for the service's eventual consistency. Default 60 000 ms. */
  consistencyWindowMs?: number;
  /** Upstream timeout per attempt. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts for idempotent upstream calls (GET). Default 2. */
  retries?: number;
  /** Per user: `create` for uploads, playlists and channels; `read` for every route that calls the service. Per address: `public`. */
  rateLimits?: { create?: RateLimit; read?: RateLimit; public?: RateLimit };
  /** Open event streams per user; opening one more closes the oldest. Default 10. */
  maxStreamsPerUser?: number;
  /** Longest lifetime a JWT may claim (exp - iat, or exp - now), seconds. Default 86 400. */
  authMaxTtlS?: number;
  /** Lifetime of a callback token, seconds; must exceed any encode. Default 604 800 (7 days). */
  callbackTtlS?: number;
  /** Total time an anonymous (public) request may spend on the service, retries included. Default 10 000 ms. */
  publicUpstreamBudgetMs?: number;
  /** SSE heartbeat interval. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Receives each JSON log line (already redacted). Default: stderr. */
  logger?: LogSink;
  /** File served at <basePath>/elements.js. Default dist/svc-elements.js of the package. */
  elementsBundlePath?: string;
  /** Take client addresses from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy?: boolean;
  /** Embed-code cache lifetime. Default 300 000 ms. */
  embedCacheTtlMs?: number;
  /** Time a callback sender gets to deliver its whole body. Default 15 000 ms. */
  bodyTimeoutMs?: number;
}

export interface ResolvedConfig {
  apiKey: string;
  baseUrl: string;
  uploadUrl: string;
  playerUrl: string;
  publicUrl: string;
  basePath: string;
  jwtSecret?: string;
  allowedOrigins: string[];
  database: string;
  databasePool: number;
  maxUploadBytes: number;
  playlistUpdate: { method: string; path: string };
  playlistUpdateEnvelope: 'array' | 'string';
  playlistPositions: 'number' | 'string';
  /** The player origin first, then SVC_IFRAME_ORIGINS (deduplicated). */
  iframeOrigins: string[];
  consistencyWindowMs: number;
  timeoutMs: number;
  retries: number;
  rateLimits: { create: RateLimit; read: RateLimit; public: RateLimit };
  maxStreamsPerUser: number;
  authMaxTtlS: number;
  callbackTtlS: number;
  publicUpstreamBudgetMs: number;
  heartbeatMs: number;
  elementsBundlePath: string;
  trustProxy: boolean;
  embedCacheTtlMs: number;
  bodyTimeoutMs: number;
}

export const DEFAULTS = {
  publicUrl: 'http://127.0.0.1:8787',
  basePath: '/svc',
  database: './.svc-data/relay.db',
  databasePool: 10,
  maxUploadBytes: 5 * 1024 ** 3,
  playlistUpdate: { method: 'PUT', path: '/v2/playlists/{playlistId}/content' },
  playlistUpdateEnvelope: 'string' as const,
  playlistPositions: 'number' as const,
  consistencyWindowMs: 60_000,
  timeoutMs: 10_000,
  retries: 2,
  rateLimits: {
    create: { limit: 60, windowMs: 60_000 },
    read: { limit: 300, windowMs: 60_000 },
    public: { limit: 600, windowMs: 60_000 },
  },
  maxStreamsPerUser: 10,
  authMaxTtlS: 86_400,
  callbackTtlS: 7 * 86_400,
  publicUpstreamBudgetMs: 10_000,
  heartbeatMs: 15_000,
  elementsBundlePath: fileURLToPath(new URL('../../dist/svc-elements.js', import.meta.url)),
  embedCacheTtlMs: 300_000,
  bodyTimeoutMs: 15_000,
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH'];

function httpUrlProblem(name: string, value: string | undefined): string | undefined {
  if (!value) return `${name} is required`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${name} must be an http(s) URL`;
  } catch {
    return `${name} must be an absolute URL (http or https), e.g. https://api.example.com`;
  }
  return undefined;
}

function originProblem(name: string, value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.origin !== value) return `${name} must list origins (scheme://host[:port], no path or trailing slash)`;
  } catch {
    return `${name} must list origins (scheme://host[:port])`;
  }
  return undefined;
}

/** Parses "METHOD /path/{playlistId}/..." (SVC_PLAYLIST_UPDATE). */
export function parsePlaylistUpdate(value: string): { method: string; path: string } | undefined {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(value);
  if (!match || !METHODS.includes(match[1]!.toUpperCase()) || !match[2]!.includes('{playlistId}')) return undefined;
  return { method: match[1]!.toUpperCase(), path: match[2]! };
}

/** Fills defaults and checks options; throws one Error listing every problem (never the key). */
export function resolveConfig(options: RelayOptions): ResolvedConfig {
  const problems: string[] = [];
  if (typeof options.apiKey !== 'string' || !options.apiKey) problems.push('apiKey is required');
  for (const name of ['baseUrl', 'uploadUrl', 'playerUrl'] as const) {
    const problem = httpUrlProblem(name, options[name]);
    if (problem) problems.push(problem);
  }
  const publicUrl = options.publicUrl ?? DEFAULTS.publicUrl;
  const publicProblem = httpUrlProblem('publicUrl', publicUrl);
  if (publicProblem) problems.push(publicProblem);
  const basePath = (options.basePath ?? DEFAULTS.basePath).replace(/\/+$/, '');
  if (basePath !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) problems.push('basePath must look like /svc');
  const auth = options.auth ?? 'jwt';
  if (auth === 'jwt' && (!options.jwtSecret || options.jwtSecret.length < 32)) {
    problems.push('jwtSecret of at least 32 characters is required with jwt auth');
  }
  for (const origin of options.allowedOrigins ?? []) {
    const problem = originProblem('allowedOrigins', origin);
    if (problem) problems.push(problem);
  }
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULTS.maxUploadBytes;
  if (!Number.isSafeInteger(maxUploadBytes) || maxUploadBytes <= 0) problems.push('maxUploadBytes must be a positive integer');
  const playlistUpdate = options.playlistUpdate ?? DEFAULTS.playlistUpdate;
  if (!parsePlaylistUpdate(`${playlistUpdate.method} ${playlistUpdate.path}`)) {
    problems.push('playlistUpdate must be {method: GET|POST|PUT|PATCH, path: "/...{playlistId}..."}');
  }
  const envelope = options.playlistUpdateEnvelope ?? DEFAULTS.playlistUpdateEnvelope;
  if (envelope !== 'array' && envelope !== 'string') problems.push('playlistUpdateEnvelope must be "array" or "string"');
  const positions = options.playlistPositions ?? DEFAULTS.playlistPositions;
  if (positions !== 'number' && positions !== 'string') problems.push('playlistPositions must be "number" or "string"');
  for (const origin of options.iframeOrigins ?? []) {
    const problem = originProblem('iframeOrigins', origin);
    if (problem) problems.push(problem);
  }
  const consistencyWindowMs = options.consistencyWindowMs ?? DEFAULTS.consistencyWindowMs;
  if (!Number.isSafeInteger(consistencyWindowMs) || consistencyWindowMs < 0) problems.push('consistencyWindowMs must be an integer >= 0');
  const positive = (name: string, value: number) => {
    if (!Number.isFinite(value) || value <= 0) problems.push(`${name} must be a positive number`);
    return value;
  };
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs);
  const heartbeatMs = positive('heartbeatMs', options.heartbeatMs ?? DEFAULTS.heartbeatMs);
  const embedCacheTtlMs = positive('embedCacheTtlMs', options.embedCacheTtlMs ?? DEFAULTS.embedCacheTtlMs);
  const bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs);
  const databasePool = options.databasePool ?? DEFAULTS.databasePool;
  if (!Number.isInteger(databasePool) || databasePool < 1 || databasePool > 1000) problems.push('databasePool must be an integer 1..1000');
  const retries = options.retries ?? DEFAULTS.retries;
  if (!Number.isInteger(retries) || retries < 0 || retries > 10) problems.push('retries must be an integer 0..10');
  const rateLimits = {
    create: { ...DEFAULTS.rateLimits.create, ...options.rateLimits?.create },
    read: { ...DEFAULTS.rateLimits.read, ...options.rateLimits?.read },
    public: { ...DEFAULTS.rateLimits.public, ...options.rateLimits?.public },
  };
  const maxStreamsPerUser = options.maxStreamsPerUser ?? DEFAULTS.maxStreamsPerUser;
  if (!Number.isSafeInteger(maxStreamsPerUser) || maxStreamsPerUser < 1) problems.push('maxStreamsPerUser must be a positive integer');
  const authMaxTtlS = positive('authMaxTtlS', options.authMaxTtlS ?? DEFAULTS.authMaxTtlS);
  const callbackTtlS = positive('callbackTtlS', options.callbackTtlS ?? DEFAULTS.callbackTtlS);
  const publicUpstreamBudgetMs = positive('publicUpstreamBudgetMs', options.publicUpstreamBudgetMs ?? DEFAULTS.publicUpstreamBudgetMs);
  for (const [name, limit] of Object.entries(rateLimits)) {
    if (!(limit.limit > 0) || !(limit.windowMs > 0)) problems.push(`rateLimits.${name} needs a positive limit and windowMs`);
  }
  if (problems.length) throw new Error(`Invalid relay options:\n${problems.join('\n')}`);
  return {
    apiKey: options.apiKey,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    uploadUrl: options.uploadUrl,
    playerUrl: options.playerUrl.replace(/\/+$/, ''),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    basePath,
    jwtSecret: options.jwtSecret,
    allowedOrigins: options.allowedOrigins ?? [],
    database: options.database ?? DEFAULTS.database,
    databasePool,
    maxUploadBytes,
    playlistUpdate: { method: playlistUpdate.method.toUpperCase(), path: playlistUpdate.path },
    playlistUpdateEnvelope: envelope,
    playlistPositions: positions,
    iframeOrigins: [...new Set([new URL(options.playerUrl).origin, ...(options.iframeOrigins ?? [])])],
    consistencyWindowMs,
    timeoutMs,
    retries,
    rateLimits,
    maxStreamsPerUser,
    authMaxTtlS,
    callbackTtlS,
    publicUpstreamBudgetMs,
    heartbeatMs,
    elementsBundlePath: options.elementsBundlePath ?? DEFAULTS.elementsBundlePath,
    trustProxy: options.trustProxy ?? false,
    embedCacheTtlMs,
    bodyTimeoutMs,
  };
}

export interface CliConfig {
  host: string;
  port: number;
  /** Relay options without publicUrl when SVC_PUBLIC_URL is unset (then: the listening URL). */
  options: Omit<RelayOptions, 'logger'>;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

function integer(env: Record<string, string | undefined>, name: string, problems: string[], min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return undefined;
  }
  return value;
}

/** Reads the CLI's environment. Returns the config or the list of problems, one line each. */
export function configFromEnv(env: Record<string, string | undefined>): { config?: CliConfig; problems: string[] } {
  const problems: string[] = [];
  const get = (name: string) => (env[name] ?? '').trim() || undefined;
  const apiKey = get('SVC_API_KEY');
  if (!apiKey) problems.push('SVC_API_KEY is required (the service API key; it stays on the server)');
  for (const name of ['SVC_BASE_URL', 'SVC_UPLOAD_URL', 'SVC_PLAYER_URL']) {
    const problem = httpUrlProblem(name, get(name));
    if (problem) problems.push(problem);
  }
  const publicUrl = get('SVC_PUBLIC_URL');
  if (publicUrl) {
    const problem = httpUrlProblem('SVC_PUBLIC_URL', publicUrl);
    if (problem) problems.push(problem);
  }
  const host = get('SVC_RELAY_HOST') ?? '127.0.0.1';
  const port = integer(env, 'SVC_RELAY_PORT', problems, 0, 65535) ?? 8787;
  const basePath = (get('SVC_RELAY_BASE_PATH') ?? '/svc').replace(/\/+$/, '');
  if (basePath !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    problems.push('SVC_RELAY_BASE_PATH must be a path such as /svc (letters, digits, ".", "_", "~", "-" between slashes)');
  }
  const auth = get('SVC_AUTH') ?? 'jwt';
  const jwtSecret = get('SVC_AUTH_JWT_SECRET');
  if (auth !== 'jwt' && auth !== 'dev') problems.push('SVC_AUTH must be "jwt" or "dev"');
  if (auth === 'jwt' && (!jwtSecret || jwtSecret.length < 32)) {
    problems.push('SVC_AUTH_JWT_SECRET of at least 32 characters is required when SVC_AUTH=jwt (or set SVC_AUTH=dev on loopback)');
  }
  if (auth === 'dev' && !isLoopbackHost(host)) {
    problems.push('SVC_AUTH=dev is refused unless SVC_RELAY_HOST is a loopback address (127.0.0.1, ::1 or localhost)');
  }
  const allowedOrigins = (get('SVC_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    const problem = originProblem('SVC_ALLOWED_ORIGINS', origin);
    if (problem) problems.push(problem);
  }
  const maxUploadBytes = integer(env, 'SVC_MAX_UPLOAD_BYTES', problems, 1, Number.MAX_SAFE_INTEGER);
  let playlistUpdate: { method: string; path: string } | undefined;
  const updateRaw = get('SVC_PLAYLIST_UPDATE');
  if (updateRaw) {
    playlistUpdate = parsePlaylistUpdate(updateRaw);
    if (!playlistUpdate) {
      problems.push(`SVC_PLAYLIST_UPDATE must be "METHOD /path/with/{playlistId}", e.g. "PUT /v2/playlists/{playlistId}/content"`);
    }
  }
  const envelope = get('SVC_PLAYLIST_UPDATE_ENVELOPE');
  if (envelope && envelope !== 'array' && envelope !== 'string') {
    problems.push('SVC_PLAYLIST_UPDATE_ENVELOPE must be "array" or "string"');
  }
  const positions = get('SVC_PLAYLIST_POSITIONS');
  if (positions && positions !== 'number' && positions !== 'string') {
    problems.push('SVC_PLAYLIST_POSITIONS must be "number" or "string"');
  }
  const iframeOrigins = (get('SVC_IFRAME_ORIGINS') ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of iframeOrigins) {
    const problem = originProblem('SVC_IFRAME_ORIGINS', origin);
    if (problem) problems.push(problem);
  }
  const consistencyWindowMs = integer(env, 'SVC_CONSISTENCY_WINDOW_MS', problems, 0, 3_600_000);
  const trustProxyRaw = get('SVC_TRUST_PROXY');
  if (trustProxyRaw && !/^(1|0|true|false)$/i.test(trustProxyRaw)) problems.push('SVC_TRUST_PROXY must be 1, 0, true or false');
  const timeoutMs = integer(env, 'SVC_UPSTREAM_TIMEOUT_MS', problems, 1, 600_000);
  const retries = integer(env, 'SVC_UPSTREAM_RETRIES', problems, 0, 10);
  const createLimit = integer(env, 'SVC_RATE_LIMIT_CREATE', problems, 1, 1_000_000);
  const readLimit = integer(env, 'SVC_RATE_LIMIT_READ', problems, 1, 1_000_000);
  const publicLimit = integer(env, 'SVC_RATE_LIMIT_PUBLIC', problems, 1, 1_000_000);
  const maxStreamsPerUser = integer(env, 'SVC_MAX_STREAMS_PER_USER', problems, 1, 10_000);
  const authMaxTtlS = integer(env, 'SVC_AUTH_MAX_TTL_S', problems, 1, 366 * 86_400);
  const callbackTtlS = integer(env, 'SVC_CALLBACK_TTL_S', problems, 1, 366 * 86_400);
  const databasePool = integer(env, 'SVC_DATABASE_POOL', problems, 1, 1000);
  const elementsBundlePath = get('SVC_ELEMENTS_BUNDLE');
  if (problems.length) return { problems };
  return {
    problems,
    config: {
      host,
      port,
      options: {
        apiKey: apiKey!,
        baseUrl: get('SVC_BASE_URL')!,
        uploadUrl: get('SVC_UPLOAD_URL')!,
        playerUrl: get('SVC_PLAYER_URL')!,
        ...(publicUrl ? { publicUrl } : {}),
        basePath,
        auth: auth as 'dev' | 'jwt',
        ...(jwtSecret ? { jwtSecret } : {}),
        allowedOrigins,
        database: get('SVC_DATABASE') ?? DEFAULTS.database,
        ...(databasePool ? { databasePool } : {}),
        ...(maxUploadBytes ? { maxUploadBytes } : {}),
        ...(playlistUpdate ? { playlistUpdate } : {}),
        ...(envelope ? { playlistUpdateEnvelope: envelope as 'array' | 'string' } : {}),
        ...(positions ? { playlistPositions: positions as 'number' | 'string' } : {}),
        ...(iframeOrigins.length ? { iframeOrigins } : {}),
        ...(consistencyWindowMs !== undefined ? { consistencyWindowMs } : {}),
        trustProxy: /^(1|true)$/i.test(trustProxyRaw ?? ''),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(retries !== undefined ? { retries } : {}),
        rateLimits: {
          ...(createLimit ? { create: { limit: createLimit, windowMs: 60_000 } } : {}),
          ...(readLimit ? { read: { limit: readLimit, windowMs: 60_000 } } : {}),
          ...(publicLimit ? { public: { limit: publicLimit, windowMs: 60_000 } } : {}),
        },
        ...(maxStreamsPerUser ? { maxStreamsPerUser } : {}),
        ...(authMaxTtlS ? { authMaxTtlS } : {}),
        ...(callbackTtlS ? { callbackTtlS } : {}),
        ...(elementsBundlePath ? { elementsBundlePath } : {}),
      },
    },
  };
}

/** Parses a .env file: KEY=VALUE lines, # comments, optional single or double quotes. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2]!;
    else value = value.replace(/\s+#.*$/, '');
    out[match[1]!] = value;
  }
  return out;
}
