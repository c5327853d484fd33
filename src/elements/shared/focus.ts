// Moving focus to something the next render creates (a heading, a field, a row's button).
import type { ReactiveElement } from 'lit';

/**
 * After `host`'s pending update, focuses the first of `selectors` (in order) found in its shadow
 * root; returns the element focused, if any.
 */
export async function focusAfterUpdate(host: ReactiveElement, ...selectors: string[]): Promise<HTMLElement | undefined> {
  await host.updateComplete;
  for (const selector of selectors) {
    const target = host.renderRoot.querySelector<HTMLElement>(selector);
    if (target) {
      target.focus();
      return target;
    }
  }
  return undefined;
}
