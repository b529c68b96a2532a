import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { dateOf, instantOf, subtractDuration } from '../points/rules.ts';
import { rulesFrom } from './programme.ts';
import { type LockedStanding, programmesToRun, standingsByIds, tierProgramRow } from './repository.ts';
import {
  leave,
  leaveProgramme,
  leavesWindow,
  type Outcome,
  Periods,
  type Rules,
  reprogramme,
  review,
  type Standing,
} from './rules.ts';
import { noWrites, standingOf, type TierWrites, writeStandings } from './standing.sql.ts';
import {
  advanceWalk,
  dropWindowCredits,
  lockDueReviews,
  lockLeavingOwners,
  lockStalePeriods,
  lockWalk,
  lockWalkBatch,
  qualifyingCreditsSince,
  takeOutLeaving,
} from './tick.sql.ts';

/** Participants one transaction of the tier job locks. */
const PER_BATCH = 2000;

type Ctx = Pick<AppContext, 'orm'>;
const scopeOf = (x: { workspace_id: string; mode: string }) => `${x.workspace_id}/${x.mode}`;
const same = (a: Standing, b: Standing) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies `decide` to each locked participant's standing and writes what changed, with the moves'
 * history and `tier.changed`, in one statement.
 */
async function decideAll(
  sql: Sql,
  rows: LockedStanding[],
  decide: (s: Standing, row: LockedStanding) => Outcome | null,
  writes: TierWrites = noWrites(),
): Promise<void> {
  for (const row of rows) {
    const before = standingOf(row);
    const out = decide(before, row);
    if (!out) continue;
    if (out.move)
      writes.moves.push({
        workspaceId: row.workspace_id,
        mode: row.mode,
        participantId: Number(row.id),
        externalId: row.external_id,
        move: out.move,
      });
    if (out.move || !same(before, out.standing))
      writes.standings.push({ participantId: Number(row.id), standing: out.standing });
  }
  await writeStandings(sql, writes);
}

/** The programmes the job works for, keyed `workspace/mode`. */
interface Programme {
  workspaceId: string;
  mode: string;
  rules: Rules | null;
  previous: Rules | null;
  walking: boolean;
}

async function programmes(ctx: Ctx): Promise<Map<string, Programme>> {
  const rows = await unitOfWork(ctx, ({ sql }) => programmesToRun(sql));
  return new Map(
    rows.map((r) => [
      scopeOf(r),
      {
        workspaceId: r.workspace_id,
        mode: r.mode,
        rules: rulesFrom(r.programme, r.timezone),
        previous: rulesFrom(r.previous, r.timezone),
        walking: r.applied_version < r.version,
      },
    ]),
  );
}

/**
 * A new window's qualifying points for these participants, counted from the ledger: credits not
 * reversed, in the window (`rolling`: with the credits the job takes out later) or in the current
 * and the previous period (`calendar`).
 */
async function recount(
  sql: Sql,
  rows: LockedStanding[],
  rules: Rules,
  now: Date,
  periods: Periods,
  writes: TierWrites,
): Promise<Map<number, Pick<Standing, 'points' | 'period' | 'prior'>>> {
  const q = rules.programme.qualification;
  const ids = rows.map((r) => Number(r.id));
  const out = new Map(ids.map((id) => [id, { points: 0, period: null as string | null, prior: 0 }]));
  if (q.window === 'lifetime') return out;
  const at = instantOf(now);
  if (q.window === 'rolling') {
    await dropWindowCredits(sql, ids);
    const from = dateOf(subtractDuration(at, q.duration!, rules.timezone));
    for (const c of await qualifyingCreditsSince(sql, ids, from)) {
      const id = Number(c.participant_id);
      out.get(id)!.points += Number(c.points);
      writes.credits.push({
        entryId: Number(c.id),
        participantId: id,
        points: Number(c.points),
        leavesAt: leavesWindow(rules, c.created_at),
      });
    }
    return out;
  }
  const cur = periods.of(q.period!, now, rules.timezone);
  const prevStart = periods.of(q.period!, new Date(cur.start.epochMilliseconds - 1), rules.timezone).start;
  for (const o of out.values()) o.period = cur.key;
  for (const c of await qualifyingCreditsSince(sql, ids, dateOf(prevStart))) {
    const o = out.get(Number(c.participant_id))!;
    if (c.created_at.getTime() >= cur.start.epochMilliseconds) o.points += Number(c.points);
    else o.prior += Number(c.points);
  }
  return out;
}

/**
 * One batch of a programme change's walk (docs/tiers.md#changing-the-programme): the next
 * participants by id, each moved once: up at once to what the new programme supports (or off a
 * level it no longer has), or off their level when the programme ended. Answers how many it
 * walked; 0 when the walk is done or another worker holds it.
 */
