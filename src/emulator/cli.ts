// svc-emulator: runs the local service until SIGINT/SIGTERM. Prints one JSON "ready" line on
// stdout; logs JSON lines on stderr.
import { parseArgs } from 'node:util';
import { createLocalService, DEFAULTS, type LocalServiceOptions } from './app.js';
import { onShutdown } from '../cli/shutdown.js';
import { jsonLogger } from './log.js';

const USAGE = `Usage: svc-emulator [options]
  --profile <observed|seed>   observed: as the real service's public clients show (default);
                              seed: the seed's literal contract only
  --host <addr>               interface to listen on (default ${DEFAULTS.host})
  --api-port <n>              API origin port, 0 = any free port (default 0)
  --upload-port <n>           upload address port (default 0)
  --player-port <n>           player origin port (default 0)
  --iframe-port <n>           iframe player origin port (default 0)
  --temporary-credentials     sign uploads with a session token (extra field x-amz-security-token;
                              default off)
  --consistency-ms <n>        a new playlist answers 404, an updated one shows its old content,
                              for this long (default 0)
  --api-key <key>             the account's API key (default ${DEFAULTS.apiKey})
  --account-id <id>           account id used in content ids (default ${DEFAULTS.accountId})
  --access-key-id <id>        upload signing key id (default ${DEFAULTS.accessKeyId})
  --secret-access-key <s>     upload signing secret (default ${DEFAULTS.secretAccessKey})
  --region <region>           upload signing region (default ${DEFAULTS.region})
  --bucket <name>             upload bucket (default ${DEFAULTS.bucket})
  --processing-ms <n>         delay before an upload is ready (default ${DEFAULTS.processingMs})
  --max-upload-bytes <n>      largest accepted file (default ${DEFAULTS.maxUploadBytes})
  --data-dir <path>           where uploads are stored (default: a temporary folder, removed on exit)
  --control                   enable the control API under /_control (tests and demos only;
                              default off)
  --help                      show this text

Prints one JSON line with "event":"ready" and the four origins (base_url, upload_url, player_url,
iframe_url) on stdout; logs JSON lines on stderr; stops on SIGINT or SIGTERM.
Environment: none read; every setting is a flag above. A relay for it (svc-relay --help):
  SVC_API_KEY=<--api-key> SVC_BASE_URL=<base_url> SVC_UPLOAD_URL=<upload_url>
  SVC_PLAYER_URL=<player_url> SVC_IFRAME_ORIGINS=<iframe_url's origin> SVC_AUTH=dev svc-relay`;

class UsageError extends Error {}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${value}").`);
  }
  return Number(value);
}

function text(name: string, value: string | undefined, pattern: RegExp, rule: string, secret = false): string | undefined {
  if (value === undefined) return undefined;
  // A secret's value is never printed, not even a wrong one.
  if (!pattern.test(value)) throw new UsageError(`--${name} ${rule}${secret ? '' : ` (got "${value}")`}.`);
  return value;
}

export function parseCli(argv: string[]): LocalServiceOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        profile: { type: 'string' },
        host: { type: 'string' },
        'api-port': { type: 'string' },
        'iframe-port': { type: 'string' },
        'temporary-credentials': { type: 'boolean' },
        'consistency-ms': { type: 'string' },
        'upload-port': { type: 'string' },
        'player-port': { type: 'string' },
        'api-key': { type: 'string' },
        'account-id': { type: 'string' },
        'access-key-id': { type: 'string' },
        'secret-access-key': { type: 'string' },
        region: { type: 'string' },
        bucket: { type: 'string' },
        'processing-ms': { type: 'string' },
        'max-upload-bytes': { type: 'string' },
        'data-dir': { type: 'string' },
        control: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const port = (name: 'api-port' | 'upload-port' | 'player-port' | 'iframe-port') => integer(name, values[name], 0, 65535);
  const profile = text('profile', values.profile, /^(observed|seed)$/, 'must be "observed" or "seed"') as 'observed' | 'seed' | undefined;
  const token = /^[\x21-\x7e]{1,256}$/;
  return {
    profile,
    iframePort: port('iframe-port'),
    temporaryCredentials: values['temporary-credentials'] ?? false,
    consistencyMs: integer('consistency-ms', values['consistency-ms'], 0, 600_000),
    host: text('host', values.host, /^[A-Za-z0-9.:-]{1,255}$/, 'must be a host name or IP address'),
    apiPort: port('api-port'),
    uploadPort: port('upload-port'),
    playerPort: port('player-port'),
    apiKey: text('api-key', values['api-key'], token, 'must be 1-256 visible ASCII characters', true),
    accountId: text('account-id', values['account-id'], /^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or -'),
    accessKeyId: text('access-key-id', values['access-key-id'], /^[A-Za-z0-9]{1,128}$/, 'must be letters and digits'),
    secretAccessKey: text('secret-access-key', values['secret-access-key'], token, 'must be 1-256 visible ASCII characters', true),
    region: text('region', values.region, /^[a-z0-9-]{1,64}$/, 'must be lower-case letters, digits and -'),
    bucket: text('bucket', values.bucket, /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name'),
    processingMs: integer('processing-ms', values['processing-ms'], 0, 3_600_000),
    maxUploadBytes: integer('max-upload-bytes', values['max-upload-bytes'], 1, Number.MAX_SAFE_INTEGER),
    dataDir: values['data-dir'] === '' ? failEmpty('data-dir') : values['data-dir'],
    control: values.control ?? false,
  };
}

function failEmpty(name: string): never {
  throw new UsageError(`--${name} must not be empty.`);
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`svc-emulator: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const log = jsonLogger();
  const service = await createLocalService({ ...options, logger: log });
  process.stdout.write(
    JSON.stringify({
      event: 'ready',
      base_url: service.baseUrl,
      upload_url: service.uploadUrl,
      player_url: service.playerUrl,
      iframe_url: service.iframeUrl,
      account_id: service.accountId,
      profile: service.profile,
    }) + '\n',
  );
  const stop = (signal: string) => {
    log.info('stopping', { signal });
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.warn('stop_failed', { message: String(error) });
        process.exit(1);
      },
    );
  };
  onShutdown(stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'start_failed', message: String((error as Error)?.message ?? error) }) + '\n',
  );
  process.exit(1);
});
