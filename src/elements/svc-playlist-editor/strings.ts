// Every visible or announced string of <svc-playlist-editor> in English; the other languages are in
// src/elements/locales/, and the element's `strings` property replaces any of them. `{name}`
// placeholders are filled in by the shared `format`; `{message}` is the viewer's message for the
// error's code, never the relay's English sentence.

export const defaultStrings = {
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
  untitledPlaylist: 'Untitled playlist',
  // items
  itemsHeading: 'Items',
  itemsLabel: 'Items of {title}',
  empty: 'This playlist is empty. Add VODs and channels from your library or by id.',
  keyboardHelp:
    'Drag an item to reorder it, or focus it and press Alt+Arrow Up or Alt+Arrow Down. Arrow Up and Arrow Down go to the previous or next item, Delete removes it, Ctrl+Z (Cmd+Z) undoes the last change.',
  rowLabel: '{position}. {title}, {type}',
  untitled: '(untitled)',
  vod: 'VOD',
  channel: 'Channel',
  unknownType: 'Unknown type',
  chooseType: 'Choose a type…',
  typeOf: 'Type of {title}',
  moveUp: 'Up',
  moveUpLabel: 'Move {title} up',
  moveDown: 'Down',
  moveDownLabel: 'Move {title} down',
  remove: 'Remove',
  removeLabel: 'Remove {title}',
  // announcements
  moved: 'Moved {title} to position {position} of {count}.',
  added: 'Added {title} at position {position} of {count}.',
  removed: 'Removed {title}. Items left: {count}.',
  typed: '{title} is now a {type}.',
  undone: 'Undid the last change.',
  reverted: 'Reverted to the saved version.',
  nothingToUndo: 'Nothing to undo.',
  busy: 'Please wait until saving has finished.',
  // toolbar
  dirty: 'Unsaved changes',
  clean: 'All changes saved',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Saved.',
  pending: 'Saved; the service is still applying it.',
  nothingToSave: 'There are no unsaved changes.',
  saveFailed: 'The playlist was not saved: {message}',
  revert: 'Revert',
  undo: 'Undo',
  blockedUntyped: 'Saving is blocked: choose VOD or Channel for every item marked “Unknown type” ({count} left).',
  blockedConflict: 'Saving is blocked until you choose what to do with the other version.',
  // conflict
  conflictHeading: 'Someone else changed this playlist',
  conflictMessage:
    'It was saved at {date} while you were editing, so your changes were not saved. Their version has {count} items: {titles}.',
  conflictReload: 'Reload their version',
  conflictOverwrite: 'Overwrite with mine',
  confirmReload: 'Discard your changes and load their version? Undo can still bring yours back.',
  confirmReloadYes: 'Discard mine and reload',
  cancel: 'Cancel',
  reloaded: 'Loaded their version. Undo brings yours back.',
  overwritten: 'Saved your version over theirs.',
  // library
  libraryHeading: 'Add from your library',
  filterLabel: 'Filter by title or id',
  libraryLoading: 'Loading your library…',
  libraryFailed: 'Your library could not be loaded: {message}',
  libraryEmpty: 'Your library has no ready VODs or channels yet.',
  libraryNoMatch: 'Nothing in your library matches “{filter}”.',
  libraryLabel: 'Your VODs and channels',
  refresh: 'Refresh',
  add: 'Add',
  inPlaylist: 'In playlist',
  // add by id
  byIdHeading: 'Add by id',
  idLabel: 'Id',
  typeLabel: 'Type',
  idRequired: 'Enter the id of a VOD or a channel.',
  idDuplicate: 'This item is already in the playlist.',
  typeRequired: 'Choose VOD or Channel.',
  addById: 'Add to playlist',
};

export type SvcPlaylistEditorStrings = typeof defaultStrings;

