// Requests to the relay's public routes sent ahead of the code that reads their answers. The
// script-tag loader's play button (elements/loader-preview.ts) sends a player's two requests (its
// embed code, the relay's config) the moment the viewer presses it, while the player's code is still
// on its way: they need nothing of that code, so they wait for none of it. The relay client
// (relay-client.ts) takes each answer instead of asking again. A module of its own, with no import,
// so that the play button carries only this.

/** The requests sent ahead and not yet taken, by URL, for a minute; a failed one is forgotten at once. */
const ahead = new Map<string, Promise<Response>>();
/** URLs whose answer the page already has and shares (each relay's config): never asked ahead. */
const shared = new Set<string>();

/**
 * GETs `url` now, as the relay client GETs a public route (no custom header, the page's default
 * credentials): the next `takeAhead(url)` within a minute gets the answer. Nothing is sent for a URL
 * already asked ahead or whose answer the page shares.
 */
export function fetchAhead(url: string): void {
  if (ahead.has(url) || shared.has(url)) return;
  const response = fetch(url);
  const forget = () => ahead.get(url) === response && ahead.delete(url);
  // A failure is the taker's to report if it takes it first; else the taker asks again.
  response.catch(forget);
  ahead.set(url, response);
  setTimeout(forget, 60_000);
}

/** `url`'s answer is `answer`, kept and shared by the page from now on (until it fails): `fetchAhead` leaves it alone. */
export function shareAnswer(url: string, answer: Promise<unknown>): void {
  shared.add(url);
  answer.catch(() => shared.delete(url));
}

/**
 * The answer of the request to `url` sent ahead, taken (once), or undefined when there is none. It
 * rejects with `signal`'s reason when that is aborted first.
 */
export function takeAhead(url: string, signal?: AbortSignal): Promise<Response> | undefined {
  const response = ahead.get(url);
  ahead.delete(url);
  if (!response || !signal) return response;
  let abort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  return Promise.race([response, aborted]).finally(() => signal.removeEventListener('abort', abort));
}
