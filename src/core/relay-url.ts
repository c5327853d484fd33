// Where an element finds the relay. Its own module so that <svc-player>'s first-paint chunk takes
// this one function without the relay client it does not use before it loads.

/** Resolves the relay base URL of an element: its `relay` attribute, `<meta name="svc-relay">`, or `/svc`. */
export function relayBaseUrl(explicit?: string | null, doc?: { querySelector(s: string): Element | null }): string {
  const meta = doc?.querySelector('meta[name="svc-relay"]')?.getAttribute('content');
  return (explicit || meta || '/svc').replace(/\/+$/, '');
}
