import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { parseInput } from '../validation.ts';
import { Workspace } from './entities.ts';
import { insertWorkspaceUnlessSlugTaken } from './repository.ts';

export const createWorkspaceInput = z.strictObject({
  slug: z
    .string()
    .min(2)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes, starting with a letter or digit'),
  name: z.string().min(1).max(200).optional(),
});

export interface WorkspaceDto {
  id: string;
  slug: string;
  name: string;
}

/** Creates a workspace, or returns the existing one with that slug (idempotent on slug). */
export async function createWorkspace(ctx: AppContext, input: unknown): Promise<WorkspaceDto> {
  const { slug, name } = parseInput(createWorkspaceInput, input);
  const em = ctx.orm.em.fork();
  await insertWorkspaceUnlessSlugTaken(em, { id: uuidv7(), slug, name: name ?? slug });
  const ws = await em.findOneOrFail(Workspace, { slug });
  return { id: ws.id, slug: ws.slug, name: ws.name };
}

export async function findWorkspaceBySlug(ctx: AppContext, slug: string): Promise<Workspace | null> {
  return ctx.orm.em.fork().findOne(Workspace, { slug });
}
