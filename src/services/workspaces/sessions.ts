import { hash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { type DashboardUser, presentUser } from './authenticate-user.ts';
import {
  deleteExpiredSessions,
  deleteSessionByTokenHash,
  endSessionsOfUser,
  insertSession,
  readLiveSession,
} from './repository.ts';

/**
 * Server-side dashboard sessions (docs/dashboard.md#security). A session is a random 256-bit
 * token handed to the browser in an HttpOnly cookie; the database keeps only its SHA-256, the user
 * and the expiry. Sign-out deletes the row, deleting a user (or its workspace) cascades to its
 * rows, and a new password ends the user's sessions: a copied cookie is refused from then on.
 */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

/** 32 random bytes, base64url without padding. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => hash('sha256', token, 'hex');

export interface SignedIn {
  sessionId: string;
  user: DashboardUser;
}

/** Starts a session for `userId`: the token for the cookie (shown only here) and its expiry. */
export async function startSession(
  ctx: AppContext,
  userId: string,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
  await unitOfWork(ctx, async ({ em }) => {
    // Expired sessions go whenever one starts, so rows do not pile up (the table holds one row per
    // sign-in of the last day: small enough to sweep whole).
    await deleteExpiredSessions(em, now);
    await insertSession(em, { id: uuidv7(), tokenHash: hashToken(token), user: userId, expiresAt });
  });
  return { token, expiresAt };
}

/**
 * The signed-in user a token names, or null when the token is malformed, unknown, expired or
 * ended. One query: the unique token-hash index, joined to the user and its workspace.
 */
export async function findSession(ctx: AppContext, token: string): Promise<SignedIn | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const session = await readLiveSession(ctx.orm, hashToken(token), new Date());
  return session ? { sessionId: session.id, user: presentUser(session.user, session.user.workspace) } : null;
}

/** Ends the session a token names (sign-out); true when there was one. */
export async function endSession(ctx: AppContext, token: string): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  return (await deleteSessionByTokenHash(ctx.orm, hashToken(token))) > 0;
}

/** Ends every session of a user (password reset, "sign out everywhere"); how many ended. */
export async function endUserSessions(ctx: AppContext, userId: string): Promise<number> {
  return endSessionsOfUser(ctx.orm, userId);
}
