import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { parseInput } from '../validation.ts';
import { User } from './entities.ts';

export const deleteUserInput = z.strictObject({ id: z.uuid() });

/**
 * Deletes a dashboard user of a workspace. Its sessions go with it (the foreign key cascades), so
 * a browser still holding its cookie is signed out at its next request.
 */
export async function deleteUser(
  ctx: AppContext,
  workspaceId: string,
  input: unknown,
): Promise<{ id: string }> {
  const { id } = parseInput(deleteUserInput, input);
  const deleted = await ctx.orm.em.fork().nativeDelete(User, { id, workspace: workspaceId });
  if (!deleted) throw notFound(`user '${id}'`);
  return { id };
}
