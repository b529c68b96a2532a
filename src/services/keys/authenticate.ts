import type { Sql } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import { Batcher } from '../../lib/batcher.ts';
import { type Ability, hasAbility } from './abilities.ts';
import { hashKey, keyMode } from './key-format.ts';
import { isParticipantToken, type ParticipantClaims, verifyParticipantToken } from './participant-token.ts';
import type { Mode, Principal } from './principal.ts';
import { type KeyRow, liveKeyIds, liveKeysByHash } from './repository.ts';

/** Keys whose row this process has read, for `authenticateDeferred` (beyond it, the oldest go). */
const MAX_REMEMBERED = 10_000;

/**
 * Resolves bearer keys to principals. `authenticate` reads the key row on every request, so a
 * revoked key fails on its very next request in every process; lookups made in the same tick
 * share one indexed query. `authenticateDeferred` (ingest only) answers from the rows this process
 * has read before and leaves the "still live?" check to the write itself, which refuses the
 * request in the same statement (EventWriter): the same guarantee without a round trip of its own.
 */
export class KeyAuthenticator {
  private readonly lookups: Batcher<string, KeyRow | undefined>;
  private readonly liveKeys: Batcher<string, boolean>;
  private readonly secret: string;
  /** key hash → its row as last read (key rows never change except `revoked_at`). */
  private readonly remembered = new Map<string, KeyRow>();

  /** `pool`: the raw pool (every lookup is one statement outside any transaction). */
  constructor(pool: Sql, secret: string) {
    this.secret = secret;
    this.liveKeys = new Batcher(
      async (ids) => {
        const live = await liveKeyIds(pool, [...new Set(ids)]);
        return ids.map((id) => live.has(id));
      },
      { maxBatch: 500, concurrency: 4 },
    );
    this.lookups = new Batcher(
      async (hashes) => {
        const rows = await liveKeysByHash(pool, [...new Set(hashes)]);
        const byHash = new Map(rows.map((r) => [r.key_hash, r]));
        return hashes.map((h) => byHash.get(h));
      },
      { maxBatch: 500, concurrency: 4 },
    );
  }

  /** 401 for a missing, malformed, unknown or revoked key; 403 when it lacks `ability`. */
  async authenticate(authorization: string | undefined, ability?: Ability): Promise<Principal> {
    const { hash, mode } = parseBearer(authorization);
    const row = await this.lookups.submit(hash);
    if (!row || row.mode !== mode) {
      this.remembered.delete(hash);
      throw new DomainError('authentication_error', 'Invalid API key: unknown or revoked');
    }
    this.remember(hash, row);
    return principalOf(row, mode, ability);
  }

  /**
   * Like `authenticate`, but a key this process has read before is not read again: the principal
   * comes back with `keyCheckPending`, and the caller must have its write check the key (or call
   * `authenticate` before answering anything else: see `settleDeferredKey`).
   */
  async authenticateDeferred(authorization: string | undefined, ability?: Ability): Promise<Principal> {
    const { hash, mode } = parseBearer(authorization);
    const row = this.remembered.get(hash);
    // A refusal is only ever given from a fresh read (a revoked key answers 401, not 403).
    if (!row || row.mode !== mode || (ability && !hasAbility(row.abilities, ability)))
      return this.authenticate(authorization, ability);
    return { ...principalOf(row, mode), keyCheckPending: true };
  }

  /**
   * A participant token (docs/live-updates.md#participant-tokens): its signature and expiry checked in memory, then one read
   * that the key which minted it is still live, so revoking or rotating that key ends the token
   * on its very next request. 401 for anything else.
   */
  async authenticateParticipant(authorization: string | undefined): Promise<ParticipantClaims> {
    const token = bearerToken(authorization);
    if (!token) throw new DomainError('authentication_error', 'No participant token provided');
    const claims = verifyParticipantToken(this.secret, token);
    await this.requireLiveKey(claims.keyId);
    return claims;
  }

  /**
   * An API key or a participant token, whichever the bearer is: the id of the key behind it, and
   * the token's expiry (unix seconds; null for a key). 401 for anything else.
   */
  async authenticateCaller(
    authorization: string | undefined,
  ): Promise<{ keyId: string; expiresAt: number | null }> {
    if (isParticipantBearer(authorization)) {
      const claims = await this.authenticateParticipant(authorization);
      return { keyId: claims.keyId, expiresAt: claims.expiresAt };
    }
    return { keyId: (await this.authenticate(authorization)).keyId, expiresAt: null };
  }

  /** 401 unless the key with this id exists and is not revoked (an open socket's periodic check). */
  async requireLiveKey(keyId: string): Promise<void> {
    if (!(await this.liveKeys.submit(keyId)))
      throw new DomainError('authentication_error', 'The API key behind this token was revoked or rotated');
  }

  private remember(hash: string, row: KeyRow): void {
    if (this.remembered.has(hash)) return;
    if (this.remembered.size >= MAX_REMEMBERED)
      this.remembered.delete(this.remembered.keys().next().value as string);
    this.remembered.set(hash, row);
  }
}

/** The credential of an `Authorization: Bearer <credential>` header, if it has that form. */
const bearerToken = (authorization: string | undefined) =>
  /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/** Whether the bearer is a participant token (told by its prefix, without a lookup). */
export const isParticipantBearer = (authorization: string | undefined) =>
  isParticipantToken(bearerToken(authorization) ?? '');

function parseBearer(authorization: string | undefined): { hash: string; mode: Mode } {
  const token = bearerToken(authorization);
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
  return { hash: hashKey(token), mode };
}

function principalOf(row: KeyRow, mode: Mode, ability?: Ability): Principal {
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

/** 403 `permission_error` unless the principal holds `ability`. */
export function requireAbility(principal: Principal, ability: Ability): void {
  if (!hasAbility(principal.abilities, ability)) {
    throw new DomainError('permission_error', `This key lacks the '${ability}' ability`, {
      required_ability: ability,
    });
  }
}
