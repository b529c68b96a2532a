import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { FlowRow } from '../flows/engine/types.ts';
import { programOf } from '../points/program.ts';
import { dateOf, instantOf, subtractDuration } from '../points/rules.ts';
import { type InactivityFlow, runSpells } from './run-spells.ts';
import { INACTIVITY, inactivityTrigger } from './shapes.ts';
import { dueParticipants, type InactivityFlowRow, inactivityFlows } from './spells.sql.ts';

/** Participants one transaction of the inactivity job looks at (and locks). */
const PER_BATCH = 500;

type Ctx = Pick<AppContext, 'orm'> & Partial<Pick<AppContext, 'boss'>>;

/** A stored flow as the job runs it; null when its trigger is not one (never saved so). */
function asInactivityFlow(r: InactivityFlowRow): InactivityFlow | null {
  const trigger = inactivityTrigger.safeParse(r.trigger);
  if (!trigger.success) return null;
  const flow: FlowRow = {
    id: r.id,
    workspaceId: r.workspace_id,
    mode: r.mode,
    name: r.name,
    eventType: INACTIVITY,
    conditions: r.conditions,
    actions: r.actions,
    maxRuns: r.max_runs_per_participant,
  };
  return { flow, trigger: trigger.data };
}

/**
 * Runs one inactivity flow for every participant whose idle spell is due at `now`
 * (docs/engagement.md#inactivity): pages of PER_BATCH due participants in id order, each page
 * found and run in one transaction. Answers how many runs took steps.
 */
async function runDueSpells(ctx: Ctx, f: InactivityFlow, now: Date, stop: () => boolean): Promise<number> {
  const { flow, trigger } = f;
  let after = 0;
  let ran = 0;
  for (;;) {
    const page = await unitOfWork(ctx, async ({ sql }) => {
      const { timezone } = await programOf(sql, flow.workspaceId, flow.mode);
      const cutoff = dateOf(subtractDuration(instantOf(now), trigger.after, timezone));
      const query = {
        flowId: flow.id,
        workspaceId: flow.workspaceId,
        mode: flow.mode,
        types: trigger.event_types ?? null,
        cutoff,
      };
      const ids = await dueParticipants(sql, query, after, PER_BATCH);
      if (!ids.length) return null;
      const n = await runSpells(sql, f, ids, { now, cutoff, timezone }, ctx.boss);
      return { last: ids.at(-1)!, full: ids.length === PER_BATCH, ran: n };
    });
    if (!page) return ran;
    ran += page.ran;
    // The cursor moves past participants skipped as locked or not run: the next tick sees them.
    after = page.last;
    if (!page.full || stop()) return ran;
  }
}

/**
 * The inactivity job (docs/engagement.md#inactivity), run by the loyalty tick: every active
 * inactivity flow runs once for each participant idle for its `after`, once per idle spell. A
 * flow that fails leaves the others to run; the first failure is thrown once all had their turn
 * (the next tick tries again). Answers how many runs took steps.
 */
export async function runInactivityTick(ctx: Ctx, now = new Date(), stop = () => false): Promise<number> {
  const rows = await unitOfWork(ctx, ({ sql }) => inactivityFlows(sql));
  let ran = 0;
  let failure: unknown = null;
  for (const row of rows) {
    const f = asInactivityFlow(row);
    if (!f || stop()) continue;
    try {
      ran += await runDueSpells(ctx, f, now, stop);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return ran;
}
