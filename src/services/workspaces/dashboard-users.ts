import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError, validationError } from '../../errors.ts';
import { createUser, createUserInput } from './create-user.ts';
import { type DeleteUserInput, deleteUser } from './delete-user.ts';
import { readUser, readUserByEmail, readUserOrFail, usersOfWorkspace } from './repository.ts';

/** A dashboard login as its workspace's user list shows it (never its password hash). */
export interface DashboardUserDto {
  id: string;
  email: string;
  created_at: string;
}

/** The dashboard's "add user" form: an e-mail and a password (the rules of `svc users create`). */
export const addUserInput = createUserInput.omit({ workspace: true });
export type AddUserInput = z.output<typeof addUserInput>;

/** Every dashboard user of a workspace, oldest first (a workspace has a handful, so no paging). */
export async function listUsers(ctx: AppContext, workspaceId: string): Promise<DashboardUserDto[]> {
  const users = await usersOfWorkspace(ctx.orm, workspaceId);
  return users.map((u) => ({ id: u.id, email: u.email, created_at: u.createdAt.toISOString() }));
}

/**
 * Adds a dashboard user to a workspace. Unlike `svc users create`, an e-mail that already has a
 * login is refused rather than given a new password: one user cannot reset another's password.
 */
export async function addUser(
  ctx: AppContext,
  workspace: { id: string; slug: string },
  data: AddUserInput,
): Promise<DashboardUserDto> {
  const email = data.email.toLowerCase();
  if (await readUserByEmail(ctx.orm, workspace.id, email))
    throw validationError([{ field: 'email', message: 'a user with this e-mail already exists' }]);
  const { id } = await createUser(ctx, { workspace: workspace.slug, email, password: data.password });
  const user = await readUserOrFail(ctx.orm, id);
  return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
}

/** Deletes another dashboard user of the workspace; a user cannot delete their own login. */
export async function removeUser(
  ctx: AppContext,
  actor: { id: string; workspaceId: string },
  data: DeleteUserInput,
): Promise<{ id: string; email: string }> {
  if ('id' in data && data.id === actor.id)
    throw new DomainError(
      'invalid_state',
      'You cannot delete your own login: ask another user of the workspace',
    );
  if ('email' in data) {
    const self = await readUser(ctx.orm, actor.id);
    if (self && self.email === data.email.trim().toLowerCase())
      throw new DomainError(
        'invalid_state',
        'You cannot delete your own login: ask another user of the workspace',
      );
  }
  return deleteUser(ctx, actor.workspaceId, data);
}
