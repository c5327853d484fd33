// Embed-code validation (ARCHITECTURE.md, "The embed-code safety contract"). The code is decoded
// once and parsed inertly by a small strict tokenizer of its own: no DOM, so it runs in Node tests
// and workers, and nothing in the code can ever reach a live document. Only the script form or the
// iframe form is accepted; everything else is rejected with a typed reason.
//
// The entity decoder is a parameter so that `he` (large) never enters a bundle statically: the
// elements decode the service's few references themselves and load `he` only for other codes
// (src/elements/shared/entities.ts); this module comes with the player's load chunk (build.ts).
// Kept terse all the same: it ships to every page with a player.

/** Decodes HTML entities, e.g. `he.decode`. */
export type EntityDecoder = (text: string) => string;

/** Where players may come from; origins as in `GET /svc/config` (`player_origin`, `iframe_origins`). */
export interface EmbedPolicy {
  playerOrigin?: string | null;
  iframeOrigins?: readonly string[] | null;
}

export type EmbedTag = 'script' | 'iframe';

/** A validated embed: what to build, with only validated attributes (styles dropped). */
export interface Embed {
  tag: EmbedTag;
  /** The player URL, already checked against the policy. */
  src: string;
  /** The content id (`id` attribute), when the code has one. */
  contentId: string | null;
  /** Validated attributes other than `src` and `style`. */
  attributes: Record<string, string>;
}

export type EmbedRejectionReason =
  | 'not_a_string' // the code is not a string
  | 'empty' // nothing but white space
  | 'too_long' // longer than MAX_CODE_LENGTH
  | 'control_character' // NUL or another control character
  | 'text' // text outside the player element (or a stray `<`)
  | 'inline_script' // text inside the script
  | 'entity' // a character reference left after the single decode (escaped twice)
  | 'comment' // `<!-- -->`
  | 'declaration' // `<!doctype>`, `<![CDATA[`, `<?…>`
  | 'syntax' // broken or non-canonical markup (upper case, unclosed, self-closing, …)
  | 'element_not_allowed' // any element but script, iframe, div
  | 'structure' // not exactly one script, or one iframe optionally in one div
  | 'attribute_not_allowed' // event handlers, srcdoc, type, sandbox, …
  | 'attribute_duplicate'
  | 'attribute_missing' // no src, or a script without id
  | 'attribute_value' // a value outside its allowed shape
  | 'url_invalid' // not an absolute http(s) URL in canonical form
  | 'url_scheme' // javascript:, data:, or http off loopback
  | 'url_userinfo' // credentials before the host
  | 'url_origin' // not the player origin / an iframe origin
  | 'url_path' // not /js/player.js / not /embed/… or /<vod|live|playlist>/<account>/<id>
  | 'url_query' // not exactly `contentId=<id>`
  | 'id_mismatch' // contentId differs from the script's id
  | 'no_policy'; // no usable player origin to check against

export type EmbedResult = { ok: true; embed: Embed } | { ok: false; reason: EmbedRejectionReason };

/** Longest code accepted; real codes are a few hundred characters. */
export const MAX_CODE_LENGTH = 4096;

