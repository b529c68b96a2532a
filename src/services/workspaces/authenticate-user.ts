import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import type { User, Workspace } from './entities.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { readUserByEmail, readWorkspaceBySlug, savePasswordHash } from './repository.ts';

export const loginInput = z.strictObject({
  workspace: z.string().min(1).max(64),
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(200),
});
export type LoginInput = z.output<typeof loginInput>;

export interface DashboardUser {
  id: string;
  email: string;
  workspace: { id: string; slug: string; name: string };
}

export const presentUser = (user: User, ws: Workspace): DashboardUser => ({
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
 * `authentication_error`, so a caller cannot tell which of the three was wrong. Attempts are
 * limited per e-mail and per client address (`ctx.signIns`): over a limit, `rate_limit_error`.
 */
export async function authenticateUser(
  ctx: AppContext,
  { workspace, email, password }: LoginInput,
  client: { ip?: string | undefined } = {},
): Promise<DashboardUser> {
  const attempt = await ctx.signIns.attempt({ workspace, email, ip: client.ip });
  const ws = await readWorkspaceBySlug(ctx.orm, workspace);
  const user = ws ? await readUserByEmail(ctx.orm, ws.id, email.trim().toLowerCase()) : null;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!ws || !user || !ok)
    throw new DomainError('authentication_error', 'Sign-in failed: wrong workspace, e-mail or password');
  await attempt.succeeded();
  if (needsRehash(user.passwordHash)) await savePasswordHash(ctx.orm, user.id, await hashPassword(password));
  return presentUser(user, ws);
}
