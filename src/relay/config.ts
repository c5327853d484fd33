// Options of createRelay (library) and their defaults, plus the environment variables of the CLI
// (ARCHITECTURE.md, "Configuration"). One path: environment strings are read into options
// (reading judges nothing), and options, from the CLI or a library caller, meet one set of rules
// with one clear message per problem. Messages name the environment variable and the expected
// form, never the value: a mis-set variable can hold the key.
import { fileURLToPath } from 'node:url';
import type { Authenticate } from './auth.js';
import { isAddressOrRange, type TrustProxy } from './client-address.js';
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
  /**
   * How long events are kept, seconds (SVC_EVENT_RETENTION also takes `7d`, `36h`, `90m`); at least
   * `callbackTtlS`. Default 7 days, or `callbackTtlS` when that is longer.
   */
  eventRetentionS?: number;
  /** Total time an anonymous (public) request may spend on the service, retries included. Default 10 000 ms. */
  publicUpstreamBudgetMs?: number;
  /** SSE heartbeat interval. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Receives each JSON log line (already redacted). Default: stderr. */
  logger?: LogSink;
  /**
   * The script-tag build served under <basePath>/: its entry (served as elements.js) or its folder,
   * whose manifest.json lists the files served. Default dist/cdn/elements.js of the package.
   */
  elementsBundlePath?: string;
  /**
   * Take client addresses from X-Forwarded-For: the rightmost address not added by a trusted
   * proxy. `n` (or `true`, one) proxy hops in front of the relay, or the proxies' addresses and
   * CIDR ranges. Default false: the socket's address.
   */
  trustProxy?: boolean | number | string[];
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
  eventRetentionS: number;
  publicUpstreamBudgetMs: number;
  heartbeatMs: number;
  elementsBundlePath: string;
  trustProxy: TrustProxy;
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
    // A folder of 200+ videos in one go: each upload is one create and one read (POST /uploads).
    create: { limit: 250, windowMs: 60_000 },
    read: { limit: 600, windowMs: 60_000 },
    public: { limit: 600, windowMs: 60_000 },
  },
  maxStreamsPerUser: 10,
  authMaxTtlS: 86_400,
  callbackTtlS: 7 * 86_400,
  eventRetentionS: 7 * 86_400,
  publicUpstreamBudgetMs: 10_000,
  heartbeatMs: 15_000,
  elementsBundlePath: fileURLToPath(new URL('../../dist/cdn/elements.js', import.meta.url)),
  embedCacheTtlMs: 300_000,
  bodyTimeoutMs: 15_000,
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH'];
const MAX_TTL_S = 366 * 86_400;
const MAX_RETENTION_S = 3660 * 86_400;

/** A rule: the problem with a value (completing "<name> ..."), or undefined. */
type Rule = (value: unknown) => string | undefined;

const integer =
  (min: number, max: number): Rule =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max ? undefined : `must be an integer from ${min} to ${max}`;

const positive =
  (max = Infinity): Rule =>
  (value) =>
    typeof value === 'number' && value > 0 && value <= max ? undefined : max === Infinity ? 'must be a positive number' : `must be a positive number up to ${max}`;

const oneOf =
  (...values: unknown[]): Rule =>
  (value) =>
    values.includes(value) ? undefined : `must be ${values.map((v) => JSON.stringify(v)).join(' or ')}`;

const httpUrl: Rule = (value) => {
  try {
    const url = new URL(String(value));
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an absolute URL (http or https), e.g. https://api.example.com';
  }
};

const origins: Rule = (value) => {
  const valid = (origin: unknown) => {
    try {
      return new URL(String(origin)).origin === origin;
    } catch {
      return false;
    }
  };
  return Array.isArray(value) && value.every(valid) ? undefined : 'must list origins (scheme://host[:port], no path or trailing slash)';
};

/** One option (or CLI setting), where the CLI reads it, and the rule it meets. */
interface Setting {
  /** Its path in the options: `rateLimits.read.limit` for a nested one. */
  key: string;
  env?: string;
  /** The option from its environment string (trimmed, not empty). Reading judges nothing. */
  read?: (raw: string) => unknown;
  required?: boolean;
  rule?: Rule;
}

