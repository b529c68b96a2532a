import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import {
  deleteSessionsOfUser,
  insertUser,
  readUserByEmail,
  readWorkspaceBySlug,
  savePasswordHash,
  setPasswordHash,
} from './repository.ts';

export const createUserInput = z.strictObject({
  workspace: z.string().min(1),
  email: z.email().max(320),
  password: z.string().min(8, 'at least 8 characters').max(200),
});
export type CreateUserInput = z.output<typeof createUserInput>;

/**
 * Creates (or sets the password of) a dashboard user of a workspace. A new password ends the
 * user's sessions; the password it already has is no change, so its sessions stay (the demo seed
 * sets the demo user's password on every `npm start` and `svc demo`, and must not sign it out).
 */
export async function createUser(
  ctx: AppContext,
  data: CreateUserInput,
): Promise<{ id: string; email: string }> {
  const ws = await readWorkspaceBySlug(ctx.orm, data.workspace);
  if (!ws) throw notFound(`workspace '${data.workspace}'`);
  const email = data.email.toLowerCase();
  const existing = await readUserByEmail(ctx.orm, ws.id, email);
  if (existing && (await verifyPassword(data.password, existing.passwordHash))) {
    // Unchanged; a hash of older parameters is rewritten, as a sign-in would.
    if (needsRehash(existing.passwordHash))
      await savePasswordHash(ctx.orm, existing.id, await hashPassword(data.password));
    return { id: existing.id, email: existing.email };
  }
  // Hashed before the transaction: scrypt's few hundred ms hold no connection.
  const passwordHash = await hashPassword(data.password);
  if (existing) {
    await unitOfWork(ctx, async ({ em }) => {
      await setPasswordHash(em, existing.id, passwordHash);
      await deleteSessionsOfUser(em, existing.id);
    });
    return { id: existing.id, email: existing.email };
  }
  const id = uuidv7();
  await insertUser(ctx.orm, { id, workspace: ws.id, email, passwordHash });
  return { id, email };
}
