// Every visible or announced string of <svc-channel-setup>; replace any of them through the
// element's `strings` property. `{name}` placeholders are filled in by `format`.

export const defaultStrings = {
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
  submit: 'Create channel',
  creating: 'Creating the channel…',
  createFailed: 'The channel was not created: {message}',
  configFailed: 'The settings could not be loaded ({message}). The standard regions and limits are shown.',
  createdHeading: 'Channel created',
  copyNow:
    'Copy these settings into your encoder now. The login and password are not stored anywhere and will not be shown again after you leave this page.',
  summary: '“{title}” in {region}. Renditions: {count}; your encoder must stream every one.',
  channelIdLabel: 'Channel ID',
  primaryLabel: 'Primary server (RTMP)',
  backupLabel: 'Backup server (RTMP)',
  streamKeyLabel: 'Stream key',
  loginLabel: 'Login',
  passwordLabel: 'Password',
  authNote: 'Your encoder must enable its authentication option to use the login and password.',
  playerLinkLabel: 'Player link',
  previewHeading: 'Live preview',
  previewHint: 'The preview shows the channel as viewers see it; it plays once your encoder is streaming.',
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

export type SvcChannelSetupStrings = typeof defaultStrings;

/** Fills `{name}` placeholders; unknown names stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}
