// Embed-code validation (ARCHITECTURE.md, "The embed-code safety contract"). The code is decoded
// once and parsed inertly by a small strict tokenizer of its own: no DOM, so it runs in Node tests
// and workers, and nothing in the code can ever reach a live document. Only the script form or the
// iframe form is accepted; everything else is rejected with a typed reason.
//
// The entity decoder is a parameter so that `he` (large) never enters a bundle statically: the
// element loads it lazily, in parallel with its network request.

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
  /** Validated attributes other than `src`, in a fixed order. */
  attributes: Record<string, string>;
}

export const EMBED_REJECTION_REASONS = [
  'not_a_string',
  'empty',
  'too_long',
  'control_character',
  'text',
  'inline_script',
  'entity',
  'comment',
  'declaration',
  'syntax',
  'element_not_allowed',
  'structure',
  'attribute_not_allowed',
  'attribute_duplicate',
  'attribute_missing',
  'attribute_value',
  'url_invalid',
  'url_scheme',
  'url_userinfo',
  'url_origin',
  'url_path',
  'url_query',
  'id_mismatch',
  'no_policy',
] as const;

export type EmbedRejectionReason = (typeof EMBED_REJECTION_REASONS)[number];

export type EmbedResult =
  | { ok: true; embed: Embed }
  | { ok: false; reason: EmbedRejectionReason; message: string };

/** Longest code accepted; real codes are a few hundred characters. */
export const MAX_CODE_LENGTH = 4096;

const WS = ' \t\n\f\r';
const CONTENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
// A character reference a browser would still decode: numeric, named with `;`, or a legacy name.
const ENTITY = /&(?:#\d|#x[0-9a-f]|[a-z][a-z0-9]*;|(?:lt|gt|amp|quot|apos|nbsp)(?![a-z0-9=]))/i;
const LENGTH = /^\d{1,5}(?:\.\d{1,3})?(?:%|px)?$/;
const CLASS_TOKEN = /^[A-Za-z_-][A-Za-z0-9_-]{0,99}$/;
const FEATURES = new Set([
  'autoplay',
  'fullscreen',
  'picture-in-picture',
  'encrypted-media',
  'clipboard-write',
  'web-share',
  'accelerometer',
  'gyroscope',
]);
const REFERRER_POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
]);
const BOOLEAN_FULLSCREEN = ['allowfullscreen', 'webkitallowfullscreen', 'mozallowfullscreen', 'msallowfullscreen'];

type Check = (value: string, decode: EntityDecoder) => string | null;

const fullscreenFlag: Check = (value) =>
  ['', 'true', ...BOOLEAN_FULLSCREEN].includes(value.toLowerCase()) ? value : null;
const match = (pattern: RegExp): Check => (value) => (pattern.test(value) ? value : null);

/** Allowed attributes per element and how each value is checked (null: reject). `src` and `style` are special. */
const ALLOWED: Record<'script' | 'iframe' | 'div', Record<string, Check>> = {
  script: {
    id: match(CONTENT_ID),
    src: (value) => value,
    width: match(LENGTH),
    height: match(LENGTH),
    class: (value) => (CLASS_TOKEN.test(value.trim()) ? value.trim() : null),
  },
  iframe: {
    id: match(CONTENT_ID),
    src: (value) => value,
    width: match(LENGTH),
    height: match(LENGTH),
    frameborder: match(/^[01]$/),
    scrolling: match(/^(?:yes|no|auto)$/),
    allow: (value) => {
      const items = value.split(';').map((item) => item.trim()).filter(Boolean);
      const ok = items.every((item) => {
        const [feature, ...rest] = item.split(/\s+/);
        return FEATURES.has(feature!) && rest.every((origin) => /^(?:'self'|'src'|\*)$/.test(origin));
      });
      return ok && items.length ? items.join('; ') : null;
    },
    ...Object.fromEntries(BOOLEAN_FULLSCREEN.map((name) => [name, fullscreenFlag])),
    // HTML decodes references inside attribute values; the title is the one value where the
    // service legitimately leaves them (a title with `&` or quotes). It is only ever set as text.
    title: (value, decode) => {
      const text = decode(value).trim();
      return text.length <= 300 && !hasControl(text) ? text : null;
    },
    referrerpolicy: (value) => (REFERRER_POLICIES.has(value) ? value : null),
    loading: match(/^(?:lazy|eager)$/),
    style: (value) => value,
  },
  div: { style: (value) => value },
};

interface Token {
  kind: 'start' | 'end';
  name: string;
  attributes: [string, string][];
}

class Rejection {
  constructor(
    readonly reason: EmbedRejectionReason,
    readonly message: string,
  ) {}
}

function reject(reason: EmbedRejectionReason, message: string): never {
  throw new Rejection(reason, message);
}

function hasControl(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/.test(text);
}

/**
 * Validates an embed code as the service returns it (entity-escaped): decodes it exactly once with
 * `decode`, parses it inertly and checks every attribute and URL against `policy`.
 */
