import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { parseInput } from '../validation.ts';
import { hashPassword, verifyPassword } from './create-user.ts';
import { User, Workspace } from './entities.ts';

export const loginInput = z.strictObject({
  workspace: z.string().min(1).max(64),
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(200),
});

export interface DashboardUser {
  id: string;
  email: string;
  workspace: { id: string; slug: string; name: string };
}

const present = (user: User, ws: Workspace): DashboardUser => ({
  id: user.id,
  email: user.email,
  workspace: { id: ws.id, slug: ws.slug, name: ws.name },
});

// Verified when the user does not exist, so an unknown e-mail costs the same time as a wrong password.
let decoy: Promise<string> | undefined;
const decoyHash = () => {
  decoy ??= hashPassword('decoy');
  return decoy;
};

/**
 * Checks a dashboard sign-in (workspace slug, e-mail, password). Every failure is the same
 * `authentication_error`, so a caller cannot tell which of the three was wrong.
 */
export async function authenticateUser(ctx: AppContext, input: unknown): Promise<DashboardUser> {
  const { workspace, email, password } = parseInput(loginInput, input);
  const em = ctx.orm.em.fork();
  const ws = await em.findOne(Workspace, { slug: workspace });
  const user = ws ? await em.findOne(User, { workspace: ws, email: email.trim().toLowerCase() }) : null;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!ws || !user || !ok)
    throw new DomainError('authentication_error', 'Sign-in failed: wrong workspace, e-mail or password');
  return present(user, ws);
}

/** The user a dashboard session names, or null once the user (or its workspace) is gone. */
export async function findSessionUser(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
): Promise<DashboardUser | null> {
  const em = ctx.orm.em.fork();
  const user = await em.findOne(User, { id: userId, workspace: workspaceId }, { populate: ['workspace'] });
  return user ? present(user, user.workspace) : null;
}
