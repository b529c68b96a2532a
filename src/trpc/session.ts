import type { CookieOptions, Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import { findSession, type SignedIn } from '../services/workspaces/sessions.ts';

/**
 * The dashboard session cookie: the random token of a server-side session
 * (src/services/workspaces/sessions.ts). HttpOnly, so page scripts never see it; SameSite=Lax,
 * so other sites' requests do not carry it (the same-origin check on mutations is the second
 * line); Secure whenever the request came over TLS.
 */
export const SESSION_COOKIE = 'svc_session';

/** The session token in a request's Cookie header, if any (validity is the session store's call). */
export function readSessionToken(req: Request): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      if (value) return value;
    }
  }
  return null;
}

/**
 * The live session of a request, for a dashboard route outside tRPC (e.g. a streamed upload):
 * pair it with `requireSameOrigin` (src/lib/same-origin.ts) when the route changes anything.
 */
export function signedInFromRequest(ctx: AppContext, req: Request): Promise<SignedIn | null> {
  const token = readSessionToken(req);
  return token ? findSession(ctx, token) : Promise.resolve(null);
}

const cookieOptions = (req: Request): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  // Secure whenever the request itself came over TLS (behind a proxy: set TRUST_PROXY); plain-HTTP
  // local installs keep working.
  secure: req.secure,
  path: '/',
});

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.cookie(SESSION_COOKIE, token, {
    ...cookieOptions(req),
    maxAge: Math.max(0, expiresAt.getTime() - Date.now()),
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}