const WS = '[ \\t\\n\\f\\r]';
const CONTENT_ID = /^[\w~.-]{1,200}$/;
// A character reference a browser would still decode: numeric, named with `;`, or a legacy name.
const ENTITY = /&(?:#\d|#x[\da-f]|[a-z][a-z\d]*;|(?:lt|gt|amp|quot|apos|nbsp)(?![a-z\d=]))/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\0-\x08\x0b\x0e-\x1f\x7f-\x9f]/;
const NAME = '[a-z][a-z\\d-]*';
const VALUE = `"[^"]*"|'[^']*'|[^ \\t\\n\\f\\r"'<>\`]+`;
const ATTRIBUTE = `${WS}+([a-z][a-z-]*)(?:${WS}*=${WS}*(${VALUE}))?`;
const TAG = new RegExp(`<(/?)(${NAME})((?:${ATTRIBUTE})*)${WS}*>`, 'y');
const ATTRIBUTES = new RegExp(ATTRIBUTE, 'g');
const LENGTH = /^\d{1,5}(?:\.\d{1,3})?(?:%|px)?$/;
const FEATURE = /^(?:autoplay|fullscreen|picture-in-picture|encrypted-media|clipboard-write|web-share)(?: (?:'self'|'src'|\*))*$/;
const FULLSCREEN = /^(?:(?:webkit|moz|o|ms)?allowfullscreen|true|)$/i;

type Check = RegExp | ((value: string, decode: EntityDecoder) => string | null | false);

const ANY = /[^]*/;
const BOTH: Record<string, Check> = { id: CONTENT_ID, src: ANY, width: LENGTH, height: LENGTH };
/** Allowed attributes per element; a RegExp the value must match, or a function returning the value to keep. */
const ALLOWED: Record<string, Record<string, Check>> = {
  script: { ...BOTH, class: /^[a-z_-][\w-]{0,99}$/i },
  iframe: {
    ...BOTH,
    frameborder: /^[01]$/,
    scrolling: /^(?:yes|no|auto)$/,
    allow: (value) => {
      const items = value.split(';').map((item) => item.trim().replace(/\s+/g, ' ')).filter(Boolean);
      return items.length > 0 && items.every((item) => FEATURE.test(item)) && items.join('; ');
    },
    allowfullscreen: FULLSCREEN,
    webkitallowfullscreen: FULLSCREEN,
    mozallowfullscreen: FULLSCREEN,
    oallowfullscreen: FULLSCREEN,
    msallowfullscreen: FULLSCREEN,
    // HTML decodes references inside attribute values; the title is the one value where the
    // service legitimately leaves them (a title with `&` or quotes). It is only ever set as text.
    title: (value, decode) => {
      const text = decode(value).trim();
      return text.length <= 300 && !CONTROL.test(text) && text;
    },
    referrerpolicy: /^(?:no-referrer|origin|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
    loading: /^(?:lazy|eager)$/,
    style: ANY,
  },
  div: { style: ANY },
};

class Rejection {
  constructor(readonly reason: EmbedRejectionReason) {}
}

function reject(reason: EmbedRejectionReason): never {
  throw new Rejection(reason);
}

/**
 * Validates an embed code as the service returns it (entity-escaped): decodes it exactly once with
 * `decode`, parses it inertly and checks every attribute and URL against `policy`.
 */
export function parseEmbedCode(code: unknown, decode: EntityDecoder, policy: EmbedPolicy): EmbedResult {
  try {
    if (typeof code != 'string') reject('not_a_string');
    if (code.length > MAX_CODE_LENGTH) reject('too_long');
    const markup = decode(code).replace(/^[ \t\n\f\r]+|[ \t\n\f\r]+$/g, '');
    if (!markup) reject('empty');
    if (CONTROL.test(markup)) reject('control_character');
    return { ok: true, embed: validate(tokenize(markup), decode, policy) };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, reason: error.reason };
    throw error;
  }
}

type Token = [end: string, name: string, attributes: string];

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < input.length; ) {
    const lt = input.indexOf('<', i);
    const text = input.slice(i, lt < 0 ? undefined : lt);
    if (/[^ \t\n\f\r]/.test(text)) {
      const last = tokens.at(-1);
      reject(ENTITY.test(text) ? 'entity' : last && !last[0] && last[1] == 'script' ? 'inline_script' : 'text');
    }
    if (lt < 0) break;
    TAG.lastIndex = lt;
    const tag = TAG.exec(input);
    if (!tag) {
      const rest = input.slice(lt, lt + 4);
      reject(rest == '<!--' ? 'comment' : /^<[!?]/.test(rest) ? 'declaration' : /^<\/?[a-z]/i.test(rest) ? 'syntax' : 'text');
    }
    if (tag[1] && tag[3]) reject('syntax');
    if (!Object.hasOwn(ALLOWED, tag[2]!)) reject('element_not_allowed');
    tokens.push([tag[1]!, tag[2]!, tag[3]!]);
    i = TAG.lastIndex;
  }
  return tokens;
}

function validate(tokens: Token[], decode: EntityDecoder, policy: EmbedPolicy): Embed {
  const shape = tokens.map(([end, name]) => end + name).join();
  const wrapped = shape == 'div,iframe,/iframe,/div';
  if (!wrapped && shape != 'script,/script' && shape != 'iframe,/iframe') reject('structure');
  if (wrapped) attributes('div', tokens[0]![2], decode);
  const tag = tokens[+wrapped]![1] as EmbedTag;
  const { src, style: _, ...kept } = attributes(tag, tokens[+wrapped]![2], decode);
  if (src === undefined || (tag == 'script' && !kept.id)) reject('attribute_missing');
  const checked = tag == 'script' ? checkScriptSrc(src, policy.playerOrigin) : checkIframeSrc(src, policy.iframeOrigins);
  if (!checked.ok) reject(checked.reason);
  if (tag == 'script' && checked.contentId !== kept.id) reject('id_mismatch');
  return { tag, src, contentId: kept.id ?? checked.contentId ?? null, attributes: kept };
}

