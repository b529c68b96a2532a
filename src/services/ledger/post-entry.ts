import type { Sql } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import type { Mode } from '../keys/principal.ts';
import { recordEarnings } from '../leaderboards/record-earnings.ts';
import { emitResult, type ResultToEmit } from '../outbox/emit.ts';
import { type LedgerEntryRow, presentEntry } from './presenters.ts';

export type LedgerSource = 'flow' | 'adjustment' | 'redemption' | 'reversal';

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
}

export interface PostedEntry {
  entry: LedgerEntryRow;
  /** True when an entry with this idempotency key already existed: nothing was written. */
  replayed: boolean;
}

const ENTRY_COLUMNS = `id, points, balance_after, reason, source, reference, reverses_entry_id,
  idempotency_key, created_at`;

/**
 * The one way points move. Inside the caller's transaction: a conditional balance UPDATE (never
 * below zero, else 422 `insufficient_points`), the immutable entry INSERT, and the
 * `points.changed` result in the outbox. An existing entry with the same idempotency key is
 * returned untouched instead (and a concurrent duplicate fails the unique index, rolling its
 * transaction back), so an effect with a derived key happens once.
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
    const existing = await findByKey(sql, e.workspaceId, e.mode, e.idempotencyKey);
    if (existing) return { entry: existing, replayed: true };
  }
  const lifetime =
    e.lifetimeDelta ?? (e.points > 0 && (e.source === 'flow' || e.source === 'adjustment') ? e.points : 0);
  // The conditional balance UPDATE and the entry INSERT in one statement (one round trip; bench
  // `rewards`): no row means the balance did not cover the debit (or the participant is gone).
  const { rows } = await sql.query<RawEntry>(
    `with moved as (
       update participants
          set balance = balance + $4, lifetime_points = greatest(lifetime_points + $10, 0), updated_at = now()
        where id = $3 and balance + $4 >= 0
        returning balance)
     insert into ledger_entries
       (workspace_id, mode, participant_id, points, balance_after, reason, source, reference,
        reverses_entry_id, idempotency_key)
     select $1, $2, $3, $4, moved.balance, $5, $6, $7, $8, $9 from moved
     returning ${ENTRY_COLUMNS}`,
    [
      e.workspaceId,
      e.mode,
      e.participantId,
      e.points,
      e.reason ?? null,
      e.source,
      e.reference ?? null,
      e.reversesEntryId ?? null,
      e.idempotencyKey ?? null,
      lifetime,
    ],
  );
  if (!rows[0]) {
    const { rows: current } = await sql.query<{ balance: string }>(
      `select balance from participants where id = $1`,
      [e.participantId],
    );
    if (!current[0]) throw new DomainError('not_found', 'participant not found');
    throw insufficientPoints(Number(current[0].balance), -e.points);
  }
  const entry = presentEntry(rows[0]!);
  // Weekly/monthly scores and rank histograms move with lifetime points, in this transaction.
  if (lifetime !== 0)
    await recordEarnings(sql, [
      {
        workspaceId: e.workspaceId,
        mode: e.mode,
        participantId: e.participantId,
        points: lifetime,
        at: new Date(entry.created_at),
      },
    ]);
  const changed: ResultToEmit = {
    workspaceId: e.workspaceId,
    mode: e.mode,
    type: 'points.changed',
    data: { participant: { external_id: e.externalId }, entry, balance: entry.balance_after },
  };
  if (results) results.push(changed);
  else await emitResult(sql, changed);
  return { entry, replayed: false };
}

/** 422 `insufficient_points`, its message stating the balance and the cost (SPEC 7, CONTRACT 3). */
export function insufficientPoints(balance: number, cost: number): DomainError {
  return new DomainError(
    'insufficient_points',
    `Insufficient points: the participant has ${balance} points and this needs ${cost}`,
    { balance, cost_points: cost },
  );
}

export interface RawEntry {
  id: string;
  points: string;
  balance_after: string;
  reason: string | null;
  source: string;
  reference: string | null;
  reverses_entry_id: string | null;
  idempotency_key: string | null;
  created_at: Date;
}

export async function findByKey(
  sql: Sql,
  workspaceId: string,
  mode: Mode,
  key: string,
): Promise<LedgerEntryRow | null> {
  const { rows } = await sql.query<RawEntry>(
    `select ${ENTRY_COLUMNS} from ledger_entries
      where workspace_id = $1 and mode = $2 and idempotency_key = $3`,
    [workspaceId, mode, key],
  );
  return rows[0] ? presentEntry(rows[0]) : null;
}

export interface DebitCtes {
  /** A relation of the caller's statement, one row per debit and participant; the expressions below read it. */
  from: string;
  workspaceId: string;
  mode: string;
  participantId: string;
  /** The points taken, a positive bigint expression (the entry records its negation). */
  cost: string;
  reason: string;
  source: Extract<LedgerSource, 'redemption'>;
  reference: string;
  /** CTE names: the balance UPDATE (returns `balance`) and the entry INSERT (returns the entry columns). */
  moved: string;
  entry: string;
}

/**
 * Debits as two CTEs, for a caller that folds them into one statement with its other writes
 * (redemptions claim their units, debit, insert their rows and emit their results in one round
 * trip). `<moved>` is {@link postEntry}'s balance UPDATE (returning `id, balance`) and `<entry>`
 * its entry INSERT, returning the columns `entryJsonSql` and `presentEntry` read. `from` must hold
 * at most one row per participant (an UPDATE … FROM changes a row once however many rows match
 * it). Unlike postEntry the UPDATE is not
 * conditional: the caller must already hold the participant's row lock (FOR NO KEY UPDATE, earlier
 * in the same statement) and have checked the balance it read under that lock. Should it still
 * not cover the debit, the CHECK (balance >= 0) fails the whole statement: a debit is never
 * skipped silently while the caller's other writes go through. Lifetime points do not move (a
 * redemption's, as in postEntry), no idempotency key, no leaderboard change.
 */
export function debitCtes(d: DebitCtes): string {
  return `${d.moved} as (
  update participants p set balance = p.balance - (${d.cost}), updated_at = now()
    from ${d.from} where p.id = ${d.participantId}
  returning p.id, p.balance
), ${d.entry} as (
  insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, reason, source, reference)
  select ${d.workspaceId}, ${d.mode}, ${d.participantId}, -(${d.cost}), ${d.moved}.balance, ${d.reason}, '${d.source}',
         ${d.reference}
    from ${d.from} join ${d.moved} on ${d.moved}.id = ${d.participantId}
  returning ${ENTRY_COLUMNS}
)`;
}
