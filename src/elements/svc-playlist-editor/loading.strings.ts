// The English strings <svc-playlist-editor> shows before a playlist is: loading it, why it could
// not be loaded, and the creation form. Part of `defaultStrings` (strings.ts); the element loads
// only these first.

export const loadingStrings = {
  // creation form
  formHeading: 'New playlist',
  titleLabel: 'Title',
  titleHint: 'The name viewers see.',
  titleRequired: 'Enter a title for the playlist.',
  descriptionLabel: 'Description',
  descriptionHint: 'Optional: a short description.',
  create: 'Create playlist',
  creating: 'Creating the playlist…',
  createFailed: 'The playlist was not created: {message}',
  // loading
  loading: 'Loading the playlist…',
  loadFailed: 'The playlist could not be loaded: {message}',
  retry: 'Try again',
  unknownPlaylist: 'There is no playlist “{id}” in your library: it may have been deleted, or the id is wrong.',
  createInstead: 'Create a new playlist',
};
