// The viewer strings of <svc-player> that no first paint shows, in English: the lazy chunks bring
// them (localize.ts) and merge them with the element's first ones (first-strings.ts). Every string
// together: strings.ts.

export const laterStrings = {
  /** The content is unknown, not ready, or its embed code was refused. */
  unavailable: 'This video is not available.',
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
