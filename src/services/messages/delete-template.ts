import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { MessageTemplate } from './entities.ts';

/**
 * Deletes a template. Messages already recorded keep their rendered text (they store the key,
 * not a reference); a flow step naming the key fails from now on with a clear error.
 */
export async function deleteTemplate(
  ctx: AppContext,
  who: Principal,
  key: string,
): Promise<{ key: string; deleted: true }> {
  const n = await ctx.orm.em
    .fork()
    .nativeDelete(MessageTemplate, { workspace: who.workspaceId, mode: who.mode, key });
  if (n === 0) throw notFound('message template');
  return { key, deleted: true };
}
