// The strings of <svc-channel-setup> that only its panel shows (copy, reveal, the preview, the embed
// code), in English: they come with the panel's part (created-panel.ts) and join the element's first
// ones (first-strings.ts). Every string together: strings.ts.

export const laterStrings = {
  createdHeading: 'Channel created',
  copyNow:
    'Copy these settings into your encoder now. The login and password are not stored anywhere and will not be shown again after you leave this page.',
  summary: '“{title}” in {region}. Renditions: {count}; your encoder must stream every one.',
  authNote: 'Your encoder must enable its authentication option to use the login and password.',
  previewHeading: 'Live preview',
  previewHint: 'The preview shows the channel as viewers see it; it plays once your encoder is streaming.',
  /** Over the preview until the stream plays. */
  previewWaiting: 'Waiting for the encoder…',
  embedLabel: 'Embed code',
  embedHint: 'Paste this code into a web page to show the channel.',
  embedLoading: 'Loading the embed code…',
  embedFailed: 'The embed code could not be loaded: {message}',
  copy: 'Copy',
  copyLabel: 'Copy {label}',
  copied: 'Copied',
  copiedAnnouncement: '{label} copied to the clipboard.',
  copyFailed: 'Could not copy {label}. Select it and copy it by hand.',
  reveal: 'Show',
  revealLabel: 'Show {label}',
  conceal: 'Hide',
  concealLabel: 'Hide {label}',
  hidden: 'hidden',
  createAnother: 'Create another channel',
};
