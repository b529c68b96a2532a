import type { Sql } from '../../../db/tx.ts';
import { type BatchPlan, type BatchState, evaluateBatch, type SendMessage } from './evaluate.ts';
import { loadBatch, loadLedgerKeys, lockParticipants } from './load.ts';
import { loadMechanics, writeMechanics } from './mechanics.ts';
import { derivedKey, type EventRow } from './types.ts';
import { writePlan } from './write.ts';

export interface EngineBatchOptions {
  /** Events on their last attempt: a failure is stored (`failed` + error) instead of retried. */
  finalAttempt: ReadonlySet<string>;
  /** No derived ledger key is expected to exist yet (see postCredits' `fresh`). */
  trustFresh: boolean;
  /** Take in the participants' earlier events still `received` in other batches (see loadBatch). */
  pullEarlier: boolean;
  /** A `send_message` step's sender, on the batch's transaction (the engine's: messageSender). */
  sendMessage: SendMessage;
  /**
   * Told the loaded state just before evaluation: the simulation (docs/api.md#simulation) keeps
   * balances and levels as they were before the event.
   */
  onLoaded?: (state: BatchState, events: EventRow[]) => void;
}

/** What one batch evaluated and wrote: its events, the state they left and the plan written. */
export interface EngineBatch {
  events: EventRow[];
  /** Events of `ids` it left `received` behind their participants' earlier ones (load.ts `loadBatch`). */
  deferred: string[];
  state: BatchState;
  plan: BatchPlan;
}

/**
 * One engine batch in the caller's transaction `sql`: lock the participants of `ids`, load,
 * evaluate in event order, write the plan and the mechanics' parts. The one sequence both the
 * event processor (process-events.ts) and the simulation (services/simulate) run, so a
 * simulation is evaluated by the engine's own code; the caller commits (processing) or rolls
 * back (simulation). Null when no participant or event is left to process.
 */
export async function runEngineBatch(
  sql: Sql,
  ids: string[],
  opts: EngineBatchOptions,
): Promise<EngineBatch | null> {
  const participants = await lockParticipants(sql, ids);
  if (!participants.size) return null;
  const { events, flows, runs, multipliers, counts, badges, holdings, runCounts, deferred } = await loadBatch(
    sql,
    ids,
    [...participants.keys()],
    new Date(),
    opts.pullEarlier,
  );
  if (!events.length) return null;
  for (const c of counts)
    participants.get(Number(c.participant_id))?.counts.set(c.event_type, Number(c.count));
  // Only a run an earlier attempt left `failed` can have written ledger entries already.
  const resumed = [...runs.values()].filter((r) => r.status === 'failed');
  const byId = new Map(events.map((e) => [e.id, e]));
  const ledgerKeys = resumed.length
    ? await loadLedgerKeys(
        sql,
        resumed.flatMap((r) => {
          const e = byId.get(r.eventId);
          return e
            ? r.steps.map((_: unknown, i: number) => ({
                workspaceId: e.workspaceId,
                mode: e.mode,
                key: derivedKey(r.eventId, r.flowId, i),
              }))
            : [];
        }),
      )
    : new Set<string>();
  const mechanics = await loadMechanics(sql, { events, participants, flows });

  const state: BatchState = {
    participants,
    flows,
    runs,
    runCounts,
    badges,
    holdings,
    multipliers,
    ledgerKeys,
    finalAttempt: opts.finalAttempt,
    mechanics,
  };
  opts.onLoaded?.(state, events);
  const plan = await evaluateBatch(events, state, opts.sendMessage);
  // No run resumed: no derived ledger key of the batch can exist, so postCredits skips the lookup.
  await writePlan(sql, plan, opts.finalAttempt, { freshCredits: opts.trustFresh && !resumed.length });
  await writeMechanics(sql, mechanics, plan);
  return { events, deferred, state, plan };
}
