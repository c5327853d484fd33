// The ids of uploads that were processing, kept in sessionStorage so a reload can show them again
// from the relay. Ids only: they are useless without the caller's identity at the relay.
import type { PendingStorage } from '../../core/upload-queue.js';

const PREFIX = 'svc-uploader:pending:';

/** The pending ids of the relay at `scope` (storage disabled or full: nothing comes back, nothing fails). */
export function pendingStorage(scope: string): PendingStorage {
  const key = PREFIX + scope;
  const list = (): string[] => {
    try {
      const ids: unknown = JSON.parse(sessionStorage.getItem(key) ?? '[]');
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  };
  const save = (ids: string[]) => {
    try {
      if (ids.length) sessionStorage.setItem(key, JSON.stringify(ids));
      else sessionStorage.removeItem(key);
    } catch {
      // quota or disabled storage: the row simply will not come back after a reload
    }
  };
  return {
    list,
    add: (id) => list().includes(id) || save([...list(), id]),
    remove: (id) => save(list().filter((other) => other !== id)),
  };
}
