// The uploader's part loaded with `import()` when it first needs it (a file is added, or uploads are
// waiting to be shown again after a reload): the queue and what its changes become, the transfer,
// the event watcher, the list's template, and what the seam (shared/part.ts) takes from it: its
// styles, and its English strings, which join the element's defaults when it arrives.
export { postForm } from '../../core/upload-form.js';
export { spokenSummary, startQueue } from './queue-link.js';
export { rowStyles as styles } from './row.styles.js';
export { renderList } from './summary.js';
export { laterStrings as strings } from './later-strings.js';
