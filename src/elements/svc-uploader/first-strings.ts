// The strings <svc-uploader> may show before its queue's part has arrived, in English: the drop
// zone, the hint under it, and the Retry offered when the part could not be downloaded. The part
// brings the others (later-strings.ts), which join the element's defaults when it arrives. Every
// string together: strings.ts.

export const firstStrings = {
  dropzone: 'Drop video files here, or choose files',
  dropzoneSingle: 'Drop a video file here, or choose a file',
  dropzoneActive: 'Release to add the files',
  hintAccept: 'Accepted: {accept}.',
  acceptAnyVideo: 'any video format',
  hintMaxSize: 'Up to {max} per file.',
  retry: 'Retry',
};
