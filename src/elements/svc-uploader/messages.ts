// The line under the drop zone, built from the accepted types and the size limit. Pure.
import { format } from '../shared/intl.js';
import { describeAccept, formatBytes } from './format.js';
import type { SvcUploaderStrings } from './strings.js';

/** "Accepted: MP4. Up to 5 GiB per file." (either part only when known). */
export function hintText(s: SvcUploaderStrings, accept: string, maxSize: number | undefined, locale: string): string {
  return [
    accept ? format(s.hintAccept, { accept: describeAccept(accept, s.acceptAnyVideo, locale) }) : '',
    maxSize !== undefined ? format(s.hintMaxSize, { max: formatBytes(maxSize, locale) }) : '',
  ]
    .filter(Boolean)
    .join(' ');
}
