// What a viewer reads in <svc-player>: short, with no technical detail (that goes to the
// `svc-error` event and the console). Replace any of them through the element's `strings` property.

export const defaultStrings = {
  loading: 'Loading video…',
  /** The content is unknown, not ready, or its embed code was refused. */
  unavailable: 'This video is not available.',
  /** The relay, the service or the player could not be reached (worth trying again later). */
  failed: 'The video could not be loaded. Please try again later.',
  /** The title of an iframe player that has none. */
  title: 'Video player',
};

export type SvcPlayerStrings = typeof defaultStrings;
