import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DashboardSession, User, Workspace } from './entities.ts';

/**
 * The queries of workspaces, dashboard users and their sessions: cold paths (the CLI, sign-in, the
 * dashboard's settings), so MikroORM throughout. Functions taking `em` run in the caller's unit of
 * work; those taking `orm` fork their own EntityManager for one read or one statement.
 */

/** Inserts the workspace unless one with its slug exists; the existing row is left as it is. */
export async function insertWorkspaceUnlessSlugTaken(
  em: EntityManager,
  row: { id: string; slug: string; name: string },
): Promise<void> {
  // `insert … on conflict (slug) do nothing`: two concurrent `svc workspace create` of one slug
  // both succeed and make one row.
  await em.createQueryBuilder(Workspace).insert(row).onConflict('slug').ignore().execute();
}

/** The workspace with this slug, in the caller's unit of work (it must exist). */
export function workspaceBySlugOrFail(em: EntityManager, slug: string) {
  return em.findOneOrFail(Workspace, { slug });
}

/** The workspace with this slug, for a read. */
export function readWorkspaceBySlug(orm: MikroORM, slug: string) {
  return orm.em.fork().findOne(Workspace, { slug });
}

/** A workspace's user with this e-mail (already lowercased), for a read. */
export function readUserByEmail(orm: MikroORM, workspaceId: string, email: string) {
  return orm.em.fork().findOne(User, { workspace: workspaceId, email });
}

/** A user by id, for a read. */
export function readUser(orm: MikroORM, id: string) {
  return orm.em.fork().findOne(User, { id });
}

/** A user by id, for a read right after its creation (it must exist). */
export function readUserOrFail(orm: MikroORM, id: string) {
  return orm.em.fork().findOneOrFail(User, { id });
}

/** Every user of a workspace, oldest first. */
export function usersOfWorkspace(orm: MikroORM, workspaceId: string) {
  return orm.em.fork().find(User, { workspace: workspaceId }, { orderBy: { id: 'asc' } });
}

/** A workspace's user named by id or by e-mail (already lowercased), in the caller's unit of work. */
export function userOfWorkspace(
  em: EntityManager,
  workspaceId: string,
  who: { id: string } | { email: string },
) {
  return em.findOne(User, { ...who, workspace: workspaceId });
}

/** Inserts a user row (its `created_at` is the database's `now()`). */
export async function insertUser(
  orm: MikroORM,
  row: { id: string; workspace: string; email: string; passwordHash: string },
): Promise<void> {
  await orm.em.fork().insert(User, row);
}

/** Sets a user's password hash, in the caller's unit of work. */
export async function setPasswordHash(
  em: EntityManager,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await em.nativeUpdate(User, { id: userId }, { passwordHash });
}

/** Sets a user's password hash in a statement of its own (a rehash of the same password). */
export function savePasswordHash(orm: MikroORM, userId: string, passwordHash: string): Promise<void> {
  return setPasswordHash(orm.em.fork(), userId, passwordHash);
}

/** Deletes a user row (its sessions cascade), in the caller's unit of work. */
export async function deleteUserRow(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(User, { id: userId });
}

/** Inserts a session row, in the caller's unit of work. */
export async function insertSession(
  em: EntityManager,
  row: { id: string; tokenHash: string; user: string; expiresAt: Date },
): Promise<void> {
  await em.insert(DashboardSession, row);
}

/** Deletes every session expired at `now`, in the caller's unit of work. */
export function deleteExpiredSessions(em: EntityManager, now: Date): Promise<number> {
  return em.nativeDelete(DashboardSession, { expiresAt: { $lte: now } });
}

/**
 * The live session with this token hash, with its user and the user's workspace: one query, the
 * unique token-hash index joined to both.
 */
export function readLiveSession(orm: MikroORM, tokenHash: string, now: Date) {
  return orm.em
    .fork()
    .findOne(
      DashboardSession,
      { tokenHash, expiresAt: { $gt: now } },
      { populate: ['user.workspace'], strategy: 'joined' },
    );
}

/** Deletes the session with this token hash; how many it deleted (0 or 1). */
export function deleteSessionByTokenHash(orm: MikroORM, tokenHash: string): Promise<number> {
  return orm.em.fork().nativeDelete(DashboardSession, { tokenHash });
}

/** Deletes every session of a user, in the caller's unit of work; how many. */
export function deleteSessionsOfUser(em: EntityManager, userId: string): Promise<number> {
  return em.nativeDelete(DashboardSession, { user: userId });
}

/** Deletes every session of a user in a statement of its own; how many. */
export function endSessionsOfUser(orm: MikroORM, userId: string): Promise<number> {
  return deleteSessionsOfUser(orm.em.fork(), userId);
}
