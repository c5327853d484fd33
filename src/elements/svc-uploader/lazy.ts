// The uploader's part loaded with `import()` when it first needs it (a file is added, or uploads are
// waiting to be shown again after a reload): the queue, the transfer, the event watcher, the list's
// template and its styles (adopted by the seam, shared/part.ts).
export { UploadQueue } from '../../core/upload-queue.js';
export { UploadWatcher } from '../../core/sse.js';
export { postForm } from '../../core/upload-form.js';
export { failureText } from './row.js';
export { rowStyles as styles } from './row.styles.js';
export { renderList, summaryText } from './summary.js';
