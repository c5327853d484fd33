// The two viewer strings <svc-player> may show before any of its lazy chunks has arrived, in
// English (the chunks bring the others, later-strings.ts, and the viewer's language): the only
// strings in the first paint. Every string together: strings.ts.

export const firstStrings = {
  loading: 'Loading video…',
  /** The relay, the service or the player could not be reached (worth trying again later). */
  failed: 'The video could not be loaded. Please try again later.',
};
