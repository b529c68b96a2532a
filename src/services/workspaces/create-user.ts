import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { parseInput } from '../validation.ts';
import { DashboardSession, User, Workspace } from './entities.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';

export const createUserInput = z.strictObject({
  workspace: z.string().min(1),
  email: z.email().max(320),
  password: z.string().min(8, 'at least 8 characters').max(200),
});

/**
 * Creates (or sets the password of) a dashboard user of a workspace. A new password ends the
 * user's sessions; the password it already has is no change, so its sessions stay (the demo seed
 * sets the demo user's password on every `npm start` and `svc demo`, and must not sign it out).
 */
export async function createUser(ctx: AppContext, input: unknown): Promise<{ id: string; email: string }> {
  const data = parseInput(createUserInput, input);
  const em = ctx.orm.em.fork();
  const ws = await em.findOne(Workspace, { slug: data.workspace });
  if (!ws) throw notFound(`workspace '${data.workspace}'`);
  const email = data.email.toLowerCase();
  const existing = await em.findOne(User, { workspace: ws, email });
  if (existing && (await verifyPassword(data.password, existing.passwordHash))) {
    // Unchanged; a hash of older parameters is rewritten, as a sign-in would.
    if (needsRehash(existing.passwordHash)) {
      existing.passwordHash = await hashPassword(data.password);
      await em.flush();
    }
    return { id: existing.id, email: existing.email };
  }
  const passwordHash = await hashPassword(data.password);
  if (existing) {
    existing.passwordHash = passwordHash;
    await em.nativeDelete(DashboardSession, { user: existing.id });
  }
  const user = existing ?? em.create(User, { id: uuidv7(), workspace: ws, email, passwordHash });
  await em.flush();
  return { id: user.id, email: user.email };
}
