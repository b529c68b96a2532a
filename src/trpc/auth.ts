import { authenticateUser, loginInput } from '../services/workspaces/authenticate-user.ts';
import { endSession, endUserSessions, startSession } from '../services/workspaces/sessions.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './session.ts';
import { publicProcedure, router, sessionProcedure } from './trpc.ts';

/**
 * Dashboard sign-in (docs/dashboard.md#security): a server-side session whose random token rides in an
 * HttpOnly, SameSite=Lax cookie. Sign-out deletes the session, so a copied cookie is refused too.
 */
export const authRouter = router({
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    const user = await authenticateUser(ctx.app, input, { ip: ctx.req.ip });
    // A sign-in over an existing session replaces it.
    const previous = readSessionToken(ctx.req);
    if (previous) await endSession(ctx.app, previous);
    const { token, expiresAt } = await startSession(ctx.app, user.id);
    setSessionCookie(ctx.req, ctx.res, token, expiresAt);
    return user;
  }),
  /** Ends this browser's session (also when it has already expired) and drops the cookie. */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    const token = readSessionToken(ctx.req);
    if (token) await endSession(ctx.app, token);
    clearSessionCookie(ctx.req, ctx.res);
    return { signed_out: true as const };
  }),
  /** Ends every session of the signed-in user, in every browser. */
  logoutEverywhere: sessionProcedure.mutation(async ({ ctx }) => {
    const ended = await endUserSessions(ctx.app, ctx.user.id);
    clearSessionCookie(ctx.req, ctx.res);
    return { signed_out: true as const, sessions_ended: ended };
  }),
  me: sessionProcedure.query(({ ctx }) => ctx.user),
});
