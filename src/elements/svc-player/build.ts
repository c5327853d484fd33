// The builder of <svc-player>'s load chunk: validates an embed code (core/embed-code.ts) and builds
// the player element fresh from `createElement`, with only validated attributes, the script URL
// through a Trusted Types policy (which checks it again) and the page's CSP nonce.
import { checkScriptSrc, parseEmbedCode, type Embed, type EmbedPolicy, type EntityDecoder } from '../../core/embed-code.js';

/** The Trusted Types policy name a page must allow: `trusted-types svc-player`. */
export const POLICY_NAME = 'svc-player';

interface ScriptUrlPolicy {
  createScriptURL(input: string, playerOrigin: unknown): unknown;
}

let policy: ScriptUrlPolicy | null | undefined;

/**
 * The page's Trusted Types policy (created once, on first use), null where the browser has none,
 * undefined when the page's CSP does not allow its name (then no script URL can be set).
 */
function scriptUrlPolicy(): ScriptUrlPolicy | null | undefined {
  const factory = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } })
    .trustedTypes;
  try {
    return (policy ??= factory
      ? factory.createPolicy(POLICY_NAME, {
          createScriptURL(input: string, playerOrigin: unknown) {
            const checked = checkScriptSrc(input, playerOrigin as string);
            if (!checked.ok) throw new TypeError(`svc-player: refused script URL (${checked.reason})`);
            return input;
          },
        })
      : null);
  } catch {
    return undefined;
  }
}

/** The player element built, or why it was refused (an EmbedRejectionReason or `trusted_types`). */
export type BuiltPlayer =
  | { embed: Embed; element: HTMLScriptElement | HTMLIFrameElement }
  | { reason: string; message: string };

/** Validates `code` (decoded once with `decode`) against `policy` and builds the player element, not yet in the document. */
export function buildPlayer(
  doc: Document,
  code: unknown,
  decode: EntityDecoder,
  policy: EmbedPolicy,
  options: { nonce?: string; title: string },
): BuiltPlayer {
  const result = parseEmbedCode(code, decode, policy);
  if (!result.ok) return { reason: result.reason, message: `The embed code was refused (${result.reason}).` };
  const { embed } = result;
  const element = doc.createElement(embed.tag);
  for (const [name, value] of Object.entries(embed.attributes)) element.setAttribute(name, value);
  if (element instanceof HTMLScriptElement) {
    // The player script sizes its player from these: it fills the element's box (a code's fixed
    // pixel size would crop or overflow it).
    element.setAttribute('width', '100%');
    element.setAttribute('height', '100%');
    const tt = scriptUrlPolicy();
    if (tt === undefined) {
      const message = `The page's Trusted Types policy (CSP trusted-types) does not allow "${POLICY_NAME}".`;
      return { reason: 'trusted_types', message };
    }
    // Typed as string for the DOM lib; at run time a TrustedScriptURL where the browser has them.
    element.src = (tt ? tt.createScriptURL(embed.src, policy.playerOrigin) : embed.src) as string;
    if (options.nonce) element.nonce = options.nonce;
  } else {
    if (!element.title) element.title = options.title;
    element.src = embed.src;
    // Fills the element's box (its nearest positioned ancestor); the code's own styles are dropped.
    Object.assign(element.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', border: '0' });
  }
  return { embed, element };
}
