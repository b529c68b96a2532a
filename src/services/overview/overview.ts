import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { SOURCES, scopeAlias } from './sources.ts';

export const overviewInput = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(30).meta({
    description: 'How many UTC days, today included (default 30, at most 90).',
  }),
});
export type OverviewInput = z.input<typeof overviewInput>;

export interface OverviewDay {
  day: string;
  events: number;
  quarantined: number;
  points_issued: number;
  points_redeemed: number;
  webhook_attempts: number;
  webhook_succeeded: number;
  /** Succeeded ÷ attempts (0–1), null on a day without attempts. */
  webhook_success_rate: number | null;
}

export interface Overview {
  from: string;
  to: string;
  days: OverviewDay[];
  redemptions_by_reward: { reward_id: string; name: string; count: number }[];
  totals: Omit<OverviewDay, 'day' | 'webhook_success_rate'> & {
    redemptions: number;
    webhook_success_rate: number | null;
  };
}

type Metric = Exclude<keyof OverviewDay, 'day' | 'webhook_success_rate'>;
const METRICS: Metric[] = [
  'events',
  'quarantined',
  'points_issued',
  'points_redeemed',
  'webhook_attempts',
  'webhook_succeeded',
];

interface StatRow {
  day: string;
  metric: string;
  key: string;
  value: string;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const rate = (ok: number, all: number) => (all ? ok / all : null);

/**
 * The overview's charts for the last `days` UTC days: the daily rollup (rows its watermarks have
 * passed) plus the same aggregate over this workspace's rows after the watermarks, read in one
 * repeatable-read snapshot, so the numbers are exact and current while no request scans the
 * whole history (docs/dashboard.md "Overview").
 */
export async function overview(
  ctx: AppContext,
  who: Scope,
  input: unknown,
  now = new Date(),
): Promise<Overview> {
  const q = parseInput(overviewInput, input);
  const to = isoDay(now);
  const fromDate = new Date(`${to}T00:00:00Z`);
  fromDate.setUTCDate(fromDate.getUTCDate() - (q.days - 1));
  const from = isoDay(fromDate);
  const rows = await withTransaction(
    ctx.pool,
    async (c) => {
      const rolled = await c.query<StatRow>(
        `select day::text as day, metric, key, value::text as value from daily_stats
          where workspace_id = $1 and mode = $2 and day between $3::date and $4::date`,
        [who.workspaceId, who.mode, from, to],
      );
      const marks = await c.query<{ source: string; last_id: string | null }>(
        `select source, last_id from daily_stats_watermarks`,
      );
      const mark = new Map(marks.rows.map((m) => [m.source, m.last_id]));
      // One client: the tails are read one after the other, in the same snapshot.
      const tails: StatRow[] = [];
      for (const s of SOURCES) {
        const a = scopeAlias(s);
        const where = `${a}.workspace_id = $1 and ${a}.mode = $2 and x.id > $3::${s.idType} and x.${s.time} >= ($4::date)::timestamp at time zone 'UTC'`;
        const r = await c.query<StatRow>(
          `select day::text as day, metric, key, value::text as value from (${s.sql.replace('$where', where)}) t
            where day <= $5::date`,
          [who.workspaceId, who.mode, mark.get(s.name) ?? s.floor, from, to],
        );
        tails.push(...r.rows);
      }
      return [...rolled.rows, ...tails];
    },
    { isolation: 'repeatable read' },
  );
  return summarize(from, q.days, rows, await rewardNames(ctx, who, rows));
}

async function rewardNames(ctx: AppContext, who: Scope, rows: StatRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.filter((r) => r.metric === 'redemptions').map((r) => r.key))];
  if (!ids.length) return new Map();
  const { rows: named } = await ctx.pool.query<{ id: string; name: string }>(
    `select id::text as id, name from rewards where workspace_id = $1 and mode = $2 and id = any($3::bigint[])`,
    [who.workspaceId, who.mode, ids],
  );
  return new Map(named.map((r) => [r.id, r.name]));
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
