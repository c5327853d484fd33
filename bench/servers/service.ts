// Fallback when bin/svc-emulator.js is missing: the local service through its library, taking
// the CLI's flags that the benchmarks use and printing the CLI's ready line.
import { createLocalService } from '../../src/emulator/app.js';

const flags = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) flags.set(argv[i]!.replace(/^--/, ''), argv[i + 1]!);
const num = (name: string) => (flags.has(name) ? Number(flags.get(name)) : undefined);

const service = await createLocalService({
  host: flags.get('host') ?? '127.0.0.1',
  apiPort: num('api-port') ?? 0,
  uploadPort: num('upload-port') ?? 0,
  playerPort: num('player-port') ?? 0,
  apiKey: flags.get('api-key'),
  processingMs: num('processing-ms'),
  control: true,
} as Parameters<typeof createLocalService>[0]);
process.stdout.write(
  `${JSON.stringify({
    event: 'ready',
    base_url: service.baseUrl,
    upload_url: service.uploadUrl,
    player_url: service.playerUrl,
    account_id: service.accountId,
  })}\n`,
);
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
