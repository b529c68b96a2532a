import { authenticateUser, loginInput } from '../services/workspaces/authenticate-user.ts';
import { clearSessionCookie, setSessionCookie } from './session.ts';
import { publicProcedure, router, sessionProcedure } from './trpc.ts';

/** Dashboard sign-in: an HttpOnly, SameSite=Lax cookie signed with SVC_SECRET. */
export const authRouter = router({
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => {
    const user = await authenticateUser(ctx.app, input);
    setSessionCookie(
      ctx.req,
      ctx.res,
      { userId: user.id, workspaceId: user.workspace.id },
      ctx.app.config.secret,
    );
    return user;
  }),
  /** Drops this client's cookie. Sessions are stateless, so a copied cookie lives until it expires. */
  logout: publicProcedure.mutation(({ ctx }) => {
    clearSessionCookie(ctx.req, ctx.res);
    return { signed_out: true as const };
  }),
  me: sessionProcedure.query(({ ctx }) => ctx.user),
});
