// What a viewer reads in <svc-player>: short, with no technical detail (that goes to the
// `svc-error` event and the console). The viewer's language replaces them (src/elements/locales/),
// and the element's `strings` property replaces any of them.

export const defaultStrings = {
  loading: 'Loading video…',
  /** The content is unknown, not ready, or its embed code was refused. */
  unavailable: 'This video is not available.',
  /** The relay, the service or the player could not be reached (worth trying again later). */
  failed: 'The video could not be loaded. Please try again later.',
  /**
   * A setting the site's owner must fix: the relay refuses this page's origin, cannot be reached,
   * or refuses the identity (the detail is in `svc-error` and the console).
   */
  notHere: 'This video cannot be shown here.',
  /** The title of an iframe player that has none. */
  title: 'Video player',
  /** The accessible name of the play button of `loading="click"` when no `title` is given. */
  play: 'Play video',
  /** The same with the content's `title` attribute. */
  playTitle: 'Play {title}',
};

export type SvcPlayerStrings = typeof defaultStrings;