export function parseEmbedCode(code: unknown, decode: EntityDecoder, policy: EmbedPolicy): EmbedResult {
  try {
    if (typeof code !== 'string') reject('not_a_string', 'The embed code is not a string.');
    if (code.length > MAX_CODE_LENGTH) reject('too_long', 'The embed code is too long.');
    const markup = decode(code).replace(/^[ \t\n\f\r]+|[ \t\n\f\r]+$/g, '');
    if (!markup) reject('empty', 'The embed code is empty.');
    if (hasControl(markup)) reject('control_character', 'The embed code contains control characters.');
    return { ok: true, embed: validate(tokenize(markup), decode, policy) };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const skipWs = () => {
    const start = i;
    while (i < input.length && WS.includes(input[i]!)) i++;
    return i > start;
  };
  const readName = () => {
    const start = i;
    while (i < input.length && !WS.includes(input[i]!) && !'/>"\'=<`'.includes(input[i]!)) i++;
    return input.slice(start, i);
  };
  while (i < input.length) {
    const start = i;
    while (i < input.length && input[i] !== '<') i++;
    const text = input.slice(start, i);
    if (/[^ \t\n\f\r]/.test(text)) {
      if (ENTITY.test(text)) reject('entity', 'The embed code is escaped more than once.');
      const last = tokens[tokens.length - 1];
      if (last?.kind === 'start' && last.name === 'script') reject('inline_script', 'The script has inline code.');
      reject('text', 'The embed code contains text outside the player element.');
    }
    if (i >= input.length) break;
    if (input.startsWith('<!--', i)) reject('comment', 'The embed code contains a comment.');
    if (input[i + 1] === '!' || input[i + 1] === '?') reject('declaration', 'The embed code contains a declaration or CDATA.');
    const end = input[i + 1] === '/';
    i += end ? 2 : 1;
    const name = readName();
    if (!/^[a-z][a-z0-9-]*$/.test(name)) {
      if (/^[A-Za-z]/.test(name)) reject('syntax', `Element names must be lower case ("${name}").`);
      reject('text', 'The embed code contains a stray "<".');
    }
    if (!(name in ALLOWED)) reject('element_not_allowed', `The element <${name}> is not allowed.`);
    const attributes: [string, string][] = [];
    let separated = false;
    for (;;) {
      separated = skipWs() || separated;
      if (i >= input.length) reject('syntax', `The tag <${name}> is not closed.`);
      if (input[i] === '>') {
        i++;
        break;
      }
      if (end) reject('syntax', `The end tag </${name}> has attributes.`);
      if (input[i] === '/') reject('syntax', 'Self-closing tags are not allowed.');
      if (!separated) reject('syntax', `Attributes of <${name}> must be separated by white space.`);
      const attribute = readName();
      if (!/^[a-z][a-z-]*$/.test(attribute)) reject('syntax', `Malformed attribute name in <${name}>.`);
      let value = '';
      separated = skipWs();
      if (input[i] === '=') {
        i++;
        skipWs();
        value = readValue();
        separated = false;
      }
      if (attributes.some(([seen]) => seen === attribute)) {
        reject('attribute_duplicate', `The attribute "${attribute}" appears twice.`);
      }
      attributes.push([attribute, value]);
    }
    tokens.push({ kind: end ? 'end' : 'start', name, attributes });
  }
  return tokens;

  function readValue(): string {
    const quote = input[i];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = input.indexOf(quote, i + 1);
      if (close < 0) reject('syntax', 'An attribute value is not closed.');
      value = input.slice(i + 1, close);
      i = close + 1;
      if (i < input.length && !WS.includes(input[i]!) && input[i] !== '>') {
        reject('syntax', 'Attributes must be separated by white space.');
      }
    } else {
      const start = i;
      while (i < input.length && !WS.includes(input[i]!) && input[i] !== '>') i++;
      value = input.slice(start, i);
      if (!value || /["'<`]/.test(value)) reject('syntax', 'Malformed unquoted attribute value.');
    }
    if (/[<>]/.test(value)) reject('attribute_value', 'An attribute value contains markup.');
    return value;
  }
}

function validate(tokens: Token[], decode: EntityDecoder, policy: EmbedPolicy): Embed {
  const shape = tokens.map((token) => (token.kind === 'end' ? '/' : '') + token.name).join(' ');
  const wrapped = shape === 'div iframe /iframe /div';
  if (!wrapped && shape !== 'script /script' && shape !== 'iframe /iframe') {
    reject('structure', 'The embed code must be one script element or one iframe (optionally in one div).');
  }
  if (wrapped) checkAttributes('div', tokens[0]!.attributes, decode);
  const element = tokens[wrapped ? 1 : 0]!;
  const tag = element.name as EmbedTag;
  const values = checkAttributes(tag, element.attributes, decode);
  const src = values.src;
  if (src === undefined) reject('attribute_missing', `The ${tag} has no src.`);
  const contentId = values.id ?? null;
  if (tag === 'script') {
    if (contentId === null) reject('attribute_missing', 'The script has no id.');
    const checked = checkScriptSrc(src, policy.playerOrigin);
    if (!checked.ok) reject(checked.reason, checked.message);
    if (checked.contentId !== contentId) reject('id_mismatch', 'The contentId of the script URL differs from its id.');
  } else {
    const checked = checkIframeSrc(src, policy.iframeOrigins);
    if (!checked.ok) reject(checked.reason, checked.message);
  }
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name !== 'src' && name !== 'style') attributes[name] = value;
  }
  return { tag, src, contentId, attributes };
}

