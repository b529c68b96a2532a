import { z } from 'zod';
import { addUser, addUserInput, listUsers, removeUser } from '../services/workspaces/dashboard-users.ts';
import { userByIdInput } from '../services/workspaces/delete-user.ts';
import { router, sessionProcedure } from './trpc.ts';

/** The dashboard logins of the signed-in user's workspace: list, add, delete (never oneself). */
export const usersRouter = router({
  list: sessionProcedure.input(z.strictObject({}).optional()).query(async ({ ctx }) => ({
    data: (await listUsers(ctx.app, ctx.user.workspace.id)).map((u) => ({ ...u, you: u.id === ctx.user.id })),
  })),
  create: sessionProcedure
    .input(addUserInput)
    .mutation(({ ctx, input }) => addUser(ctx.app, ctx.user.workspace, input)),
  delete: sessionProcedure
    .input(userByIdInput)
    .mutation(({ ctx, input }) =>
      removeUser(ctx.app, { id: ctx.user.id, workspaceId: ctx.user.workspace.id }, input),
    ),
});