const number = (raw: string) => Number(raw);
const UNIT_S: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
/** Seconds from `604800` or a duration `7d`, `36h`, `90m`, `30s` (anything else is left for the rule to refuse). */
const seconds = (raw: string) => {
  const match = /^(\d+)\s*([smhd])$/i.exec(raw);
  return match ? Number(match[1]) * UNIT_S[match[2]!.toLowerCase()]! : /^\d+$/.test(raw) ? Number(raw) : raw;
};
const list = (separator: RegExp) => (raw: string) => raw.split(separator).map((item) => item.trim()).filter(Boolean);
const withoutTrailingSlash = (raw: string) => raw.replace(/\/+$/, '');

const RATE_LIMITS = (['create', 'read', 'public'] as const).flatMap((name): Setting[] => [
  { key: `rateLimits.${name}.limit`, env: `SVC_RATE_LIMIT_${name.toUpperCase()}`, read: number, rule: integer(1, 1_000_000_000) },
  { key: `rateLimits.${name}.windowMs`, rule: integer(1, 86_400_000) },
]);

const SETTINGS: Setting[] = [
  { key: 'host', env: 'SVC_RELAY_HOST' },
  { key: 'port', env: 'SVC_RELAY_PORT', read: number, rule: integer(0, 65535) },
  { key: 'apiKey', env: 'SVC_API_KEY', required: true, rule: (value) => (typeof value === 'string' ? undefined : 'must be a string') },
  { key: 'baseUrl', env: 'SVC_BASE_URL', required: true, rule: httpUrl },
  { key: 'uploadUrl', env: 'SVC_UPLOAD_URL', required: true, rule: httpUrl },
  { key: 'playerUrl', env: 'SVC_PLAYER_URL', required: true, rule: httpUrl },
  { key: 'publicUrl', env: 'SVC_PUBLIC_URL', rule: httpUrl },
  {
    key: 'basePath',
    env: 'SVC_RELAY_BASE_PATH',
    read: withoutTrailingSlash,
    rule: (value) =>
      typeof value === 'string' && /^((\/[A-Za-z0-9._~-]+)+)?\/*$/.test(value)
        ? undefined
        : 'must be a path such as /svc (letters, digits, ".", "_", "~", "-" between slashes)',
  },
  { key: 'auth', env: 'SVC_AUTH', rule: (value) => (typeof value === 'function' ? undefined : oneOf('jwt', 'dev')(value)) },
  { key: 'jwtSecret', env: 'SVC_AUTH_JWT_SECRET' },
  { key: 'allowedOrigins', env: 'SVC_ALLOWED_ORIGINS', read: list(/,/), rule: origins },
  { key: 'database', env: 'SVC_DATABASE' },
  { key: 'databasePool', env: 'SVC_DATABASE_POOL', read: number, rule: integer(1, 1000) },
  { key: 'maxUploadBytes', env: 'SVC_MAX_UPLOAD_BYTES', read: number, rule: integer(1, Number.MAX_SAFE_INTEGER) },
  {
    key: 'playlistUpdate',
    env: 'SVC_PLAYLIST_UPDATE',
    read: (raw) => parsePlaylistUpdate(raw) ?? raw,
    rule: (value) => {
      const update = value as { method?: unknown; path?: unknown } | null;
      return typeof update === 'object' && update && parsePlaylistUpdate(`${String(update.method)} ${String(update.path)}`)
        ? undefined
        : 'must be "METHOD /path/with/{playlistId}" (METHOD one of GET, POST, PUT, PATCH), e.g. "PUT /v2/playlists/{playlistId}/content"';
    },
  },
  { key: 'playlistUpdateEnvelope', env: 'SVC_PLAYLIST_UPDATE_ENVELOPE', rule: oneOf('array', 'string') },
  { key: 'playlistPositions', env: 'SVC_PLAYLIST_POSITIONS', rule: oneOf('number', 'string') },
  { key: 'iframeOrigins', env: 'SVC_IFRAME_ORIGINS', read: list(/[\s,]+/), rule: origins },
  { key: 'consistencyWindowMs', env: 'SVC_CONSISTENCY_WINDOW_MS', read: number, rule: integer(0, 3_600_000) },
  {
    key: 'trustProxy',
    env: 'SVC_TRUST_PROXY',
    read: (raw) => (/^true$/i.test(raw) ? true : /^false$/i.test(raw) ? false : /^\d+$/.test(raw) ? Number(raw) : list(/,/)(raw)),
    rule: (value) =>
      typeof value === 'boolean' ||
      (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 100) ||
      (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' && isAddressOrRange(item)))
        ? undefined
        : 'must be a number of proxy hops (0 to 100; 1 or true: one proxy; 0 or false: none) or a comma-separated list of proxy addresses or CIDR ranges',
  },
  { key: 'timeoutMs', env: 'SVC_UPSTREAM_TIMEOUT_MS', read: number, rule: integer(1, 600_000) },
  { key: 'retries', env: 'SVC_UPSTREAM_RETRIES', read: number, rule: integer(0, 10) },
  ...RATE_LIMITS,
  { key: 'maxStreamsPerUser', env: 'SVC_MAX_STREAMS_PER_USER', read: number, rule: integer(1, 1_000_000) },
  { key: 'authMaxTtlS', env: 'SVC_AUTH_MAX_TTL_S', read: number, rule: positive(MAX_TTL_S) },
  { key: 'callbackTtlS', env: 'SVC_CALLBACK_TTL_S', read: number, rule: positive(MAX_TTL_S) },
  {
    key: 'eventRetentionS',
    env: 'SVC_EVENT_RETENTION',
    read: seconds,
    rule: (value) =>
      Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_RETENTION_S
        ? undefined
        : `must be a duration in seconds (e.g. 604800) or with a unit (7d, 36h, 90m), from 1 s to ${MAX_RETENTION_S / 86_400} days`,
  },
  { key: 'elementsBundlePath', env: 'SVC_ELEMENTS_BUNDLE' },
  { key: 'publicUpstreamBudgetMs', rule: positive() },
  { key: 'heartbeatMs', rule: positive() },
  { key: 'embedCacheTtlMs', rule: positive() },
  { key: 'bodyTimeoutMs', rule: positive() },
];

const JWT_SECRET = SETTINGS.find((setting) => setting.key === 'jwtSecret')!;
const RETENTION = SETTINGS.find((setting) => setting.key === 'eventRetentionS')!;

/** Every environment variable the CLI reads (its --help lists them all), besides SVC_ENV_FILE. */
export const ENV_VARIABLES = SETTINGS.flatMap((setting) => (setting.env ? [setting.env] : []));

function getPath(values: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], values);
}

