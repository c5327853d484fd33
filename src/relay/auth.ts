// Who is calling: built-in identities (dev, jwt) behind one hook, plus the CSRF rules for
// ambient credentials (cookies, and the dev identity which needs no credential at all).
import { jwtVerify } from 'jose';
import { HttpError } from './http-error.js';

/** The identity hook: the user of a request, or null when it carries none (401). */
export type Authenticate = (request: Request) => Promise<{ id: string } | null>;

export const TOKEN_COOKIE = 'svc_token';
const USER_ID = /^[\x21-\x7e]{1,200}$/;

export const devAuth: Authenticate = async () => ({ id: 'dev' });

export function readCookie(request: Request, name: string): string | undefined {
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

/** HS256 tokens from `Authorization: Bearer` or the svc_token cookie; the user is `sub`. */
export function jwtAuth(secret: string): Authenticate {
  const key = new TextEncoder().encode(secret);
  return async (request) => {
    const token = bearer(request) ?? readCookie(request, TOKEN_COOKIE);
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      return typeof payload.sub === 'string' && USER_ID.test(payload.sub) ? { id: payload.sub } : null;
    } catch {
      return null;
    }
  };
}

/**
 * A request is "ambient" when nothing in it was added deliberately by the calling script: no
 * Authorization header (cookies, or no credential at all under dev identity). Such requests must
 * carry `X-Svc-Request: 1` (which a cross-site page cannot add without a CORS preflight that we
 * refuse) and, with cookie auth, an allowed Origin.
 */
export function checkCsrf(request: Request, options: { mode: 'dev' | 'jwt' | 'custom'; allowed: (origin: string) => boolean }) {
  if (request.headers.has('authorization')) return;
  if (request.headers.get('x-svc-request') !== '1') {
    throw new HttpError(403, 'forbidden', 'Requests without an Authorization header must carry "X-Svc-Request: 1" (CSRF protection).');
  }
  // Only cookies ride along on cross-site requests by themselves; they also need a trusted Origin.
  if (options.mode === 'dev' || !request.headers.has('cookie')) return;
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
