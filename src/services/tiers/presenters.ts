import { isoTime } from '../../lib/iso-time.ts';
import { rulesFrom } from './programme.ts';
import type { MoveRow } from './repository.ts';
import { currentRank, downgrades, Periods, qualifyingOf, roll, supportedOf } from './rules.ts';
import type { ParticipantTierDto, TierMoveDto, TierReason } from './shapes.ts';
import { type StandingRow, standingColumns, standingOf } from './standing.sql.ts';

/**
 * The columns a participant read adds for its `tier` (docs/tiers.md#reads), from the participants
 * row `t`: the standing, the running programme with its time zone (one primary-key lookup), and
 * the next credit to leave a rolling window (one index lookup). Nothing is summed.
 */
export const tierColumns = (t: string) => `${standingColumns(t)},
    (select json_build_object('programme', tp.programme, 'started_at', tp.started_at,
                              'timezone', coalesce(ps.settings->>'timezone', 'UTC'))
       from tier_programs tp left join program_settings ps on ps.workspace_id = tp.workspace_id and ps.mode = tp.mode
      where tp.workspace_id = ${t}.workspace_id and tp.mode = ${t}.mode and tp.programme is not null) as tier_programme,
    (select json_build_object('at', c.leaves_at, 'points', sum(c.points)) from tier_credits c
      where c.participant_id = ${t}.id
        and c.leaves_at = (select min(d.leaves_at) from tier_credits d where d.participant_id = ${t}.id)
      group by c.leaves_at) as tier_next_leave`;

/** A row with {@link tierColumns}. */
export type TierColumnsRow = StandingRow & {
  created_at: Date;
  tier_programme: { programme: Record<string, unknown>; started_at: string; timezone: string } | null;
  tier_next_leave: { at: string; points: number | string } | null;
};

const periods = new Periods();

/** A participant's `tier` at `now`, or null when no programme runs. */
export function presentTier(r: TierColumnsRow, now = new Date()): ParticipantTierDto | null {
  const tp = r.tier_programme;
  const rules = rulesFrom(tp?.programme, tp?.timezone ?? 'UTC');
  if (!rules || !tp) return null;
  const levels = rules.programme.levels;
  const s = roll(standingOf(r), rules, now, periods);
  const rank = currentRank(s, rules);
  const level = levels[rank]!;
  const qualifying = qualifyingOf(s, rules);
  const up = levels[rank + 1];
  const started = new Date(tp.started_at);
  const since = s.since ?? (r.created_at > started ? r.created_at : started);
  return {
    key: level.key,
    name: level.name,
    since: isoTime(since),
    qualifying_points: qualifying,
    next: up ? { key: up.key, name: up.name, points_needed: Math.max(0, up.threshold - qualifying) } : null,
    retain: retainOf(),
  };

  function retainOf(): ParticipantTierDto['retain'] {
    if (rank === 0 || !downgrades(rules!)) return null;
    const needed = (points: number) => Math.max(0, level.threshold - points);
    if (s.reviewAt) return { points_needed: needed(s.points), by: isoTime(s.reviewAt) };
    const q = rules!.programme.qualification;
    if (q.window === 'calendar')
      return {
        points_needed: needed(s.points),
        by: isoTime(periods.of(q.period!, now, rules!.timezone).end.toString()),
      };
    const next = r.tier_next_leave;
    if (!next || supportedOf(s, rules!) < rank) return null;
    return { points_needed: needed(s.points - Number(next.points)), by: isoTime(next.at) };
  }
}

/** A move as every door shows it. */
export const presentMove = (r: MoveRow): TierMoveDto => ({
  id: r.id,
  from: r.from_key === null ? null : { key: r.from_key, name: r.from_name ?? r.from_key },
  to: r.to_key === null ? null : { key: r.to_key, name: r.to_name ?? r.to_key },
  reason: r.reason as TierReason,
  note: r.note,
  qualifying_points: Number(r.qualifying_points),
  at: isoTime(r.at),
});