function setPath(values: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let target = values;
  for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
  target[parts.at(-1)!] = value;
}

/**
 * The one validation of the options, wherever they come from. `name` says how a message names a
 * setting: the CLI says the variable, a library caller the option and its variable.
 */
function problemsOf(values: Record<string, unknown>, name: (setting: Setting) => string): string[] {
  const problems: string[] = [];
  for (const setting of SETTINGS) {
    const value = getPath(values, setting.key);
    if (value === undefined || value === '') {
      if (setting.required) problems.push(name(setting).replace('%s', 'is required'));
      continue;
    }
    const problem = setting.rule?.(value);
    if (problem) problems.push(name(setting).replace('%s', problem));
  }
  const retention = values.eventRetentionS;
  const callbackTtl = typeof values.callbackTtlS === 'number' ? values.callbackTtlS : DEFAULTS.callbackTtlS;
  if (RETENTION.rule!(retention) === undefined && (retention as number) < callbackTtl) {
    // Events of an upload whose callback may still come must outlive it (a browser replaying them).
    problems.push(name(RETENTION).replace('%s', `must be at least the callback lifetime (SVC_CALLBACK_TTL_S, ${callbackTtl} s)`));
  }
  const jwtSecret = values.jwtSecret;
  if ((values.auth ?? 'jwt') === 'jwt' && !(typeof jwtSecret === 'string' && jwtSecret.length >= 32)) {
    problems.push(name(JWT_SECRET).replace('%s', 'of at least 32 characters is required with jwt auth (SVC_AUTH=jwt, the default; SVC_AUTH=dev on loopback needs none)'));
  }
  return problems;
}

/** "<option> <problem> (<VARIABLE>)", for library callers. */
const optionName = (setting: Setting) => `${setting.key} %s${setting.env ? ` (${setting.env})` : ''}`;

/** Parses "METHOD /path/{playlistId}/..." (SVC_PLAYLIST_UPDATE). */
export function parsePlaylistUpdate(value: string): { method: string; path: string } | undefined {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(value);
  if (!match || !METHODS.includes(match[1]!.toUpperCase()) || !match[2]!.includes('{playlistId}')) return undefined;
  return { method: match[1]!.toUpperCase(), path: match[2]! };
}

