import type { AppContext } from '../../context.ts';
import { DomainError, validationError } from '../../errors.ts';
import { parseInput } from '../validation.ts';
import { createUser, createUserInput } from './create-user.ts';
import { deleteUser, deleteUserInput } from './delete-user.ts';
import { User } from './entities.ts';

/** A dashboard login as its workspace's user list shows it (never its password hash). */
export interface DashboardUserDto {
  id: string;
  email: string;
  created_at: string;
}

/** The dashboard's "add user" form: an e-mail and a password (the rules of `svc users create`). */
export const addUserInput = createUserInput.omit({ workspace: true });

/** Every dashboard user of a workspace, oldest first (a workspace has a handful, so no paging). */
export async function listUsers(ctx: AppContext, workspaceId: string): Promise<DashboardUserDto[]> {
  const users = await ctx.orm.em.fork().find(User, { workspace: workspaceId }, { orderBy: { id: 'asc' } });
  return users.map((u) => ({ id: u.id, email: u.email, created_at: u.createdAt.toISOString() }));
}

/**
 * Adds a dashboard user to a workspace. Unlike `svc users create`, an e-mail that already has a
 * login is refused rather than given a new password: one user cannot reset another's password.
 */
export async function addUser(
  ctx: AppContext,
  workspace: { id: string; slug: string },
  input: unknown,
): Promise<DashboardUserDto> {
  const data = parseInput(addUserInput, input);
  const email = data.email.toLowerCase();
  const em = ctx.orm.em.fork();
  if (await em.findOne(User, { workspace: workspace.id, email }))
    throw validationError([{ field: 'email', message: 'a user with this e-mail already exists' }]);
  const { id } = await createUser(ctx, { workspace: workspace.slug, email, password: data.password });
  const user = await em.findOneOrFail(User, { id });
  return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
}

/** Deletes another dashboard user of the workspace; a user cannot delete their own login. */
export async function removeUser(
  ctx: AppContext,
  actor: { id: string; workspaceId: string },
  input: unknown,
): Promise<{ id: string; email: string }> {
  const data = parseInput(deleteUserInput, input);
  if ('id' in data && data.id === actor.id)
    throw new DomainError(
      'invalid_state',
      'You cannot delete your own login: ask another user of the workspace',
    );
  const em = ctx.orm.em.fork();
  if ('email' in data) {
    const self = await em.findOne(User, { id: actor.id });
    if (self && self.email === data.email.trim().toLowerCase())
      throw new DomainError(
        'invalid_state',
        'You cannot delete your own login: ask another user of the workspace',
      );
  }
  return deleteUser(ctx, actor.workspaceId, data);
}
