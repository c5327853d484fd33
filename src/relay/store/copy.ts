// `svc-relay migrate --from <sqlite file> --to <postgres url>`: moves an existing SQLite relay's
// data into an empty PostgreSQL database, in one transaction. Event ids are kept (so browsers
// that reconnect with Last-Event-ID after the move miss nothing) and the id sequence continues
// after them; the library keeps its order. Every row is checked before it is copied (ROWS): a row
// the relay could not read (an event whose data is not an upload state, an unknown state or type)
// stops the move with its table and row number, and nothing is copied.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
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

const key = z.string().min(1).max(256);
const isoDate = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/, 'must be an ISO date (UTC)');
const uploadStateName = z.enum(['signed', 'processing', 'ready', 'failed']);
/** An event's data: an upload state as the relay stores and streams it. */
const eventData = z
  .string()
  .transform((value, context) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'is not JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.object({ upload_id: key, source: z.string(), state: uploadStateName, vod: z.object({ id: key, title: z.string() }).optional() }));

/** What each copied row must hold: what the relay reads back from it. */
const ROWS: Record<(typeof TABLES)[number], z.ZodType> = {
  uploads: z
    .object({
      id: key,
      owner: key,
      source: z.string().max(1000),
      token_hash: z.instanceof(Buffer).refine((hash) => hash.length === 32, 'must be a SHA-256 (32 bytes)'),
      state: uploadStateName,
      vod_id: key.nullable(),
      vod_title: z.string().nullable(),
      created_at: isoDate,
      updated_at: isoDate,
    })
    .refine((row) => (row.state === 'ready') === (row.vod_id !== null), { message: 'a ready upload, and only one, has a vod_id', path: ['vod_id'] }),
  content: z.object({ type: z.enum(['vod', 'channel', 'playlist']), id: key, owner: key, title: z.string().max(1000), created_at: isoDate }),
  events: z.object({ seq: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), owner: key, data: eventData, created_at: isoDate }),
  playlist_item_types: z.object({ playlist_id: key, item_id: key, type: z.enum(['vod', 'channel']) }),
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
        const checked = ROWS[table].safeParse(row);
        if (!checked.success) {
          const issue = checked.error.issues[0]!;
          // The row's place and what is wrong, never its values (they may be anything).
          throw new Error(`table ${table}, row ${counts[table] + 1} (in ${order} order): ${issue.path.join('.') || 'row'} ${issue.message}; nothing was copied (fix or delete the row in the SQLite file, then run migrate again)`);
        }
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
