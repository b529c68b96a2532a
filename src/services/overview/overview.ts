import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Scope } from '../keys/principal.ts';
import { rewardNamesById, rolledUpStats, type StatRow, tailStats, watermarks } from './repository.ts';
import type { Overview, OverviewDay } from './shapes.ts';
import { SOURCES } from './sources.sql.ts';

export type { Overview, OverviewDay } from './shapes.ts';

export const overviewInput = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30).meta({
    description: 'How many UTC days, today included (default 30, at most 90).',
  }),
});
export type OverviewInput = z.output<typeof overviewInput>;

type Metric = Exclude<keyof OverviewDay, 'day' | 'webhook_success_rate'>;
const METRICS: Metric[] = [
  'events',
  'quarantined',
  'points_issued',
  'points_redeemed',
  'webhook_attempts',
  'webhook_succeeded',
];

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const rate = (ok: number, all: number) => (all ? ok / all : null);

/**
 * The overview's charts for the last `days` UTC days: the daily rollup (rows its watermarks have
 * passed) plus the same aggregate over this workspace's rows after the watermarks, read in one
 * repeatable-read snapshot, so the numbers are exact and current while no request scans the
 * whole history (docs/dashboard.md#overview).
 */
export async function overview(
  ctx: AppContext,
  who: Scope,
  q: OverviewInput,
  now = new Date(),
): Promise<Overview> {
  const to = isoDay(now);
  const fromDate = new Date(`${to}T00:00:00Z`);
  fromDate.setUTCDate(fromDate.getUTCDate() - (q.days - 1));
  const from = isoDay(fromDate);
  const rows = await unitOfWork(
    ctx,
    async ({ sql }) => {
      const rolled = await rolledUpStats(sql, who, from, to);
      const mark = await watermarks(sql);
      // One connection: the tails are read one after the other, in the same snapshot.
      const tails: StatRow[] = [];
      for (const s of SOURCES)
        tails.push(...(await tailStats(sql, s, who, mark.get(s.name) ?? s.floor, from, to)));
      return [...rolled, ...tails];
    },
    { isolation: 'repeatable read' },
  );
  const rewardIds = [...new Set(rows.filter((r) => r.metric === 'redemptions').map((r) => r.key))];
  const names = rewardIds.length
    ? await rewardNamesById(ctx.pool, who, rewardIds)
    : new Map<string, string>();
  return summarize(from, q.days, rows, names);
}

function summarize(from: string, count: number, rows: StatRow[], names: Map<string, string>): Overview {
  const start = new Date(`${from}T00:00:00Z`);
  const days: OverviewDay[] = Array.from({ length: count }, (_, i) => {
    const d = new Date(start);
    d.setUTCDate(d.getUTCDate() + i);
    return {
      day: isoDay(d),
      events: 0,
      quarantined: 0,
      points_issued: 0,
      points_redeemed: 0,
      webhook_attempts: 0,
      webhook_succeeded: 0,
      webhook_success_rate: null,
    };
  });
  const byDay = new Map(days.map((d) => [d.day, d]));
  const byReward = new Map<string, number>();
  for (const r of rows) {
    const value = Number(r.value);
    if (r.metric === 'redemptions') byReward.set(r.key, (byReward.get(r.key) ?? 0) + value);
    const d = byDay.get(r.day);
    if (d && (METRICS as string[]).includes(r.metric)) d[r.metric as Metric] += value;
  }
  for (const d of days) d.webhook_success_rate = rate(d.webhook_succeeded, d.webhook_attempts);
  const sum = (m: Metric) => days.reduce((n, d) => n + d[m], 0);
  const totals = Object.fromEntries(METRICS.map((m) => [m, sum(m)])) as Record<Metric, number>;
  const redemptions_by_reward = [...byReward]
    .map(([reward_id, n]) => ({ reward_id, name: names.get(reward_id) ?? `Reward ${reward_id}`, count: n }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return {
    from,
    to: days.at(-1)?.day ?? from,
    days,
    redemptions_by_reward,
    totals: {
      ...totals,
      redemptions: redemptions_by_reward.reduce((n, r) => n + r.count, 0),
      webhook_success_rate: rate(totals.webhook_succeeded, totals.webhook_attempts),
    },
  };
}
