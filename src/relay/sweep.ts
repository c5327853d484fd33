// The relay's periodic sweep, one at a time: uploads whose callback token expired while they
// waited become "failed" (upload-tokens.ts; also checked whenever such an upload is read or its
// callback arrives), then retention deletes what has outlived it. Every minute at least, or a
// quarter of the callback lifetime when that is shorter.
import type { Deps } from './deps.js';
import { failExpiredUploads } from './upload-tokens.js';

/**
 * Retention (SVC_EVENT_RETENTION, at least the callback lifetime): events older than it, and
 * failed uploads (never completed) signed before it, are deleted; one instance at a time (the
 * store's lock). Until then a failed upload still reads as failed, as its events say.
 */
async function pruneOld(deps: Deps): Promise<void> {
  const pruned = await deps.store.prune(new Date(Date.now() - deps.config.eventRetentionS * 1000).toISOString());
  if (pruned && (pruned.events || pruned.uploads)) deps.log.info('retention_pruned', pruned);
}

/** Starts the sweep; returns what stops it. */
export function startSweeping(deps: Deps): () => void {
  const { config, log } = deps;
  const sweepMs = Math.min(60_000, Math.max(50, (config.callbackTtlS * 1000) / 4));
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      await failExpiredUploads(deps).catch((error) => log.error('upload_expiry_failed', { error }));
      await pruneOld(deps).catch((error) => log.error('retention_failed', { error }));
    } finally {
      sweeping = false;
    }
  };
  const sweeper = setInterval(() => void sweep(), sweepMs);
  sweeper.unref();
  return () => clearInterval(sweeper);
}
