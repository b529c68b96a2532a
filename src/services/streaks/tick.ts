import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Mode } from '../keys/principal.ts';
import { programFrom } from '../points/program.ts';
import { rulesOf } from './definitions.ts';
import { advance, dueAt, PeriodFinder } from './rules.ts';
import { lockDueStreaks, type StateWrite, stateOf, writeStreakStates } from './state.sql.ts';

/** Participants whose due streaks one transaction takes. */
const DUE_PER_BATCH = 1000;

/**
 * One batch of the streak job (docs/engagement.md#when-it-happens): the participants with a
 * streak whose next period ended without an extension, locked in id order like the engine's
 * batches (SKIP LOCKED: one a batch holds is taken next time), each such streak accounted for up
 * to `now`: a freeze per missed period while they last, else broken with `streak.broken`.
 * Answers how many streaks it looked at.
 */
export function accountDueStreaks(
  ctx: Pick<AppContext, 'orm'>,
  now: Date,
  limit = DUE_PER_BATCH,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const rows = await lockDueStreaks(sql, now, limit);
    if (!rows.length) return 0;
    const finder = new PeriodFinder();
    const writes: StateWrite[] = [];
    for (const r of rows) {
      const rules = rulesOf(r);
      const before = stateOf(r);
      const timezone = r.timezone ?? programFrom(r.settings).timezone;
      const w = {
        workspaceId: r.workspace_id,
        mode: r.mode as Mode,
        participantId: Number(r.participant_id),
        externalId: r.external_id,
        streakId: Number(r.streak_id),
        key: r.key,
      };
      // An archived streak is no longer looked at.
      if (r.archived) {
        writes.push({ ...w, state: before, dueAt: null, changes: [] });
        continue;
      }
      const { state, changes } = advance(before, rules, finder.periodOf(now, rules.frequency, timezone));
      writes.push({
        ...w,
        state,
        dueAt: dueAt(state, rules, timezone),
        changes,
      });
    }
    await writeStreakStates(sql, writes);
    return rows.length;
  });
}

/** Every due streak at `now`, batch after batch until one comes back short. */
export async function runStreakTick(ctx: Pick<AppContext, 'orm'>, now = new Date(), stop = () => false) {
  let total = 0;
  for (let n = DUE_PER_BATCH; n >= DUE_PER_BATCH && !stop(); total += n)
    n = await accountDueStreaks(ctx, now);
  return total;
}
