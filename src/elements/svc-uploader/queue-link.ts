// The queue made for one uploader and what its changes become: the element's events and what its
// live region says. Loaded with the queue (lazy.ts), so the element's first download carries none
// of it; the element hands over its port and the few things only it has.
import { SvcError } from '../../core/errors.js';
import { UploadWatcher } from '../../core/sse.js';
import type { PostFormOptions, PostFormResult } from '../../core/upload-form.js';
import { UploadQueue, type PendingStorage, type QueueEvent, type QueueSettings } from '../../core/upload-queue.js';
import type { UploadRow, UploadRows } from '../../core/upload-rows.js';
import { format } from '../shared/intl.js';
import type * as Events from './events.js';
import { failureText, rowErrorText, type Port } from './row.js';
import { summaryText } from './summary.js';

/** What the queue needs from its uploader beside the port. */
export interface QueueLink {
  rows: UploadRows;
  settings(): QueueSettings;
  post(options: PostFormOptions): Promise<PostFormResult>;
  storage: PendingStorage;
  /** The relay's `max_upload_bytes`, when the page sets no limit. */
  limit(): Promise<number | undefined>;
  /** The accepted types in words. */
  acceptText(): string;
  bytes(value: number): string;
  /** Says `now` at once, else a summary soon (the element's throttled live region). */
  announce(now?: string): void;
  /** How often the live region sums up; a second failure within it is summed up, not said by name. */
  summaryMs: number;
}

/** What a row's state says in the live region. */
function rowAnnouncement(port: Port, row: UploadRow): string {
  const s = port.strings;
  const said = {
    queued: s.announceQueued,
    signing: s.announceUploading,
    uploading: s.announceUploading,
    processing: row.stillProcessing ? s.announceStillProcessing : s.announceProcessing,
    ready: s.announceReady,
    failed: s.announceFailed,
    cancelled: s.announceCancelled,
  }[row.state];
  return format(said, { name: row.name, ...(row.error && { message: rowErrorText(port, row) }) });
}

/** What the live region sums up: one row says its own state; several, how many are where. */
export function spokenSummary(port: Port, rows: readonly UploadRow[]): string {
  return rows.length === 1 ? rowAnnouncement(port, rows[0]!) : summaryText(rows, port.strings, port.locale);
}

/** The queue of one uploader: its rows are the element's list, its changes the element's events. */
export function startQueue(port: Port, link: QueueLink): UploadQueue {
  let failureAt = -Infinity;
  /** Turns what happened in the queue into the element's events and announcements. */
  const onEvent = ({ type, row }: QueueEvent) => {
    const { name, uploadId = '', size = 0, loaded, vod, error } = row;
    if (type === 'failed' || type === 'cancelled') {
      // Several failures at once (the relay gone) are one summary, not a list of names.
      const alone = performance.now() - failureAt > link.summaryMs;
      if (type === 'failed') failureAt = performance.now();
      link.announce(type === 'cancelled' || alone ? rowAnnouncement(port, row) : undefined);
    } else if (type !== 'progress' && type !== 'uploaded') link.announce();
    if (type === 'start') port.emit<Events.SvcUploadStartDetail>('svc-upload-start', { uploadId, name, size });
    if (type === 'progress') port.emit<Events.SvcUploadProgressDetail>('svc-upload-progress', { uploadId, name, loaded, total: row.size ?? loaded });
    if (type === 'uploaded') port.emit<Events.SvcUploadUploadedDetail>('svc-upload-uploaded', { uploadId, name, size });
    if (type === 'ready') port.emit<Events.SvcUploadReadyDetail>('svc-upload-ready', { uploadId, vodId: vod!.id, title: vod!.title, name });
    if (type === 'failed') port.emitError(new SvcError(error!.code, error!.message), { name, uploadId: row.uploadId });
    if (type === 'cancelled') port.emit<Events.SvcUploadCancelDetail>('svc-upload-cancel', { uploadId: row.uploadId, name });
  };
  return new UploadQueue({
    rows: link.rows,
    client: () => port.client(),
    post: (options) => link.post(options),
    watcher: (handlers) => new UploadWatcher({ client: port.client(), ...handlers }),
    storage: link.storage,
    settings: () => link.settings(),
    limit: () => link.limit(),
    message: (reason, row, maxSize) => failureText(port.strings, reason, row, { accept: link.acceptText(), maxSize, bytes: link.bytes }),
    restoredName: (id) => format(port.strings.restoredName, { id }),
    onEvent,
  });
}
