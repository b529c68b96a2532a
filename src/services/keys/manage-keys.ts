import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { ApiKey } from '../workspaces/entities.ts';
import { ABILITIES } from './abilities.ts';
import { mintKey } from './key-format.ts';
import { type Mode, modeShape } from './principal.ts';
import { keyById, keysOfWorkspace, readWorkspace, workspaceByRef } from './repository.ts';
import type { ApiKeyDto } from './shapes.ts';

export type { ApiKeyDto } from './shapes.ts';

export const createKeyInput = z.strictObject({
  workspace: z.string().min(1),
  mode: modeShape,
  abilities: z.array(z.enum(['*', ...ABILITIES])).default([]),
  name: z.string().max(200).optional(),
});
export type CreateKeyInput = z.output<typeof createKeyInput>;

/** A key as the dashboard and the CLI list it (never its plaintext). */
export const presentKey = (k: ApiKey): ApiKeyDto => ({
  id: k.id,
  mode: k.mode as Mode,
  abilities: k.abilities,
  name: k.name ?? null,
  hint: k.hint,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt?.toISOString() ?? null,
});

/** A workspace named by slug or id. */
const workspaceRef = (ref: string) => (isUuid(ref) ? { id: ref } : { slug: ref });

/** Mints a key for a workspace (by slug or id); an empty ability list means `*`. The plaintext is returned once. */
export function issueKey(ctx: AppContext, data: CreateKeyInput): Promise<ApiKeyDto & { key: string }> {
  return unitOfWork(ctx, async ({ em }) => {
    const ws = await workspaceByRef(em, workspaceRef(data.workspace));
    if (!ws) throw notFound(`workspace '${data.workspace}'`);
    const abilities =
      data.abilities.length === 0 || data.abilities.includes('*') ? ['*'] : [...new Set(data.abilities)];
    const minted = mintKey(data.mode);
    const key = em.create(ApiKey, {
      id: uuidv7(),
      workspace: ws,
      mode: data.mode,
      name: data.name ?? null,
      keyHash: minted.hash,
      hint: minted.hint,
      abilities,
    });
    await em.flush();
    return { ...presentKey(key), key: minted.plaintext };
  });
}

/** Issues a fresh key with the same workspace, mode and abilities and revokes the old one in the same transaction. */
export async function rotateKey(
  ctx: AppContext,
  id: string,
  scope?: { workspaceId: string },
): Promise<ApiKeyDto & { key: string; revoked_id: string }> {
  if (!isUuid(id)) throw notFound('api key');
  return unitOfWork(ctx, async ({ em }) => {
    // FOR UPDATE (not SKIP LOCKED): a concurrent rotation waits, then sees the key revoked.
    const old = await keyById(em, id, scope, true);
    if (!old) throw notFound('api key');
    if (old.revokedAt) throw new DomainError('invalid_state', 'this key is already revoked');
    const minted = mintKey(old.mode as Mode);
    const fresh = em.create(ApiKey, {
      id: uuidv7(),
      workspace: old.workspace,
      mode: old.mode,
      name: old.name,
      keyHash: minted.hash,
      hint: minted.hint,
      abilities: old.abilities,
    });
    old.revokedAt = new Date();
    old.replacedBy = fresh.id;
    await em.flush();
    return { ...presentKey(fresh), key: minted.plaintext, revoked_id: old.id };
  });
}

/** Revokes a key; it fails on its very next request (lookups are never cached). */
export async function revokeKey(
  ctx: AppContext,
  id: string,
  scope?: { workspaceId: string },
): Promise<{ id: string; revoked: true }> {
  if (!isUuid(id)) throw notFound('api key');
  return unitOfWork(ctx, async ({ em }) => {
    const key = await keyById(em, id, scope);
    if (!key) throw notFound('api key');
    key.revokedAt ??= new Date();
    return { id: key.id, revoked: true };
  });
}

/** Every key of a workspace (by slug or id), both modes, revoked ones too, newest first; never a plaintext. */
export async function listKeys(ctx: AppContext, workspace: string): Promise<ApiKeyDto[]> {
  const ws = await readWorkspace(ctx.orm, workspaceRef(workspace));
  if (!ws) throw notFound(`workspace '${workspace}'`);
  return (await keysOfWorkspace(ctx.orm, ws)).map(presentKey);
}

/** Whether `s` is a UUID (a key id must be, before it reaches the uuid column). */
export const isUuid = (s: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
