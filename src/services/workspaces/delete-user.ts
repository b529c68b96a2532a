import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../validation.ts';
import { User, Workspace } from './entities.ts';

/** The user to delete: by id (the dashboard's user list) or by e-mail (`svc users delete`). */
export const deleteUserInput = z.union([
  z.strictObject({ id: z.uuid() }),
  z.strictObject({ email: z.string().min(1).max(320) }),
]);

/**
 * Deletes a dashboard user of a workspace. Its sessions go with it (the foreign key cascades), so
 * a browser still holding its cookie is signed out at its next request.
 */
export async function deleteUser(
  ctx: AppContext,
  workspaceId: string,
  input: unknown,
): Promise<{ id: string; email: string }> {
  const data = parseInput(deleteUserInput, input);
  const em = ctx.orm.em.fork();
  const user = await em.findOne(
    User,
    'id' in data
      ? { id: data.id, workspace: workspaceId }
      : { email: data.email.trim().toLowerCase(), workspace: workspaceId },
  );
  if (!user) throw notFound('id' in data ? `user '${data.id}'` : `user '${data.email}'`);
  await em.nativeDelete(User, { id: user.id });
  return { id: user.id, email: user.email };
}

/** `deleteUser` for a workspace named by its slug (the CLI). */
export async function deleteUserOf(
  ctx: AppContext,
  workspaceSlug: string,
  input: unknown,
): Promise<{ id: string; email: string }> {
  const ws = await ctx.orm.em.fork().findOne(Workspace, { slug: workspaceSlug });
  if (!ws) throw notFound(`workspace '${workspaceSlug}'`);
  return deleteUser(ctx, ws.id, input);
}
