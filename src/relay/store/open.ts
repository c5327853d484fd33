// Picks the store from SVC_DATABASE / createRelay({ database }): a postgres:// or postgresql://
// URL is PostgreSQL (many instances), anything else a SQLite file path (or ':memory:').
import type { Logger } from '../log.js';
import { PostgresStore } from './postgres.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './store.js';

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/** The password in a PostgreSQL URL (for log redaction), or ''. */
export function databasePassword(database: string): string {
  if (!isPostgresUrl(database)) return '';
  try {
    return decodeURIComponent(new URL(database).password);
  } catch {
    return '';
  }
}

export function openStore(database: string, options: { poolSize?: number; log?: Logger } = {}): Store {
  return isPostgresUrl(database) ? new PostgresStore(database, options) : new SqliteStore(database);
}
