import type { Sql } from '../../db/tx.ts';
import { Batcher, ItemFailure } from '../../lib/batcher.ts';
import { type RedeemItem, type RedeemOutcome, redeemStatement } from './redeem.sql.ts';

/** Up to this many redemptions share one statement; up to CONCURRENCY statements run at once. */
const MAX_BATCH = 50;
const CONCURRENCY = 6;
const batchers = new WeakMap<Sql, Batcher<RedeemItem, RedeemOutcome>>();

/**
 * Redemptions without an idempotency key that arrive in the same turn of the event loop (or while
 * CONCURRENCY statements are running) share one statement on `pool`: a rush of N redemptions is
 * N/50 round trips, not N. Under light load a batch is one redemption. A participant appears at
 * most once per statement (its balance is checked and debited per row), so a batch holding one
 * participant twice runs as consecutive statements. Should Postgres refuse a shared statement (a
 * deadlock with another multi-row writer, say: nothing of it was written), its redemptions run
 * again one by one, so one can never fail another.
 */
export function batchFor(pool: Sql): Batcher<RedeemItem, RedeemOutcome> {
  let batcher = batchers.get(pool);
  if (!batcher) {
    batcher = new Batcher<RedeemItem, RedeemOutcome>((items) => redeemAll(pool, items), {
      maxBatch: MAX_BATCH,
      concurrency: CONCURRENCY,
    });
    batchers.set(pool, batcher);
  }
  return batcher;
}

/** One batch: a statement per round of distinct participants; one outcome (or failure) per item. */
async function redeemAll(pool: Sql, items: readonly RedeemItem[]): Promise<(RedeemOutcome | ItemFailure)[]> {
  const outcomes: (RedeemOutcome | ItemFailure)[] = new Array(items.length);
  for (const round of distinctParticipants(items)) {
    try {
      const outs = await redeemStatement(
        pool,
        round.map((i) => items[i]!),
        false,
      );
      round.forEach((i, k) => {
        outcomes[i] = outs[k]!;
      });
    } catch (err) {
      // Only a statement Postgres refused is known to have written nothing; after any other
      // failure (a connection lost mid-answer) it may have committed, and running its
      // redemptions again could charge twice.
      if (round.length === 1 || !refusedByPostgres(err))
        for (const i of round) outcomes[i] = new ItemFailure(err);
      else
        for (const i of round)
          outcomes[i] = await redeemStatement(pool, [items[i]!], false).then(
            ([out]) => out!,
            (e: unknown) => new ItemFailure(e),
          );
    }
  }
  return outcomes;
}

/** An error Postgres answered for the statement (SQLSTATE and severity): the statement wrote nothing. */
function refusedByPostgres(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/** Splits items (by index) into rounds in which each participant appears once, keeping their order. */
function distinctParticipants(items: readonly RedeemItem[]): number[][] {
  const rounds: { seen: Set<string>; indexes: number[] }[] = [];
  items.forEach((item, i) => {
    const who = `${item.workspaceId}\u0000${item.mode}\u0000${item.participant}`;
    let round = rounds.find((r) => !r.seen.has(who));
    if (!round) {
      round = { seen: new Set(), indexes: [] };
      rounds.push(round);
    }
    round.seen.add(who);
    round.indexes.push(i);
  });
  return rounds.map((r) => r.indexes);
}
