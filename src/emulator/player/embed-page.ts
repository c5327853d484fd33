// The iframe page (/embed/<content_id> on the player origin, or /<segment>/<account>/<id> on the
// iframe origin): a bare page that loads the same player.js, under its own strict CSP with
// Trusted Types enforced. On the iframe origin the player comes from the player origin.
import { randomBytes } from 'node:crypto';
import { escapeHtml, PLAYER_CLASS } from '../embed.js';

export function embedPage(contentId: string, title: string, playerOrigin?: string): Response {
  const nonce = randomBytes(16).toString('base64');
  const id = escapeHtml(contentId);
  const src = escapeHtml(`${playerOrigin ?? ''}/js/player.js?contentId=${encodeURIComponent(contentId)}`);
  const from = playerOrigin ?? "'self'";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">html, body { margin: 0; height: 100%; background: #000; overflow: hidden; }</style>
</head>
<body>
<script id="${id}" width="100%" height="100%" src="${src}" class="${PLAYER_CLASS}"></script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src ${from}`,
    `connect-src ${from}`,
    `media-src ${from}`,
    `style-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    },
  });
}
