// The DOM-free core, for custom integrations: the relay's wire contract and its typed client,
// embed-code validation, upload form building and posting (its errors, progress and file rules),
// SSE reading, waiting and backoff, the playlist edit model and the error type.
export * from './errors.js';
export * from './wire.js';
export * from './relay-client.js';
export * from './embed-code.js';
export * from './upload-form.js';
export * from './upload-errors.js';
export * from './transfer-progress.js';
export * from './file-rules.js';
export * from './sse.js';
export * from './timing.js';
export * from './playlist-model.js';