/** Fills defaults and checks options; throws one Error listing every problem (never the key). */
export function resolveConfig(options: RelayOptions): ResolvedConfig {
  const problems = problemsOf(options as unknown as Record<string, unknown>, optionName);
  if (problems.length) throw new Error(`Invalid relay options:\n${problems.join('\n')}`);
  const playlistUpdate = options.playlistUpdate ?? DEFAULTS.playlistUpdate;
  return {
    apiKey: options.apiKey,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    uploadUrl: options.uploadUrl,
    playerUrl: options.playerUrl.replace(/\/+$/, ''),
    publicUrl: (options.publicUrl ?? DEFAULTS.publicUrl).replace(/\/+$/, ''),
    basePath: (options.basePath ?? DEFAULTS.basePath).replace(/\/+$/, ''),
    jwtSecret: options.jwtSecret,
    allowedOrigins: options.allowedOrigins ?? [],
    database: options.database ?? DEFAULTS.database,
    databasePool: options.databasePool ?? DEFAULTS.databasePool,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULTS.maxUploadBytes,
    playlistUpdate: { method: playlistUpdate.method.toUpperCase(), path: playlistUpdate.path },
    playlistUpdateEnvelope: options.playlistUpdateEnvelope ?? DEFAULTS.playlistUpdateEnvelope,
    playlistPositions: options.playlistPositions ?? DEFAULTS.playlistPositions,
    iframeOrigins: [...new Set([new URL(options.playerUrl).origin, ...(options.iframeOrigins ?? [])])],
    consistencyWindowMs: options.consistencyWindowMs ?? DEFAULTS.consistencyWindowMs,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    retries: options.retries ?? DEFAULTS.retries,
    rateLimits: {
      create: { ...DEFAULTS.rateLimits.create, ...options.rateLimits?.create },
      read: { ...DEFAULTS.rateLimits.read, ...options.rateLimits?.read },
      public: { ...DEFAULTS.rateLimits.public, ...options.rateLimits?.public },
    },
    maxStreamsPerUser: options.maxStreamsPerUser ?? DEFAULTS.maxStreamsPerUser,
    authMaxTtlS: options.authMaxTtlS ?? DEFAULTS.authMaxTtlS,
    callbackTtlS: options.callbackTtlS ?? DEFAULTS.callbackTtlS,
    eventRetentionS: options.eventRetentionS ?? Math.max(DEFAULTS.eventRetentionS, options.callbackTtlS ?? DEFAULTS.callbackTtlS),
    publicUpstreamBudgetMs: options.publicUpstreamBudgetMs ?? DEFAULTS.publicUpstreamBudgetMs,
    heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
    elementsBundlePath: options.elementsBundlePath ?? DEFAULTS.elementsBundlePath,
    trustProxy: options.trustProxy === true ? 1 : (options.trustProxy ?? false) || false,
    embedCacheTtlMs: options.embedCacheTtlMs ?? DEFAULTS.embedCacheTtlMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
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

/** Reads the CLI's environment into options, then checks them. Returns the config or the problems, one line each. */
export function configFromEnv(env: Record<string, string | undefined>): { config?: CliConfig; problems: string[] } {
  const values: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    const raw = setting.env === undefined ? undefined : env[setting.env]?.trim();
    if (!raw) continue;
    setPath(values, setting.key, setting.read ? setting.read(raw) : raw);
    // A limit from the environment counts per minute.
    if (setting.key.startsWith('rateLimits.')) setPath(values, setting.key.replace(/limit$/, 'windowMs'), 60_000);
  }
  const { host = '127.0.0.1', port = 8787, ...options } = values as { host?: string; port?: number } & Record<string, unknown>;
  options.auth ??= 'jwt';
  const problems = problemsOf(values, (setting) => `${setting.env ?? setting.key} %s`);
  if (options.auth === 'dev' && !isLoopbackHost(host)) {
    problems.push('SVC_AUTH=dev is refused unless SVC_RELAY_HOST is a loopback address (127.0.0.1, ::1 or localhost)');
  }
  if (problems.length) return { problems };
  return { problems, config: { host, port, options: options as unknown as CliConfig['options'] } };
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
