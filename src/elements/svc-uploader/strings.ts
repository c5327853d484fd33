// Every visible or announced string of <svc-uploader>; replace any of them through the element's
// `strings` property. `{name}` placeholders are filled in by `format`.

export const defaultStrings = {
  dropzone: 'Drop video files here, or choose files',
  dropzoneSingle: 'Drop a video file here, or choose a file',
  dropzoneActive: 'Release to add the files',
  hintAccept: 'Accepted: {accept}.',
  acceptAnyVideo: 'any video format',
  hintMaxSize: 'Up to {max} per file.',
  listLabel: 'Uploads',
  stateQueued: 'Queued',
  stateSigning: 'Preparing the upload…',
  stateUploading: 'Uploading',
  stateFinishing: 'Sent; waiting for the upload address to confirm…',
  stateRenewing: 'The signature expired; renewing it…',
  stateRetrying: 'Connection lost; retrying ({attempt} of {max})…',
  stateProcessing: 'Processing',
  stateStillProcessing: 'Still processing. This can take a while for long videos; you can leave this page.',
  stateReady: 'Ready to play',
  stateFailed: 'Failed',
  stateCancelled: 'Cancelled',
  bytes: '{loaded} of {total}',
  speed: '{speed}/s',
  timeLeft: '{time} left',
  vod: 'Video ID {id}: {title}',
  restoredName: 'Upload {id}',
  progressLabel: 'Upload of {name}',
  cancel: 'Cancel',
  cancelLabel: 'Cancel the upload of {name}',
  retry: 'Retry',
  retryLabel: 'Retry the upload of {name}',
  remove: 'Remove',
  removeLabel: 'Remove {name} from the list',
  rejectedEmpty: '{name} is empty.',
  rejectedType: '{name} is not an accepted file type ({accept}).',
  rejectedSize: '{name} is {size}, more than the limit of {max}.',
  rejectedContent: '{name} is not a video: its content is not in a video format such as MP4, MOV, WebM, MKV, AVI or MPEG-TS.',
  processingFailed: 'The service could not process this video.',
  unknownUpload: 'The relay no longer knows this upload.',
  announceQueued: '{name}: queued.',
  announceUploading: '{name}: uploading.',
  announceProcessing: '{name}: uploaded, now processing.',
  announceStillProcessing: '{name}: still processing.',
  announceReady: '{name}: ready to play.',
  announceFailed: '{name}: failed. {message}',
  announceCancelled: '{name}: cancelled.',
};

export type SvcUploaderStrings = typeof defaultStrings;

/** Fills `{name}` placeholders; unknown names stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}
