import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';

/** The dashboard session cookie: `<base64url JSON>.<HMAC-SHA256 under SVC_SECRET>`. */
export const SESSION_COOKIE = 'svc_session';
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

export interface Session {
  userId: string;
  workspaceId: string;
  /** Unix seconds. */
  expiresAt: number;
}

const mac = (body: string, secret: string) =>
  createHmac('sha256', secret).update(`session:${body}`).digest('base64url');

export function signSession(session: Session, secret: string): string {
  const body = Buffer.from(
    JSON.stringify({ u: session.userId, w: session.workspaceId, e: session.expiresAt }),
  ).toString('base64url');
  return `${body}.${mac(body, secret)}`;
}

/** The session a cookie value carries, or null when it is malformed, tampered with or expired. */
export function verifySession(value: string, secret: string, now = Date.now()): Session | null {
  const [body, given, ...rest] = value.split('.');
  if (!body || !given || rest.length) return null;
  const expected = Buffer.from(mac(body, secret));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    const { u, w, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof u !== 'string' || typeof w !== 'string' || typeof e !== 'number') return null;
    return e * 1000 > now ? { userId: u, workspaceId: w, expiresAt: e } : null;
  } catch {
    return null;
  }
}

/** The session in a request's Cookie header, if any valid one. */
export function readSession(req: Request, secret: string): Session | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const session = verifySession(part.slice(eq + 1).trim(), secret);
      if (session) return session;
    }
  }
  return null;
}

const cookieOptions = (req: Request): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  // Secure whenever the request itself came over TLS; plain-HTTP local installs keep working.
  secure: req.secure,
  path: '/',
});

export function setSessionCookie(
  req: Request,
  res: Response,
  who: { userId: string; workspaceId: string },
  secret: string,
): void {
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS;
  res.cookie(SESSION_COOKIE, signSession({ ...who, expiresAt }, secret), {
    ...cookieOptions(req),
    maxAge: SESSION_TTL_SECONDS * 1000,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}