function checkAttributes(tag: keyof typeof ALLOWED, attributes: [string, string][], decode: EntityDecoder) {
  const allowed = ALLOWED[tag];
  const values: Record<string, string> = {};
  for (const [name, raw] of attributes) {
    const check = Object.hasOwn(allowed, name) ? allowed[name] : undefined;
    if (!check) reject('attribute_not_allowed', `The attribute "${name}" is not allowed on <${tag}>.`);
    if (name !== 'title' && ENTITY.test(raw)) reject('entity', `The attribute "${name}" is escaped more than once.`);
    const value = check(raw, decode);
    if (value === null) reject('attribute_value', `The value of "${name}" on <${tag}> is not allowed.`);
    values[name] = value;
  }
  return values;
}

type UrlCheck = { ok: true; url: URL } | { ok: false; reason: EmbedRejectionReason; message: string };

/** True for loopback hosts (127.0.0.0/8, localhost, [::1]), where plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The serialized origin of `value` if it is a usable player origin (https, or http on loopback); else null. */
export function normalizeOrigin(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) return null;
    if (url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** Parses `src` and checks it is canonical, secure, without userinfo and on one of `origins`. */
function checkUrl(src: string, origins: readonly (string | null)[]): UrlCheck {
  const allowed = origins.filter((origin): origin is string => origin !== null);
  if (!allowed.length) return { ok: false, reason: 'no_policy', message: 'No player origin is configured.' };
  let url: URL;
  try {
    if (!/^https?:\/\/[^/\\]/i.test(src)) throw new TypeError('not absolute');
    url = new URL(src);
  } catch {
    if (/^[ \t\n\f\r]*(?:javascript|data|vbscript|blob|file):/i.test(src)) {
      return { ok: false, reason: 'url_scheme', message: 'The player URL has a forbidden scheme.' };
    }
    return { ok: false, reason: 'url_invalid', message: 'The player URL is not an absolute http(s) URL.' };
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(src)) {
    return { ok: false, reason: 'url_userinfo', message: 'The player URL carries credentials.' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return { ok: false, reason: 'url_scheme', message: 'The player URL must use https.' };
  }
  if (!allowed.includes(url.origin)) {
    return { ok: false, reason: 'url_origin', message: `The player URL is not on an allowed origin (${url.origin}).` };
  }
  // Only the canonical spelling: no backslashes, dot segments, default ports or escaped look-alikes.
  if (url.href !== src) return { ok: false, reason: 'url_invalid', message: 'The player URL is not in canonical form.' };
  return { ok: true, url };
}

export type ScriptSrcCheck =
  | { ok: true; contentId: string }
  | { ok: false; reason: EmbedRejectionReason; message: string };

/**
 * Checks a player script URL: exactly `<player origin>/js/player.js?contentId=<id>`. Used by the
 * parser and again by the element's Trusted Types policy before the URL reaches a script.
 */
export function checkScriptSrc(src: string, playerOrigin: string | null | undefined): ScriptSrcCheck {
  const checked = checkUrl(src, [normalizeOrigin(playerOrigin)]);
  if (!checked.ok) return checked;
  const { url } = checked;
  if (url.pathname !== '/js/player.js') {
    return { ok: false, reason: 'url_path', message: 'The player script is not /js/player.js.' };
  }
  const query = /^\?contentId=([^&#]*)$/.exec(url.search);
  if (!query || url.hash || !CONTENT_ID.test(query[1]!)) {
    return { ok: false, reason: 'url_query', message: 'The player script query must be exactly contentId=<id>.' };
  }
  return { ok: true, contentId: query[1]! };
}

/** Checks an iframe player URL: on an allowed iframe origin, under `/embed/`. */
export function checkIframeSrc(
  src: string,
  iframeOrigins: readonly string[] | null | undefined,
): { ok: true } | { ok: false; reason: EmbedRejectionReason; message: string } {
  const checked = checkUrl(src, (iframeOrigins ?? []).map(normalizeOrigin));
  if (!checked.ok) return checked;
  if (!/^\/embed\/[^/]+/.test(checked.url.pathname)) {
    return { ok: false, reason: 'url_path', message: 'The iframe URL is not under /embed/.' };
  }
  return { ok: true };
}
