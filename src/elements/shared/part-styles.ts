// How a part's styles join its element's: one way, for every part (the lazy-part seam, part.ts).
// In a module of its own, with no import, so that the player's lazy chunks can bring it.
import type { CSSResultOrNative, LitElement } from 'lit';

/** A module loaded as a part may export the styles its templates need. */
export interface PartModule {
  readonly styles?: CSSResultOrNative | readonly CSSResultOrNative[];
}

/**
 * Adds a part's `styles` to `host`'s shadow root, after the element's own (Lit adopts those once,
 * when it makes the root), each once; an element without a shadow root takes none.
 */
export function adoptPartStyles(host: LitElement, { styles }: PartModule): void {
  const root = host.renderRoot;
  if (!(root instanceof ShadowRoot)) return; // a subclass rendering into the light DOM styles it itself
  for (const style of [styles ?? []].flat()) {
    const sheet = style instanceof CSSStyleSheet ? style : style.styleSheet!;
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}
