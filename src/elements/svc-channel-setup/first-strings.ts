// The strings <svc-channel-setup> may show before its panel's part has arrived, in English: the
// form, its messages, and what stands in for the panel when its part could not be downloaded (the
// settings' names and Retry). The part brings the others (later-strings.ts), which join the
// element's defaults when it arrives. Every string together: strings.ts.

export const firstStrings = {
  formHeading: 'Create a live channel',
  titleLabel: 'Title',
  titleHint: 'The name viewers see.',
  titleRequired: 'Enter a title for the channel.',
  descriptionLabel: 'Description',
  descriptionHint: 'A short description of the channel.',
  regionLegend: 'Ingest region',
  regionHint: 'Choose the region closest to your encoder.',
  regionRequired: 'Choose one of the regions.',
  regionNorthAmerica: 'North America',
  regionAsiaPacific: 'Asia-Pacific',
  regionEurope: 'Europe',
  renditionLabel: 'Number of renditions',
  renditionHint:
    'Your encoder must stream every rendition. The number can never be changed later: a different number needs a new channel.',
  renditionInvalid: 'Enter a whole number from {min} to {max}.',
  tooLong: 'Use at most {max} characters.',
  fieldInvalid: 'This value is not accepted. Check it and try again.',
  submit: 'Create channel',
  creating: 'Creating the channel…',
  createFailed: 'The channel was not created: {message}',
  configFailed: 'The settings could not be loaded ({message}). The standard regions and limits are shown.',
  channelIdLabel: 'Channel ID',
  primaryLabel: 'Primary server (RTMP)',
  backupLabel: 'Backup server (RTMP)',
  streamKeyLabel: 'Stream key',
  loginLabel: 'Login',
  passwordLabel: 'Password',
  playerLinkLabel: 'Player link',
  retry: 'Try again',
};
