// The browser tests run Lit's production build, as users do: its development build (the
// "development" export condition) printed "Lit is in dev mode" in every test page.
import { expect } from '@open-wc/testing';
import '../../src/elements/define.js';

declare const it: (name: string, body: () => void) => void;

it('loads Lit without its development build (no "Lit is in dev mode")', () => {
  // Set by Lit's development build only, when it warns (dev mode, and every later warning).
  expect((globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings).to.equal(undefined);
  expect(customElements.get('svc-uploader')).to.not.equal(undefined);
});
