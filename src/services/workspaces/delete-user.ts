import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound } from '../../errors.ts';
import { deleteUserRow, readWorkspaceBySlug, userOfWorkspace } from './repository.ts';

/** A user named by id (the dashboard's user list). */
export const userByIdInput = z.strictObject({ id: z.uuid() });

/** The user to delete: by id (the dashboard's user list) or by e-mail (`svc users delete`). */
export const deleteUserInput = z.union([
  userByIdInput,
  z.strictObject({ email: z.string().min(1).max(320) }),
]);
export type DeleteUserInput = z.output<typeof deleteUserInput>;

/**
 * Deletes a dashboard user of a workspace. Its sessions go with it (the foreign key cascades), so
 * a browser still holding its cookie is signed out at its next request.
 */
export function deleteUser(
  ctx: AppContext,
  workspaceId: string,
  data: DeleteUserInput,
): Promise<{ id: string; email: string }> {
  return unitOfWork(ctx, async ({ em }) => {
    const user = await userOfWorkspace(
      em,
      workspaceId,
      'id' in data ? { id: data.id } : { email: data.email.trim().toLowerCase() },
    );
    if (!user) throw notFound('id' in data ? `user '${data.id}'` : `user '${data.email}'`);
    await deleteUserRow(em, user.id);
    return { id: user.id, email: user.email };
  });
}

/** `deleteUser` for a workspace named by its slug (the CLI). */
export async function deleteUserOf(
  ctx: AppContext,
  workspaceSlug: string,
  data: DeleteUserInput,
): Promise<{ id: string; email: string }> {
  const ws = await readWorkspaceBySlug(ctx.orm, workspaceSlug);
  if (!ws) throw notFound(`workspace '${workspaceSlug}'`);
  return deleteUser(ctx, ws.id, data);
}
