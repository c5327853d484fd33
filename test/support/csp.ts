// The Content-Security-Policy a page embedding the elements needs, as docs/security.md gives it:
// the CSP tests of the bundler path (test/elements/svc-player/csp.test.ts) and of the script tag
// (test/e2e/script-tag.test.ts) serve their pages under this one policy.

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
