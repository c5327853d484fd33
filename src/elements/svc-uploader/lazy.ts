// What the uploader loads with `import()` when it first needs it (a file is added, or uploads are
// waiting to be shown again after a reload): the queue, the transfer, the event watcher and the
// template of a row.
export { UploadQueue } from '../../core/upload-queue.js';
export { UploadWatcher } from '../../core/sse.js';
export { postForm } from '../../core/upload-form.js';
export { failureText, renderRows } from './row.js';
export { rowStyles } from './row.styles.js';
export { renderList, summaryText } from './summary.js';
