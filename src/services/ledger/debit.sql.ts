import { entryColumns } from './repository.ts';

// Raw SQL: a builder of CTEs for a caller whose debit must be part of its own statement (the
// redemption, bench suite `rewards`: one round trip for claim, debit, redemption and results).

/** One debit per row of the caller's relation `from`; each field is a SQL expression over it. */
export interface Debit {
  /** A relation of the caller's statement holding at most one row per participant. */
  from: string;
  workspaceId: string;
  mode: string;
  participantId: string;
  /** The points taken, a positive bigint expression (the entry records its negation). */
  cost: string;
  reason: string;
  reference: string;
}

/** The debit's CTEs and the relation the caller reads the posted entries from. */
export interface DebitCtes {
  /** `<moved> as (…), <entry> as (…)`, for the caller's WITH list. */
  ctes: string;
  /** The entry INSERT's CTE: one row per debit, with the columns of a `RawEntry`. */
  entry: string;
}

/**
 * A redemption's debits as two CTEs: the balance UPDATE and the entry INSERT of `postEntry`,
 * for a caller that folds them into one statement with its other writes. `from` must hold at
 * most one row per participant (an UPDATE … FROM changes a row once however many rows match it).
 * Unlike postEntry the UPDATE is not conditional: the caller must already hold the participant's
 * row lock (FOR NO KEY UPDATE, earlier in the same statement) and have checked the balance it
 * read under that lock. Should it still not cover the debit, the CHECK (balance >= 0) fails the
 * whole statement: a debit is never skipped silently while the caller's other writes go through.
 * Lifetime points do not move (a redemption's never do), no idempotency key, no leaderboard change.
 *
 * Where the points lifecycle (services/points/: lots, expiry) consumes lots, it does so here,
 * from a CTE of its own joined to `<moved>`: every statement that debits through this builder
 * then consumes lots in the same round trip, without the caller knowing about lots.
 */
export function debitCtes(d: Debit, prefix = 'debit'): DebitCtes {
  const [moved, entry] = [`${prefix}_moved`, `${prefix}_entry`];
  const ctes = `${moved} as (
  update participants p set balance = p.balance - (${d.cost}), updated_at = now()
    from ${d.from} where p.id = ${d.participantId}
  returning p.id, p.balance
), ${entry} as (
  insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, reason, source, reference)
  select ${d.workspaceId}, ${d.mode}, ${d.participantId}, -(${d.cost}), ${moved}.balance, ${d.reason}, 'redemption',
         ${d.reference}
    from ${d.from} join ${moved} on ${moved}.id = ${d.participantId}
  returning ${entryColumns()}
)`;
  return { ctes, entry };
}
