import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import { ApiKey, Workspace } from '../workspaces/entities.ts';
import type { Mode } from './principal.ts';

// Raw SQL: every authenticated request reads its key (all HTTP bench scenarios), the lookups of one
// tick batched into one `key_hash = any($1)` statement on the raw pool.

/** A live key as authentication reads it, with its workspace's slug. */
export interface KeyRow {
  key_hash: string;
  id: string;
  workspace_id: string;
  slug: string;
  mode: Mode;
  abilities: string[];
}

/** The live (unrevoked) keys with these hashes. */
export async function liveKeysByHash(sql: Sql, hashes: string[]): Promise<KeyRow[]> {
  const { rows } = await sql.query<KeyRow>(
    `select k.key_hash, k.id, k.workspace_id, w.slug, k.mode, k.abilities
             from api_keys k join workspaces w on w.id = k.workspace_id
            where k.key_hash = any($1::text[]) and k.revoked_at is null`,
    [hashes],
  );
  return rows;
}

/** Which of these key ids are live (exist and are not revoked). */
export async function liveKeyIds(sql: Sql, ids: string[]): Promise<Set<string>> {
  const { rows } = await sql.query<{ id: string }>(
    'select id from api_keys where id = any($1::uuid[]) and revoked_at is null',
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}

/** A workspace by id (a UUID) or slug, in the caller's unit of work. */
export function workspaceByRef(em: EntityManager, ref: { id: string } | { slug: string }) {
  return em.findOne(Workspace, ref);
}

/** A workspace by id or slug, for a read. */
export function readWorkspace(orm: MikroORM, ref: { id: string } | { slug: string }) {
  return workspaceByRef(orm.em.fork(), ref);
}

/** Every key of a workspace, newest first. */
export function keysOfWorkspace(orm: MikroORM, workspace: Workspace) {
  return orm.em.fork().find(ApiKey, { workspace }, { orderBy: { id: 'desc' } });
}

/** A key by id (within a workspace, when given), locked FOR UPDATE when `lock` is set. */
export function keyById(em: EntityManager, id: string, scope?: { workspaceId: string }, lock = false) {
  return em.findOne(
    ApiKey,
    { id, ...(scope && { workspace: scope.workspaceId }) },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
}
