// `svc-relay --help`: every command, environment variable and default of the CLI. The defaults
// come from config.ts's DEFAULTS; test/relay/cli.test.ts checks that every variable the CLI reads
// (ENV_VARIABLES) is listed here.
import { DEFAULTS } from './config.js';

const rows: [string, string, string][] = [
  ['SVC_API_KEY', 'required', "the account's API key; sent only to SVC_BASE_URL, never logged"],
  ['SVC_BASE_URL', 'required', "the service's API address ({base_url})"],
  ['SVC_UPLOAD_URL', 'required', "the service's upload address ({upload_url}), given to browsers"],
  ['SVC_PLAYER_URL', 'required', 'the player address ({player_url}); its origin is the allowed player origin'],
  ['SVC_AUTH', 'jwt', 'jwt, or dev (one local user; refused unless SVC_RELAY_HOST is loopback; answers loopback Host and Origin only)'],
  ['SVC_AUTH_JWT_SECRET', 'required with jwt', 'HS256 secret shared with the CMS, at least 32 characters'],
  ['SVC_RELAY_HOST', '127.0.0.1', 'interface to listen on'],
  ['SVC_RELAY_PORT', '8787', 'port (0 = any free port; see the ready line)'],
  ['SVC_RELAY_BASE_PATH', DEFAULTS.basePath, 'path prefix of every route'],
  ['SVC_PUBLIC_URL', 'the listening URL', "origin at which the service reaches the relay's callback"],
  ['SVC_ALLOWED_ORIGINS', 'none', 'comma-separated origins of pages on other origins (CORS, cookie requests)'],
  ['SVC_IFRAME_ORIGINS', 'none', "origins of the service's iframe player besides the player origin"],
  ['SVC_DATABASE', DEFAULTS.database, 'SQLite file, :memory:, or postgres://… (several instances)'],
  ['SVC_DATABASE_POOL', String(DEFAULTS.databasePool), 'PostgreSQL connections per instance'],
  ['SVC_MAX_UPLOAD_BYTES', `${DEFAULTS.maxUploadBytes} (5 GiB)`, 'largest file a browser may sign for'],
  ['SVC_MAX_STREAMS_PER_USER', String(DEFAULTS.maxStreamsPerUser), 'open event streams per user and instance; one more closes the oldest'],
  ['SVC_RATE_LIMIT_CREATE', String(DEFAULTS.rateLimits.create.limit), 'uploads, playlists and channels per user per minute'],
  ['SVC_RATE_LIMIT_READ', String(DEFAULTS.rateLimits.read.limit), 'requests per user per minute to routes that call the service'],
  ['SVC_RATE_LIMIT_PUBLIC', String(DEFAULTS.rateLimits.public.limit), 'requests per address per minute to /config and /embed/…'],
  ['SVC_AUTH_MAX_TTL_S', String(DEFAULTS.authMaxTtlS), 'longest lifetime of a JWT (it must carry exp)'],
  ['SVC_CALLBACK_TTL_S', `${DEFAULTS.callbackTtlS} (7 days)`, 'lifetime of a callback token'],
  ['SVC_EVENT_RETENTION', '7d (or SVC_CALLBACK_TTL_S when longer)', 'how long events are kept: seconds or <n>s/m/h/d, at least SVC_CALLBACK_TTL_S'],
  ['SVC_CONSISTENCY_WINDOW_MS', String(DEFAULTS.consistencyWindowMs), "how long the relay covers for the service's eventual consistency"],
  ['SVC_PLAYLIST_UPDATE', `${DEFAULTS.playlistUpdate.method} ${DEFAULTS.playlistUpdate.path}`, 'upstream method and path of the playlist update'],
  ['SVC_PLAYLIST_UPDATE_ENVELOPE', DEFAULTS.playlistUpdateEnvelope, 'string (content as a JSON string) or array'],
  ['SVC_PLAYLIST_POSITIONS', DEFAULTS.playlistPositions, 'number (1..n) or string ("1".."n")'],
  ['SVC_UPSTREAM_TIMEOUT_MS', String(DEFAULTS.timeoutMs), 'time limit of each upstream attempt'],
  ['SVC_UPSTREAM_RETRIES', String(DEFAULTS.retries), 'extra attempts of upstream GETs'],
  ['SVC_TRUST_PROXY', 'false', 'X-Forwarded-For: the rightmost address no trusted proxy added; 1/true (one proxy), <n> hops, or proxy addresses/CIDRs'],
  ['SVC_ELEMENTS_BUNDLE', 'dist/cdn/elements.js', 'the script-tag build served under <base path>/ (its entry elements.js, or its folder): the files its manifest.json lists'],
  ['SVC_ENV_FILE', '.env', 'the env file to read (the environment wins over it)'],
];

export const RELAY_USAGE = `Usage: svc-relay              serve the relay, configured by environment variables
       svc-relay migrate --from <sqlite file> --to <postgres url>
                              copy a SQLite relay's data into PostgreSQL
       svc-relay --help       show this text

Prints one JSON line with "event":"ready" on stdout when it listens; logs JSON lines on stderr;
SIGTERM or SIGINT drains and stops. Reads a .env file (SVC_ENV_FILE) when present.

Environment (default in brackets):
${rows.map(([name, fallback, what]) => `  ${name.padEnd(30)}${what} [${fallback}]`).join('\n')}

Local trial: svc-emulator prints SVC_BASE_URL, SVC_UPLOAD_URL and SVC_PLAYER_URL in its ready line
(API key dev-key); with SVC_AUTH=dev no JWT secret is needed. Guide: docs/relay.md.`;
