// Picks the store from SVC_DATABASE / createRelay({ database }): a postgres:// or postgresql://
// URL is PostgreSQL (many instances), anything else a SQLite file path (or ':memory:'). The store's
// module (and its driver, `pg` or better-sqlite3, optional peers of the package) is imported only
// when chosen, so a relay needs only the driver of the database it uses.
import type { Logger } from '../log.js';
import type { Store, StoredEvent } from './store.js';

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
  const store: Promise<Store> = isPostgresUrl(database)
    ? import('./postgres.js').then(({ PostgresStore }) => new PostgresStore(database, options), missing('pg', 'a PostgreSQL URL'))
    : import('./sqlite.js').then(({ SqliteStore }) => new SqliteStore(database, options), missing('better-sqlite3', 'a SQLite file'));
  return deferredStore(store);
}

/** A driver that is not installed (they are optional peers of the package) explained, with the install line. */
function missing(driver: string, what: string) {
  return (error: { code?: string }): never => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(`SVC_DATABASE is ${what}, which needs the "${driver}" package: npm install ${driver}`);
  };
}

/** The Store calls that are answered once the store is there. */
const CALLS = [
  'createUpload',
  'getUpload',
  'markUploaded',
  'uploadByToken',
  'failExpiredUploads',
  'completeUpload',
  'addContent',
  'getContent',
  'contentByIds',
  'savePlaylistTypes',
  'playlistTypes',
  'withPlaylistLock',
  'playlistPending',
  'setPlaylistPending',
  'replacePlaylistPending',
  'prunePlaylistPending',
  'library',
  'eventsAfter',
  'lastEventSeq',
  'eventBounds',
  'prune',
] as const satisfies readonly (keyof Store)[];
// Every method of Store is forwarded (a compile error names one that is not).
const forwarded: Exclude<keyof Store, (typeof CALLS)[number] | 'ready' | 'subscribe' | 'close'> extends never ? true : never = true;
void forwarded;

/** A Store now, for one that is still being opened: calls wait for it; its failure rejects `ready`. */
function deferredStore(opening: Promise<Store>): Store {
  opening.catch(() => {}); // reported through `ready` and each call
  const calls = Object.fromEntries(
    CALLS.map((name) => [name, async (...args: unknown[]) => ((await opening)[name] as (...a: unknown[]) => unknown)(...args)]),
  );
  return {
    ...(calls as unknown as Pick<Store, (typeof CALLS)[number]>),
    ready: opening.then((store) => store.ready),
    subscribe(listener: (event: StoredEvent) => void) {
      let unsubscribe: (() => void) | undefined;
      let cancelled = false;
      void opening.then((store) => {
        if (!cancelled) unsubscribe = store.subscribe(listener);
      }, () => {});
      return () => {
        cancelled = true;
        unsubscribe?.();
      };
    },
    close: () => opening.then((store) => store.close(), () => {}),
  };
}
