// The uploader's sentences that are built from values: the hint under the drop zone and the
// reasons the queue fails a row itself. Pure: strings and values in, text out.
import type { FailureReason, UploadRow } from '../../core/upload-queue.js';
import { format } from '../shared/strings.js';
import { describeAccept, formatBytes } from './format.js';
import type { SvcUploaderStrings } from './strings.js';

/** "Accepted: MP4. Up to 5 GiB per file." (either part only when known). */
export function hintText(s: SvcUploaderStrings, accept: string, maxSize: number | undefined, locale: string): string {
  return [
    accept ? format(s.hintAccept, { accept: describeAccept(accept, s.acceptAnyVideo) }) : '',
    maxSize !== undefined ? format(s.hintMaxSize, { max: formatBytes(maxSize, locale) }) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Why the queue failed `row` itself, in the viewer's words. */
export function failureText(
  s: SvcUploaderStrings,
  reason: FailureReason,
  row: UploadRow,
  { accept, maxSize, locale }: { accept: string; maxSize?: number; locale: string },
): string {
  const templates: Record<FailureReason, string> = {
    empty: s.rejectedEmpty,
    type: s.rejectedType,
    size: s.rejectedSize,
    content: s.rejectedContent,
    processing: s.processingFailed,
    unknown: s.unknownUpload,
  };
  return format(templates[reason], {
    name: row.name,
    accept: describeAccept(accept, s.acceptAnyVideo),
    size: formatBytes(row.size ?? 0, locale),
    max: formatBytes(maxSize ?? 0, locale),
  });
}