export function walkProgramme(
  ctx: Ctx,
  scope: Programme,
  now: Date,
  periods = new Periods(),
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const walk = await lockWalk(sql, scope.workspaceId, scope.mode);
    if (!walk) return 0;
    // The programme as it stands under the walk's lock (it may have changed since the tick began).
    const row = (await tierProgramRow(sql, scope.workspaceId, scope.mode))!;
    const p = {
      ...scope,
      rules: rulesFrom(row.programme, row.timezone),
      previous: rulesFrom(row.previous, row.timezone),
    };
    const ids = await lockWalkBatch(sql, p.workspaceId, p.mode, Number(walk.cursor), PER_BATCH);
    const rows = await standingsByIds(sql, ids);
    const writes = noWrites();
    const counted = p.rules && walk.recount ? await recount(sql, rows, p.rules, now, periods, writes) : null;
    if (!p.rules && ids.length) await dropWindowCredits(sql, ids);
    await decideAll(
      sql,
      rows,
      (s, row) => {
        if (!p.rules) return p.previous ? leaveProgramme(s, p.previous, now) : null;
        const fresh = counted?.get(Number(row.id));
        const standing = fresh ? { ...s, ...fresh, reviewAt: null } : s;
        const out = reprogramme(standing, p.rules, now, p.previous ?? undefined, periods);
        return out.move || !same(s, out.standing) ? out : null;
      },
      writes,
    );
    await advanceWalk(sql, p.workspaceId, p.mode, walk.version, ids.at(-1) ?? 0, ids.length < PER_BATCH);
    return Math.max(ids.length, 1);
  });
}

/** One batch of rolling-window credits leaving (docs/tiers.md#the-tier-job); answers how many participants it took. */
export function leaveWindows(ctx: Ctx, all: Map<string, Programme>, now: Date): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const ids = await lockLeavingOwners(sql, now, PER_BATCH);
    if (!ids.length) return 0;
    const left = await takeOutLeaving(sql, ids, now);
    await decideAll(sql, await standingsByIds(sql, ids), (s, row) => {
      const rules = all.get(scopeOf(row))?.rules;
      if (rules?.programme.qualification.window !== 'rolling') return null;
      return review(leave(s, rules, now, left.get(Number(row.id)) ?? 0), rules, now);
    });
    return ids.length;
  });
}

/** One batch of a calendar period's end for participants above the first level; answers how many. */
export function endPeriods(ctx: Ctx, p: Programme, now: Date, periods: Periods): Promise<number> {
  const rules = p.rules;
  if (rules?.programme.qualification.window !== 'calendar') return Promise.resolve(0);
  const period = periods.of(rules.programme.qualification.period!, now, rules.timezone).key;
  return unitOfWork(ctx, async ({ sql }) => {
    const ids = await lockStalePeriods(sql, p.workspaceId, p.mode, period, PER_BATCH);
    if (!ids.length) return 0;
    await decideAll(sql, await standingsByIds(sql, ids), (s) => review(s, rules, now, periods));
    return ids.length;
  });
}

/** One batch of due downgrade reviews; answers how many participants it evaluated. */
export function reviewDue(
  ctx: Ctx,
  all: Map<string, Programme>,
  now: Date,
  periods: Periods,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const ids = await lockDueReviews(sql, now, PER_BATCH);
    if (!ids.length) return 0;
    await decideAll(sql, await standingsByIds(sql, ids), (s, row) => {
      const rules = all.get(scopeOf(row))?.rules;
      // No programme any more: nothing to review.
      if (!rules) return { standing: { ...s, reviewAt: null }, move: null };
      return review(s, rules, now, periods);
    });
    return ids.length;
  });
}

/**
 * The tier job at `now` (docs/tiers.md#the-tier-job), on every worker each loyalty tick: programme
 * changes walked, rolling-window credits taken out, calendar periods ended, due reviews evaluated,
 * each batch after batch until one comes back short.
 */
export async function runTierTick(ctx: Ctx, now = new Date(), stop = () => false) {
  const all = await programmes(ctx);
  const periods = new Periods();
  const drain = async (step: () => Promise<number>, full: number) => {
    let total = 0;
    for (let n = full; n >= full && !stop(); total += n) n = await step();
    return total;
  };
  let walked = 0;
  let periodsEnded = 0;
  for (const p of all.values()) {
    if (p.walking) walked += await drain(() => walkProgramme(ctx, p, now, periods), 1);
    periodsEnded += await drain(() => endPeriods(ctx, p, now, periods), PER_BATCH);
  }
  return {
    walked,
    left: await drain(() => leaveWindows(ctx, all, now), PER_BATCH),
    periodsEnded,
    reviewed: await drain(() => reviewDue(ctx, all, now, periods), PER_BATCH),
  };
}
