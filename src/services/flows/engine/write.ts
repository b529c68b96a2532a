import type { Sql } from '../../../db/tx.ts';
import { deltaColumns, type ScoreMove } from '../../leaderboards/histogram.ts';
import { postCredits } from '../../ledger/post-credits.ts';
import type { ResultToEmit } from '../../outbox/emit.ts';
import type { BatchPlan } from './evaluate.ts';
import { type PlanWrite, writePlanStatement } from './write.sql.ts';

/**
 * Writes one batch's plan in a fixed number of statements (bench `engine`): ledger credits
 * (postCredits), then results, leaderboard histogram deltas, badges, runs, counts and event
 * statuses (one statement, write.sql.ts), all in the caller's transaction. The unique keys
 * (derived effect keys, one run per event and flow, a badge key+tier once per participant) make a
 * second write of the same plan change nothing.
 */
export async function writePlan(
  sql: Sql,
  plan: BatchPlan,
  finalAttempt: ReadonlySet<string>,
  /** No run of the batch was resumed: no derived ledger key can exist yet (see postCredits' `fresh`). */
  opts: { freshCredits?: boolean } = {},
): Promise<void> {
  // Every result of the batch (points.changed first, then badge.awarded and flow.completed) in one statement.
  const results: ResultToEmit[] = [];
  const moves: ScoreMove[] = [];
  const posted = await postCredits(
    sql,
    plan.credits.map((c) => c.entry),
    results,
    // The tiers mechanic counts the batch's credits (tiers/mechanic.ts).
    { fresh: opts.freshCredits, moves, countTiers: false },
  );
  posted.forEach((p, i) => {
    const result = plan.credits[i]!.step.result!;
    result.entry_id = p.entry.id;
    // A replayed entry (an earlier attempt wrote it) reports what was really credited.
    result.points = p.entry.points;
  });

  results.push(...plan.results);
  const statuses: PlanWrite['statuses'] = [
    ...plan.processed.map((e) => ({ id: e.id, status: 'processed' as const, error: null })),
    ...[...plan.failed]
      .filter(([id]) => finalAttempt.has(id))
      .map(([id, error]) => ({ id, status: 'failed' as const, error })),
  ];
  const deltas = deltaColumns(moves);
  if (!statuses.length && !plan.badges.length && !plan.runs.length && !results.length && !deltas[0].length)
    return;
  await writePlanStatement(sql, plan, { statuses, deltas, results });
}