function attributes(tag: string, source: string, decode: EntityDecoder): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [, name, quoted = ''] of source.matchAll(ATTRIBUTES)) {
    const check = Object.hasOwn(ALLOWED[tag]!, name!) ? ALLOWED[tag]![name!]! : reject('attribute_not_allowed');
    if (Object.hasOwn(values, name!)) reject('attribute_duplicate');
    const raw = /^["']/.test(quoted) ? quoted.slice(1, -1) : quoted;
    if (/[<>]/.test(raw)) reject('attribute_value');
    if (name != 'title' && ENTITY.test(raw)) reject('entity');
    const value = typeof check == 'function' ? check(raw, decode) : check.test(raw) && raw;
    if (value === false || value === null) reject('attribute_value');
    values[name!] = value;
  }
  return values;
}

/** True for loopback hosts (127.0.0.0/8, localhost, [::1]), where plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  return /^(?:localhost|\[::1\]|127(?:\.\d{1,3}){3})$/.test(hostname);
}

const secure = (url: URL) => url.protocol == 'https:' || (url.protocol == 'http:' && isLoopbackHost(url.hostname));

/** The serialized origin of `value` if it is a usable player origin (https, or http on loopback); else null. */
export function normalizeOrigin(value: unknown): string | null {
  try {
    const url = new URL(value as string);
    return secure(url) && !url.username && !url.password ? url.origin : null;
  } catch {
    return null;
  }
}

type UrlCheck = { ok: true; url: URL } | { ok: false; reason: EmbedRejectionReason };
const fail = (reason: EmbedRejectionReason) => ({ ok: false, reason }) as const;

/** Parses `src` and checks it is canonical, secure, without userinfo and on one of `origins`. */
function checkUrl(src: string, origins: readonly unknown[]): UrlCheck {
  const allowed = origins.map(normalizeOrigin).filter(Boolean);
  if (!allowed.length) return fail('no_policy');
  // eslint-disable-next-line no-control-regex
  if (/^[\s\0-\x1f]*(?:javascript|data|vbscript|blob|file):/i.test(src)) return fail('url_scheme');
  if (!/^https?:\/\/[^/\\]/i.test(src) || !URL.canParse(src)) return fail('url_invalid');
  const url = new URL(src);
  if (url.username || url.password || /^\w+:\/\/[^/?#]*@/.test(src)) return fail('url_userinfo');
  if (!secure(url)) return fail('url_scheme');
  if (!allowed.includes(url.origin)) return fail('url_origin');
  // Only the canonical spelling: no backslashes, dot segments, default ports or escaped look-alikes.
  return url.href == src ? { ok: true, url } : fail('url_invalid');
}

export type ScriptSrcCheck = { ok: true; contentId: string } | { ok: false; reason: EmbedRejectionReason };

/**
 * Checks a player script URL: exactly `<player origin>/js/player.js?contentId=<id>`. Used by the
 * parser and again by the element's Trusted Types policy before the URL reaches a script.
 */
export function checkScriptSrc(src: string, playerOrigin: string | null | undefined): ScriptSrcCheck {
  const checked = checkUrl(src, [playerOrigin]);
  if (!checked.ok) return checked;
  const { pathname, search, hash } = checked.url;
  if (pathname != '/js/player.js') return fail('url_path');
  const id = /^\?contentId=([^&#]*)$/.exec(search)?.[1];
  return id && !hash && CONTENT_ID.test(id) ? { ok: true, contentId: id } : fail('url_query');
}

// The iframe origin's content path (observed in public clients): exactly three segments.
const IFRAME_CONTENT_PATH = /^\/(vod|live|playlist)\/([\w~.-]{1,200})\/([\w~.-]{1,200})$/;

/**
 * Checks an iframe player URL: on an allowed iframe origin, with a path under `/embed/`, or
 * exactly `/<vod|live|playlist>/<account_id>/<id>` (no query, no fragment; its content id,
 * `<account_id>-<segment>-<id>`, is returned).
 */
export function checkIframeSrc(
  src: string,
  iframeOrigins: readonly string[] | null | undefined,
): { ok: true; contentId?: string } | { ok: false; reason: EmbedRejectionReason } {
  const checked = checkUrl(src, iframeOrigins ?? []);
  if (!checked.ok) return checked;
  const { pathname, search, hash } = checked.url;
  if (/^\/embed\/[^/]/.test(pathname)) return { ok: true };
  const match = IFRAME_CONTENT_PATH.exec(pathname);
  return match && !search && !hash ? { ok: true, contentId: `${match[2]}-${match[1]}-${match[3]}` } : fail('url_path');
}
