import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { deleteTemplateByKey } from './repository.ts';

/**
 * Deletes a template. Messages already recorded keep their rendered text (they store the key,
 * not a reference); a flow step naming the key fails from now on with a clear error.
 */
export async function deleteTemplate(
  ctx: AppContext,
  who: Principal,
  key: string,
): Promise<{ key: string; deleted: true }> {
  const n = await deleteTemplateByKey(ctx.orm, who, key);
  if (n === 0) throw notFound('message template');
  return { key, deleted: true };
}
