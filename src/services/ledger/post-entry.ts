import type { Sql } from '../../db/tx.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Mode } from '../keys/principal.ts';
import { recordEarnings } from '../leaderboards/record-earnings.ts';
import { emitResult, type ResultToEmit } from '../outbox/emit.ts';
import { applyCreditTerms, creditTerms } from '../points/credit-terms.ts';
import { givenBackExpiry } from '../points/repository.ts';
import { countTierCredits } from '../tiers/count-credits.ts';
import { presentEntry } from './presenters.ts';
import { balanceOf, entryByKey, moveAndPost } from './repository.ts';
import type { LedgerEntryDto, LedgerSource, PointsChangedData } from './shapes.ts';

/** The ledger's SQL row, for readers outside the ledger (exports). */
export type { RawEntry } from './repository.ts';

export interface EntryToPost {
  workspaceId: string;
  mode: Mode;
  participantId: number;
  /** The participant's external id, for the `points.changed` result. */
  externalId: string;
  /** Non-zero; negative for a debit. */
  points: number;
  source: LedgerSource;
  reason?: string | null;
  reference?: string | null;
  reversesEntryId?: number | null;
  /** Caller's key or a derived one (`<event_id>:<flow_id>:<action_index>`); unique per workspace+mode. */
  idempotencyKey?: string | null;
  /** How much `lifetime_points` moves; default: credits from flows and adjustments count, nothing else. */
  lifetimeDelta?: number;
  /**
   * A credit's lot expiry (docs/points.md#lots). Absent: postEntry works it out (the programme's
   * expiry for flow and adjustment credits, the given-back lots' for a reversed debit).
   */
  expiresAt?: Date | null;
  /** Flow awards: the part an earning cap cut. */
  cappedPoints?: number;
}

export interface PostedEntry {
  entry: LedgerEntryDto;
  /** True when an entry with this idempotency key already existed: nothing was written. */
  replayed: boolean;
}

/**
 * The one way points move (docs/guarantees.md#the-ledger-immutable-balance--sum-of-entries).
 * Inside the caller's transaction: a conditional balance UPDATE (never below zero, else 422
 * `insufficient_points`), the immutable entry INSERT, and the `points.changed` result in the
 * outbox. An existing entry with the same idempotency key is returned untouched instead (and a
 * concurrent duplicate fails the unique index, rolling its transaction back), so an effect with a
 * derived key happens once.
 */
export async function postEntry(
  sql: Sql,
  e: EntryToPost,
  /** Given: the `points.changed` result is appended here for the caller to emit with its own, in one statement. */
  results?: ResultToEmit[],
): Promise<PostedEntry> {
  if (!Number.isSafeInteger(e.points) || e.points === 0)
    throw new Error('ledger: points must be a non-zero integer');
  if (e.idempotencyKey) {
    const existing = await entryByKey(sql, e.workspaceId, e.mode, e.idempotencyKey);
    if (existing) return { entry: presentEntry(existing), replayed: true };
  }
  // Earned points: a credit from a flow or an adjustment (lifetime points, expiry terms).
  const earning = e.points > 0 && (e.source === 'flow' || e.source === 'adjustment');
  const lifetime = e.lifetimeDelta ?? (earning ? e.points : 0);
  const terms =
    e.expiresAt !== undefined || !earning
      ? { expiresAt: e.expiresAt ?? null, movesOpenLots: false }
      : await creditTerms(sql, e.workspaceId, e.mode, new Date());
  if (e.expiresAt === undefined && e.points > 0 && e.reversesEntryId)
    terms.expiresAt = await givenBackExpiry(sql, e.reversesEntryId);
  const row = await moveAndPost(sql, {
    workspaceId: e.workspaceId,
    mode: e.mode,
    participantId: e.participantId,
    points: e.points,
    lifetime,
    reason: e.reason ?? null,
    source: e.source,
    reference: e.reference ?? null,
    reversesEntryId: e.reversesEntryId ?? null,
    idempotencyKey: e.idempotencyKey ?? null,
    expiresAt: terms.expiresAt,
    cappedPoints: e.cappedPoints ?? 0,
  });
  if (!row) {
    const balance = await balanceOf(sql, e.participantId);
    if (balance === null) throw notFound('participant');
    throw insufficientPoints(balance, -e.points);
  }
  await applyCreditTerms(sql, e.participantId, terms);
  const entry = presentEntry(row);
  // Weekly/monthly scores, rank histograms and tiers move with lifetime points, in this transaction.
  if (lifetime !== 0) {
    await countTierCredits(sql, [
      {
        workspaceId: e.workspaceId,
        mode: e.mode,
        participantId: e.participantId,
        externalId: e.externalId,
        entryId: entry.id,
        points: lifetime,
        at: new Date(entry.created_at),
        reversesEntryId: e.reversesEntryId ?? null,
      },
    ]);
    await recordEarnings(sql, [
      {
        workspaceId: e.workspaceId,
        mode: e.mode,
        participantId: e.participantId,
        points: lifetime,
        at: new Date(entry.created_at),
      },
    ]);
  }
  const changed = pointsChanged(e, entry);
  if (results) results.push(changed);
  else await emitResult(sql, changed);
  return { entry, replayed: false };
}

/** The `points.changed` result of a posted entry (docs/api.md#webhooks). */
export function pointsChanged(
  e: { workspaceId: string; mode: Mode; externalId: string },
  entry: LedgerEntryDto,
): ResultToEmit {
  const data: PointsChangedData = {
    participant: { external_id: e.externalId },
    entry,
    balance: entry.balance_after,
  };
  return { workspaceId: e.workspaceId, mode: e.mode, type: 'points.changed', data };
}

/** 422 `insufficient_points`, its message stating the balance and the cost (docs/api.md#errors). */
export function insufficientPoints(balance: number, cost: number): DomainError {
  return new DomainError(
    'insufficient_points',
    `Insufficient points: the participant has ${balance} points and this needs ${cost}`,
    { balance, cost_points: cost },
  );
}
