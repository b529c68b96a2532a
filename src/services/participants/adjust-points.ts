import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { uniqueViolation, withTransaction } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Scope } from '../keys/principal.ts';
import { postEntry, type RawEntry } from '../ledger/post-entry.ts';
import { type LedgerEntryRow, presentEntry } from '../ledger/presenters.ts';
import { parseInput } from '../validation.ts';
import { ensureParticipant } from './ensure-participant.ts';

// Raw SQL: a ledger posting: the participant locked `for update` and the entry posted with `postEntry` on
// the same pg client (see ledger/post-entry.ts, bench suite `leaderboards`: POST …/points).

/** Far beyond any real balance, and exact as a JavaScript number and a bigint. */
export const MAX_ADJUSTMENT = 1_000_000_000_000;

export const adjustPointsInput = z.strictObject({
  points: z
    .number()
    .int()
    .min(-MAX_ADJUSTMENT)
    .max(MAX_ADJUSTMENT)
    .refine((n) => n !== 0, 'must be a non-zero integer')
    .meta({ description: 'Signed: a credit is positive, a debit negative (never below the balance).' }),
  reason: text(500).trim().min(1),
  idempotency_key: text(LIMITS.idempotencyKeyLength, { min: 1 }).nullish().meta({
    description: 'Makes retries safe (CONTRACT 5); the `Idempotency-Key` header wins over it.',
  }),
});
export type AdjustPointsInput = z.input<typeof adjustPointsInput>;

export interface Adjustment {
  entry: LedgerEntryRow;
  /** A retry with the same key: the original entry, nothing written (answer 200, not 201). */
  replayed: boolean;
}

/**
 * `POST /v1/participants/{external_id}/points` (CONTRACT 5 and 7): a manual credit or debit,
 * creating the participant when unknown. With an idempotency key, a retry returns the original
 * entry and a different request under the same key is a 409. Concurrent duplicates serialize
 * on the participant's row lock, so the second one finds the first's entry and replays it; the
 * ledger's unique index on the key is the backstop if they ever do not.
 */
export async function adjustPoints(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  input: unknown,
  headerKey?: string | null,
): Promise<Adjustment> {
  const body = parseInput(adjustPointsInput, input);
  if (headerKey !== undefined && headerKey !== null)
    parseInput(z.object({ 'Idempotency-Key': adjustPointsInput.shape.idempotency_key.unwrap() }), {
      'Idempotency-Key': headerKey,
    });
  const key = headerKey || body.idempotency_key || null;
  const request = { externalId, points: body.points, reason: body.reason };
  try {
    return await withTransaction(ctx.pool, async (c) => {
      const participant = await ensureParticipant(c, {
        workspaceId: who.workspaceId,
        mode: who.mode,
        externalId,
      });
      if (key) {
        await c.query('select 1 from participants where id = $1 for update', [participant.id]);
        const earlier = await findAdjustment(c, who, key);
        if (earlier) return replay(earlier, request);
      }
      return postEntry(c, {
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
      const earlier = await findAdjustment(ctx.pool, who, key);
      if (earlier) return replay(earlier, request);
    }
    throw err;
  }
}

interface KeyedEntry {
  entry: LedgerEntryRow;
  externalId: string;
}

async function findAdjustment(sql: Sql, who: Scope, key: string): Promise<KeyedEntry | null> {
  const { rows } = await sql.query<RawEntry & { external_id: string }>(
    `select e.id, e.points, e.balance_after, e.reason, e.source, e.reference, e.reverses_entry_id,
            e.idempotency_key, e.created_at, p.external_id
       from ledger_entries e join participants p on p.id = e.participant_id
      where e.workspace_id = $1 and e.mode = $2 and e.idempotency_key = $3`,
    [who.workspaceId, who.mode, key],
  );
  return rows[0] ? { entry: presentEntry(rows[0]), externalId: rows[0].external_id } : null;
}

/** The same key must mean the same request: participant, points and reason. */
function replay(
  earlier: KeyedEntry,
  request: { externalId: string; points: number; reason: string },
): Adjustment {
  const e = earlier.entry;
  if (
    e.source !== 'adjustment' ||
    earlier.externalId !== request.externalId ||
    e.points !== request.points ||
    e.reason !== request.reason
  )
    throw new DomainError(
      'idempotency_conflict',
      'This idempotency key was already used with a different request; use a new key for a new adjustment',
    );
  return { entry: e, replayed: true };
}
