import type { AppContext } from '../../context.ts';
import { Workspace } from './entities.ts';

// The one statement of this domain beyond MikroORM's find and flush: creating a workspace is
// `insert … on conflict (slug) do nothing`, so two concurrent `svc workspace create` of one slug
// both succeed and make one row.

/** Inserts the workspace unless one with its slug exists; the existing row is left as it is. */
export async function insertWorkspaceUnlessSlugTaken(
  em: ReturnType<AppContext['orm']['em']['fork']>,
  row: { id: string; slug: string; name: string },
): Promise<void> {
  await em.createQueryBuilder(Workspace).insert(row).onConflict('slug').ignore().execute();
}
