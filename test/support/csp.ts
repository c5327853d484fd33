// The Content-Security-Policy a page embedding the elements needs, as docs/security.md gives it:
// the CSP tests of the bundler path (test/elements/svc-player/csp.test.ts) and of the script tag
// (test/e2e/script-tag.test.ts) serve their pages under this one policy, with one recorder of what
// the page saw (violations, errors, `svc-error`s).

/** The documented policy with `scripts` as script-src; iframes from the player origin and `iframeUrl`'s. */
export function documentedPolicy(scripts: string, playerOrigin: string, iframeUrl: string): string {
  return [
    "default-src 'none'",
    `script-src ${scripts}`,
    "connect-src 'self' " + playerOrigin,
    `media-src ${playerOrigin}`,
    `frame-src ${playerOrigin} ${iframeUrl}`,
    "style-src 'none'",
    "img-src 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types svc-player lit-html',
  ].join('; ');
}

/**
 * The page's first script (nonced): records every CSP or Trusted Types violation (`__violations`),
 * uncaught error and unhandled rejection (`__errors`) and `svc-error` detail (`__svcErrors`), before
 * any of our code runs.
 */
export const recorderScript = (nonce: string): string => `<script nonce="${nonce}">
  window.__violations = [];
  window.__errors = [];
  window.__svcErrors = [];
  document.addEventListener('svc-error', (e) => window.__svcErrors.push(e.detail));
  window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
  window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
</script>`;

/** A page of any driver (test/support/browsers/pages.ts, Playwright) that runs a function in it. */
interface Evaluating {
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
}

type Recorded = { directive: string; blocked: string; sample: string };
type Recorder = { __violations: Recorded[]; __errors: string[]; __svcErrors: unknown[] };

/**
 * The violations `page` (served from `origin`) saw, less the browser's own favicon request (Firefox
 * and WebKit ask for /favicon.ico, which img-src 'none' blocks; headless Chromium does not ask).
 */
export const violationsIn = async (page: Evaluating, origin: string): Promise<Recorded[]> =>
  (await page.evaluate(() => (window as unknown as Recorder).__violations)).filter((v) => !(v.directive === 'img-src' && v.blocked === `${origin}/favicon.ico`));

/** The uncaught errors and unhandled rejections `page` saw. */
export const errorsIn = (page: Evaluating): Promise<string[]> => page.evaluate(() => (window as unknown as Recorder).__errors);

/** The `svc-error` details `page` saw. */
export const svcErrorsIn = <T>(page: Evaluating): Promise<T[]> => page.evaluate(() => (window as unknown as Recorder).__svcErrors as T[]);
