import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Scope } from '../keys/principal.ts';
import { postEntry } from '../ledger/post-entry.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { entryByKey, type OwnedEntry } from '../ledger/repository.ts';
import type { LedgerEntryDto } from '../ledger/shapes.ts';
import { parseInput } from '../validation.ts';
import { ensureParticipant } from './ensure-participant.ts';
import { lockParticipantNamed } from './repository.ts';

/** Far beyond any real balance, and exact as a JavaScript number and a bigint. */
export const MAX_ADJUSTMENT = 1_000_000_000_000;

const idempotencyKey = text(LIMITS.idempotencyKeyLength, { min: 1 });

export const adjustPointsInput = z.strictObject({
  points: z
    .number()
    .int()
    .min(-MAX_ADJUSTMENT)
    .max(MAX_ADJUSTMENT)
    .refine((n) => n !== 0, 'must be a non-zero integer')
    .meta({ description: 'Signed: a credit is positive, a debit negative (never below the balance).' }),
  reason: text(500).trim().min(1),
  idempotency_key: idempotencyKey.nullish().meta({
    description: 'Makes retries safe (docs/api.md#idempotency); the `Idempotency-Key` header wins over it.',
  }),
});
export type AdjustPointsInput = z.output<typeof adjustPointsInput>;

const keyHeader = z.object({ 'Idempotency-Key': idempotencyKey });

export interface Adjustment {
  entry: LedgerEntryDto;
  /** A retry with the same key: the original entry, nothing written (answer 200, not 201). */
  replayed: boolean;
}

/**
 * `POST /v1/participants/{external_id}/points` (docs/guarantees.md#the-ledger-immutable-balance--sum-of-entries):
 * a manual credit or debit, creating the participant when unknown. With an idempotency key, a
 * retry returns the original entry and a different request under the same key is a 409.
 * Concurrent duplicates serialize on the participant's row lock, so the second one finds the
 * first's entry and replays it; the ledger's unique index on the key is the backstop if they ever do not.
 */
export async function adjustPoints(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  body: AdjustPointsInput,
  headerKey?: string | null,
): Promise<Adjustment> {
  // The header is not part of the validated body: checked here, as the body's key is.
  if (headerKey != null) parseInput(keyHeader, { 'Idempotency-Key': headerKey });
  const key = headerKey || body.idempotency_key || null;
  const request = { externalId, points: body.points, reason: body.reason };
  try {
    return await unitOfWork(ctx, async ({ sql }) => {
      const scope = { workspaceId: who.workspaceId, mode: who.mode, externalId };
      let participant = await ensureParticipant(sql, scope);
      // Under the lock the row must still be theirs: an erasure that committed meanwhile gave it a
      // pseudonym, and the adjustment (and its results) goes to a fresh participant, as an event's
      // would (docs/api.md#participants-points-and-leaderboards).
      if (!(await lockParticipantNamed(sql, participant.id, externalId))) {
        participant = await ensureParticipant(sql, scope);
        await lockParticipantNamed(sql, participant.id, externalId);
      }
      if (key) {
        const earlier = await entryByKey(sql, who.workspaceId, who.mode, key);
        if (earlier) return replay(earlier, request);
      }
      return postEntry(sql, {
        workspaceId: who.workspaceId,
        mode: who.mode,
        participantId: participant.id,
        externalId,
        points: body.points,
        source: 'adjustment',
        reason: body.reason,
        idempotencyKey: key,
      });
    });
  } catch (err) {
    if (key && uniqueViolation(err) === 'ledger_entries_idempotency_key_unique') {
      const earlier = await entryByKey(ctx.pool, who.workspaceId, who.mode, key);
      if (earlier) return replay(earlier, request);
    }
    throw err;
  }
}

/** The same key must mean the same request: participant, points and reason. */
function replay(
  earlier: OwnedEntry,
  request: { externalId: string; points: number; reason: string },
): Adjustment {
  const e = presentEntry(earlier);
  if (
    e.source !== 'adjustment' ||
    earlier.external_id !== request.externalId ||
    e.points !== request.points ||
    e.reason !== request.reason
  )
    throw new DomainError(
      'idempotency_conflict',
      'This idempotency key was already used with a different request; use a new key for a new adjustment',
    );
  return { entry: e, replayed: true };
}
