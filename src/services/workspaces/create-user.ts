import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { parseInput } from '../validation.ts';
import { DashboardSession, User, Workspace } from './entities.ts';
import { hashPassword } from './passwords.ts';

export const createUserInput = z.strictObject({
  workspace: z.string().min(1),
  email: z.email().max(320),
  password: z.string().min(8, 'at least 8 characters').max(200),
});

/** Creates (or resets the password of) a dashboard user of a workspace; a reset ends the user's sessions. */
export async function createUser(ctx: AppContext, input: unknown): Promise<{ id: string; email: string }> {
  const data = parseInput(createUserInput, input);
  const em = ctx.orm.em.fork();
  const ws = await em.findOne(Workspace, { slug: data.workspace });
  if (!ws) throw notFound(`workspace '${data.workspace}'`);
  const email = data.email.toLowerCase();
  const passwordHash = await hashPassword(data.password);
  const existing = await em.findOne(User, { workspace: ws, email });
  if (existing) {
    existing.passwordHash = passwordHash;
    await em.nativeDelete(DashboardSession, { user: existing.id });
  }
  const user = existing ?? em.create(User, { id: uuidv7(), workspace: ws, email, passwordHash });
  await em.flush();
  return { id: user.id, email: user.email };
}
