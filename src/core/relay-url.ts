// Where an element finds the relay, and which relay the page's owner trusts. Its own module so that
// <svc-player>'s first-paint chunk takes these functions without the relay client it does not use
// before it loads.
//
// Trust belongs to the site owner, who writes the page's head (or the CMS's settings that write it);
// a post's author writes only the body's tags and attributes. So the relay is read from the head
// (`<meta name="svc-relay">`, else the page's own `/svc`), further relay origins only from the head
// (`<meta name="svc-relay-origins">`), and a `relay` attribute may name only those.

/** What the relay settings are read from: a document (its head) or anything with `querySelector`. */
export type RelayPage = { head?: { querySelector(s: string): Element | null } | null; querySelector(s: string): Element | null };

/**
 * The document's real `<head>`, or undefined. Markup in the body can clobber `document.head` and
 * `document.documentElement` (`<form name="head">`, `<img name="head">`: named elements shadow the
 * document's properties), so both are read through the prototype's getters, and the head counts only
 * when it is an HTMLHeadElement whose parent is the root element. Anything else is "no owner setting".
 */
function realHead(doc: Document): ParentNode | undefined {
  const get = (proto: object, name: string, self: object): unknown => Object.getOwnPropertyDescriptor(proto, name)?.get?.call(self);
  const head = get(Document.prototype, 'head', doc);
  if (!(head instanceof HTMLHeadElement)) return undefined;
  return get(Node.prototype, 'parentNode', head) === get(Document.prototype, 'documentElement', doc) ? head : undefined;
}

/** The content of `<meta name="…">` in the head (a meta tag in the body is an author's: ignored). */
export function headMeta(doc: RelayPage | Document | undefined, name: string): string | undefined {
  let meta: Element | null | undefined;
  if (typeof Document !== 'undefined' && doc instanceof Document) {
    const head = realHead(doc);
    meta = head && Element.prototype.querySelector.call(head, `meta[name="${name}"]`);
    return (meta && Element.prototype.getAttribute.call(meta, 'content')?.trim()) || undefined;
  }
  // Not a DOM document (Node tests): its `head` as given.
  const scope = doc && 'head' in doc ? doc.head : doc;
  return scope?.querySelector(`meta[name="${name}"]`)?.getAttribute('content')?.trim() || undefined;
}

/** Resolves the relay base URL of an element: its `relay` attribute, `<meta name="svc-relay">`, or `/svc`. */
export function relayBaseUrl(explicit?: string | null, doc?: RelayPage): string {
  return (explicit || headMeta(doc, 'svc-relay') || '/svc').replace(/\/+$/, '');
}

/** The relay an element may use, or why its `relay` attribute was refused. */
export type RelayChoice =
  | {
      /** Absolute base URL of the relay the element talks to. */
      baseUrl: string;
      /** Absolute base URL of the relay whose `GET /config` says which origins may serve a player. */
      trustedUrl: string;
    }
  | { refused: string };

