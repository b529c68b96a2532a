import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { insertWorkspaceUnlessSlugTaken, workspaceBySlugOrFail } from './repository.ts';

export const createWorkspaceInput = z.strictObject({
  slug: z
    .string()
    .min(2)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes, starting with a letter or digit'),
  name: z.string().min(1).max(200).optional(),
});
export type CreateWorkspaceInput = z.output<typeof createWorkspaceInput>;

export interface WorkspaceDto {
  id: string;
  slug: string;
  name: string;
}

/** Creates a workspace, or returns the existing one with that slug (idempotent on slug). */
export function createWorkspace(
  ctx: AppContext,
  { slug, name }: CreateWorkspaceInput,
): Promise<WorkspaceDto> {
  return unitOfWork(ctx, async ({ em }) => {
    await insertWorkspaceUnlessSlugTaken(em, { id: uuidv7(), slug, name: name ?? slug });
    const ws = await workspaceBySlugOrFail(em, slug);
    return { id: ws.id, slug: ws.slug, name: ws.name };
  });
}
