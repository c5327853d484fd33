// The uploader's part loaded with `import()` when it first needs it (a file is added, or uploads are
// waiting to be shown again after a reload): the queue and what its changes become, the transfer,
// the event watcher, the list's template and its styles (adopted by the seam, shared/part.ts).
export { postForm } from '../../core/upload-form.js';
export { spokenSummary, startQueue } from './queue-link.js';
export { rowStyles as styles } from './row.styles.js';
export { renderList } from './summary.js';