/** The origin of a URL, or undefined when it is not an `http(s)` URL. */
export function originOf(value: string, base?: string): string | undefined {
  try {
    const url = new URL(value, base);
    return /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an element's `player-origin` attribute (`asked`) allows `origin`, the trusted relay's
 * player origin: absent, or naming exactly it (it can only narrow, never add an origin).
 */
export const allowsPlayerOrigin = (asked: string | undefined, origin: string | undefined): boolean =>
  !asked || (origin !== undefined && originOf(asked) === origin);

/** Whether `<meta name="svc-relay-origins">` lists `url`: its origin (an entry without a path), or exactly it (an entry with one). */
function listed(doc: RelayPage, url: URL, baseUrl: string): boolean {
  return (headMeta(doc, 'svc-relay-origins') ?? '').split(/\s+/).some((entry) => {
    if (!entry || originOf(entry) === undefined) return false;
    const listedUrl = new URL(entry);
    if (listedUrl.search || listedUrl.hash || listedUrl.username || listedUrl.password) return false;
    return listedUrl.pathname === '/' ? listedUrl.origin === url.origin : listedUrl.href.replace(/\/+$/, '') === baseUrl;
  });
}

/**
 * The relay of an element whose `relay` attribute is `explicit`, on the page at `pageUrl`.
 *
 * The owner's relay is `<meta name="svc-relay">` in the head, else `/svc`; further relays are listed
 * (space-separated) in `<meta name="svc-relay-origins">` in the head: an origin (every relay path
 * there is the owner's) or a relay's URL with its path (that relay only). A listed relay, or the
 * owner's, is trusted (`trustedUrl` is `baseUrl`). Another path on the owner relay's origin is used
 * for a player's embed code only, its origins still coming from the owner's relay (`trustedUrl` is
 * the owner's; a path there is not necessarily a relay: core elements that send files or tokens
 * refuse it, shared/client.ts). Any other origin, credentials, a query or a fragment are refused.
 * URLs are resolved against the page's address, not the document's base URL (which a `<base>` tag
 * in the body would change).
 */
export function chooseRelay(explicit: string | null | undefined, doc: RelayPage, pageUrl: string): RelayChoice {
  let owner: URL;
  try {
    owner = new URL(relayBaseUrl(null, doc), pageUrl);
  } catch {
    return { refused: `The page's <meta name="svc-relay"> is not a URL.` };
  }
  const ownerUrl = owner.href.replace(/\/+$/, '');
  if (!explicit) return { baseUrl: ownerUrl, trustedUrl: ownerUrl };
  let url: URL;
  try {
    url = new URL(explicit, pageUrl);
  } catch {
    return { refused: `The relay attribute "${explicit}" is not a URL.` };
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    return { refused: `The relay attribute "${explicit}" is not a plain http(s) address (credentials, a query or a fragment are refused).` };
  }
  const baseUrl = url.href.replace(/\/+$/, '');
  if (baseUrl === ownerUrl || listed(doc, url, baseUrl)) return { baseUrl, trustedUrl: baseUrl };
  if (url.origin === owner.origin) return { baseUrl, trustedUrl: ownerUrl };
  return {
    refused:
      `The relay attribute names ${url.origin}, which the page does not trust: the site owner lists further relays ` +
      `(origins or relay URLs) in <meta name="svc-relay-origins" content="…"> in the page's head.`,
  };
}

/** The player origin each trusted relay's `GET /config` named, once a player of the page asked it (by trusted relay URL). */
const playerOrigins = new Map<string, string>();

/** Ids in the relay's paths (its uploads, the service's content): no dot, slash or percent sign. */
export const RELAY_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The path of the relay's embed route for one content, e.g. `/embed/vod/123/javascript`, or
 * undefined for an id the relay refuses (`..` would leave the route: a URL drops dot segments).
 */
export const embedPath = (kind: string, id: string, variant: string): string | undefined =>
  RELAY_ID.test(id) ? `/embed/${[kind, id, variant].map(encodeURIComponent).join('/')}` : undefined;

/** Records the player origin of the trusted relay at `trustedUrl` (from its `GET /config`). */
export function rememberPlayerOrigin(trustedUrl: string, playerOrigin: string | undefined): void {
  const origin = playerOrigin === undefined ? undefined : originOf(playerOrigin);
  if (origin) playerOrigins.set(trustedUrl, origin);
}

/**
 * The player origin a click-to-load player may open a connection to before it loads: that of the
 * trusted relay's `GET /config`, once known on the page (no request is made for it), and only when
 * the `player-origin` attribute, if any, names it. Never an origin only an attribute names.
 */
export function knownPlayerOrigin(
  source: { relay?: string | null; playerOrigin?: string | null },
  doc: RelayPage,
  pageUrl: string,
): string | undefined {
  const relay = chooseRelay(source.relay, doc, pageUrl);
  const origin = 'refused' in relay ? undefined : playerOrigins.get(relay.trustedUrl);
  return origin && allowsPlayerOrigin(source.playerOrigin?.trim(), origin) ? origin : undefined;
}
