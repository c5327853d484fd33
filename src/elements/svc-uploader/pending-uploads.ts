// The ids of uploads that were processing, kept in sessionStorage so a reload can show them again
// from the relay. Ids only: they are useless without the caller's identity at the relay.

const PREFIX = 'svc-uploader:pending:';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // storage disabled (e.g. by the browser's privacy settings)
  }
}

export function pendingUploads(scope: string): string[] {
  try {
    const ids: unknown = JSON.parse(storage()?.getItem(PREFIX + scope) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function save(scope: string, ids: string[]): void {
  try {
    if (ids.length) storage()?.setItem(PREFIX + scope, JSON.stringify(ids));
    else storage()?.removeItem(PREFIX + scope);
  } catch {
    // quota or disabled storage: the row simply will not come back after a reload
  }
}

export function addPendingUpload(scope: string, id: string): void {
  const ids = pendingUploads(scope);
  if (!ids.includes(id)) save(scope, [...ids, id]);
}

export function removePendingUpload(scope: string, id: string): void {
  save(
    scope,
    pendingUploads(scope).filter((other) => other !== id),
  );
}
