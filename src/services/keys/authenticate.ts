import type pg from 'pg';
import type { Mode, Principal } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { Batcher } from '../../lib/batcher.ts';
import { type Ability, hasAbility } from './abilities.ts';
import { hashKey, keyMode } from './key-format.ts';

interface KeyRow {
  key_hash: string;
  id: string;
  workspace_id: string;
  slug: string;
  mode: Mode;
  abilities: string[];
}

/**
 * Resolves bearer keys to principals. Nothing is cached: every request reads the key row, so a
 * revoked key fails on its very next request in every process. Lookups made in the same tick
 * share one indexed query (bench `POST /v1/events`: one round trip per batch, not per request).
 */
export class KeyAuthenticator {
  private readonly lookups: Batcher<string, KeyRow | undefined>;

  constructor(pool: pg.Pool) {
    this.lookups = new Batcher(
      async (hashes) => {
        const { rows } = await pool.query<KeyRow>(
          `select k.key_hash, k.id, k.workspace_id, w.slug, k.mode, k.abilities
             from api_keys k join workspaces w on w.id = k.workspace_id
            where k.key_hash = any($1::text[]) and k.revoked_at is null`,
          [[...new Set(hashes)]],
        );
        const byHash = new Map(rows.map((r) => [r.key_hash, r]));
        return hashes.map((h) => byHash.get(h));
      },
      { maxBatch: 500, concurrency: 4 },
    );
  }

  /** 401 for a missing, malformed, unknown or revoked key; 403 when it lacks `ability`. */
  async authenticate(authorization: string | undefined, ability?: Ability): Promise<Principal> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token)
      throw new DomainError(
        'authentication_error',
        'No API key provided: send Authorization: Bearer <API_KEY>',
      );
    const mode = keyMode(token);
    if (!mode)
      throw new DomainError(
        'authentication_error',
        'Invalid API key: expected svc_live_… or svc_test_… followed by 40 characters',
      );
    const row = await this.lookups.submit(hashKey(token));
    if (!row || row.mode !== mode)
      throw new DomainError('authentication_error', 'Invalid API key: unknown or revoked');
    const principal: Principal = {
      workspaceId: row.workspace_id,
      workspaceSlug: row.slug,
      mode,
      keyId: row.id,
      abilities: row.abilities,
    };
    if (ability) requireAbility(principal, ability);
    return principal;
  }
}

export function requireAbility(principal: Principal, ability: Ability): void {
  if (!hasAbility(principal.abilities, ability)) {
    throw new DomainError('permission_error', `This key lacks the '${ability}' ability`, {
      required_ability: ability,
    });
  }
}
