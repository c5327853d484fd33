// `svc-relay migrate --from <sqlite file> --to <postgres url>`: moves an existing SQLite relay's
// data into an empty PostgreSQL database, in one transaction. Event ids are kept (so browsers
// that reconnect with Last-Event-ID after the move miss nothing) and the id sequence continues
// after them; the library keeps its order.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SqliteStore } from './sqlite.js';
import { lockEvents, migrate } from './postgres.js';
import { isPostgresUrl } from './open.js';

const TABLES = ['uploads', 'content', 'events', 'playlist_item_types'] as const;

/** Each table's columns as copied, and the order that keeps insertion order (content's rowid). */
const COPY: Record<(typeof TABLES)[number], { columns: string[]; order: string; overriding?: boolean }> = {
  uploads: { columns: ['id', 'owner', 'source', 'token_hash', 'state', 'vod_id', 'vod_title', 'created_at', 'updated_at'], order: 'rowid' },
  content: { columns: ['type', 'id', 'owner', 'title', 'created_at'], order: 'rowid' },
  events: { columns: ['seq', 'owner', 'data', 'created_at'], order: 'seq', overriding: true },
  playlist_item_types: { columns: ['playlist_id', 'item_id', 'type'], order: 'rowid' },
};

export type CopyCounts = Record<(typeof TABLES)[number], number>;

async function copySqliteToPostgres(from: string, to: string): Promise<CopyCounts> {
  if (!existsSync(from)) throw new Error(`--from: no SQLite file at ${from}`);
  if (!isPostgresUrl(to)) throw new Error('--to must be a postgres:// or postgresql:// URL');
  const source = new SqliteStore(from); // brings an older file to the current schema first
  const client = new pg.Client({ connectionString: to, application_name: 'svc-relay-migrate' });
  try {
    await client.connect();
    await migrate(client);
    await client.query('BEGIN');
    // No relay may write events while they are copied (the same lock the store takes per event).
    await lockEvents(client);
    for (const table of TABLES) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      if (Number(rows[0]!.n) > 0) throw new Error(`the PostgreSQL database already holds relay data (table ${table}); migrate into an empty one`);
    }
    const counts = {} as CopyCounts;
    for (const table of TABLES) {
      const { columns, order, overriding } = COPY[table];
      const insert = `INSERT INTO ${table} (${columns.join(', ')}) ${overriding ? 'OVERRIDING SYSTEM VALUE ' : ''}VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
      counts[table] = 0;
      for (const row of source.db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`).iterate() as Iterable<Record<string, unknown>>) {
        await client.query(insert, columns.map((column) => row[column]));
        counts[table]++;
      }
    }
    await client.query(`SELECT setval(pg_get_serial_sequence('events', 'seq'), (SELECT max(seq) FROM events)) WHERE EXISTS (SELECT 1 FROM events)`);
    await client.query('COMMIT');
    return counts;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
    await source.close();
  }
}

/** The `migrate` subcommand: prints one JSON line and returns the exit code. */
export async function migrateCommand(args: string[]): Promise<number> {
  let from: string | undefined;
  let to: string | undefined;
  try {
    ({ values: { from, to } } = parseArgs({ args, options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`svc-relay migrate: ${(error as Error).message}\n`);
  }
  if (!from || !to) {
    process.stderr.write('usage: svc-relay migrate --from <sqlite file> --to <postgres://user:password@host/database>\n');
    return 1;
  }
  try {
    const counts = await copySqliteToPostgres(from, to);
    process.stdout.write(JSON.stringify({ event: 'migrated', from, ...counts }) + '\n');
    return 0;
  } catch (error) {
    process.stderr.write(`svc-relay migrate: ${(error as Error).message}\n`);
    return 1;
  }
}
