// Who is calling: built-in identities (dev, jwt) behind one hook, plus the CSRF rules for
// cookies, the one ambient credential.
import { jwtVerify } from 'jose';
import { HttpError } from './http-error.js';

/**
 * The identity hook: the user of a request, or null when it carries none (401). `expiresAt`
 * (epoch ms) is when the credential stops being valid: event streams end then.
 */
export type Authenticate = (request: Request) => Promise<{ id: string; expiresAt?: number } | null>;

const TOKEN_COOKIE = 'svc_token';
const USER_ID = /^[\x21-\x7e]{1,200}$/;

export const devAuth: Authenticate = async () => ({ id: 'dev' });

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

function bearer(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

/**
 * HS256 tokens from `Authorization: Bearer` or the svc_token cookie; the user is `sub`. A token
 * must carry `exp`, and may not live longer than `maxTtlS` (from `iat`, and from now): a stolen
 * token without an end would be a password.
 */
export function jwtAuth(secret: string, maxTtlS: number): Authenticate {
  const key = new TextEncoder().encode(secret);
  return async (request) => {
    const token = bearer(request) ?? readCookie(request, TOKEN_COOKIE);
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      const exp = payload.exp!;
      const now = Date.now() / 1000;
      if (exp - now > maxTtlS || (typeof payload.iat === 'number' && exp - payload.iat > maxTtlS)) return null;
      return typeof payload.sub === 'string' && USER_ID.test(payload.sub) ? { id: payload.sub, expiresAt: exp * 1000 } : null;
    } catch {
      return null;
    }
  };
}

/**
 * Cookies are the only credential a cross-site page can make a browser send by itself, so cookie
 * requests must carry `X-Svc-Request: 1` (a cross-site page cannot add it without a CORS
 * preflight, which is refused) and an allowed Origin (ARCHITECTURE.md, "Identity"), whatever
 * other headers they carry: a browser adds `Authorization: Basic` by itself on a site behind HTTP
 * basic auth. Only a bearer token, which a page must add deliberately, skips the rule (it is then
 * what authenticates: jwt auth prefers it to the cookie). The dev identity needs no credential: it is refused off
 * loopback, every change but marking an upload (by its unguessable id) needs a JSON body, which a
 * cross-site form cannot send, and CORS keeps answers from foreign pages.
 */
export function checkCsrf(request: Request, options: { mode: 'dev' | 'jwt' | 'custom'; allowed: (origin: string) => boolean }) {
  if (bearer(request) !== undefined || options.mode === 'dev' || !request.headers.has('cookie')) return;
  if (request.headers.get('x-svc-request') !== '1') {
    throw new HttpError(403, 'forbidden', 'Cookie-authenticated requests must carry "X-Svc-Request: 1" (CSRF protection).');
  }
  const origin = request.headers.get('origin');
  const safe = request.method === 'GET' || request.method === 'HEAD';
  if (origin === null ? !safe : !options.allowed(origin)) {
    throw new HttpError(
      403,
      'forbidden',
      origin === null
        ? 'Cookie-authenticated changes must carry an Origin header.'
        : `Origin ${origin.slice(0, 200)} is not allowed to use this relay (SVC_ALLOWED_ORIGINS).`,
    );
  }
}
