// Builds the player element from a validated embed: a fresh element from `createElement`, only the
// validated attributes, the script URL through a Trusted Types policy (which checks it again), the
// page's CSP nonce. The caller puts it in light DOM, where the vendor player.js looks for it.
import { checkScriptSrc, type Embed } from '../../core/embed-code.js';
import { SvcError } from '../../core/errors.js';

/** The Trusted Types policy name a page must allow: `trusted-types svc-player`. */
export const POLICY_NAME = 'svc-player';

interface ScriptUrlPolicy {
  createScriptURL(input: string, playerOrigin: string): unknown;
}

let policy: ScriptUrlPolicy | null | undefined;

/** The page's Trusted Types policy (created once, on first use), or null where the browser has none. */
function scriptUrlPolicy(): ScriptUrlPolicy | null {
  if (policy !== undefined) return policy;
  const factory = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } })
    .trustedTypes;
  if (!factory) return (policy = null);
  try {
    policy = factory.createPolicy(POLICY_NAME, {
      createScriptURL(input: string, playerOrigin: string) {
        const checked = checkScriptSrc(input, playerOrigin);
        if (!checked.ok) throw new TypeError(`svc-player: refused script URL (${checked.reason})`);
        return input;
      },
    });
  } catch {
    // The page's CSP does not allow the policy name: there is no way to set a script URL.
    throw new SvcError('embed_rejected', `The page's Trusted Types policy does not allow "${POLICY_NAME}".`);
  }
  return policy;
}

/** The script or iframe for `embed`, not yet in the document. */
export function buildPlayer(
  doc: Document,
  embed: Embed,
  options: { playerOrigin: string; nonce?: string; title: string },
): HTMLScriptElement | HTMLIFrameElement {
  const node = doc.createElement(embed.tag);
  for (const [name, value] of Object.entries(embed.attributes)) node.setAttribute(name, value);
  if (node instanceof HTMLScriptElement) {
    const tt = scriptUrlPolicy();
    // Typed as string for the DOM lib; at run time a TrustedScriptURL where the browser has them.
    node.src = (tt ? tt.createScriptURL(embed.src, options.playerOrigin) : embed.src) as string;
    if (options.nonce) node.nonce = options.nonce;
  } else {
    if (!node.title) node.title = options.title;
    node.src = embed.src;
    Object.assign(node.style, { display: 'block', width: '100%', height: '100%', border: '0' });
  }
  return node;
}
