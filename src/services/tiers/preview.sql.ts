import type { Sql } from '../../db/tx.ts';
import type { TierProgramme } from './shapes.ts';

// Raw SQL: `POST /v1/tiers/preview` over every participant of a workspace and mode in one
// aggregate statement (bench suite `tiers`: 1,000,000 participants in under 5 s). The rules are
// rules.ts's (supportedOf, reprogramme, review), written as CASE expressions over each row's
// standing; test/tiers-programme.test.ts checks the preview against what the walk then does.

/** Where the proposed window's qualifying points come from. */
export type PreviewSource =
  /** `lifetime`: lifetime points. */
  | { kind: 'lifetime' }
  /** The running programme counts the same window: the standing columns (`calendar`: with the period keys). */
  | { kind: 'standing'; period?: { current: string; previous: string } }
  /** A new window: the ledger's credits since `from` (`calendar`: those since `currentStart` are the current period's). */
  | { kind: 'ledger'; from: Date; currentStart?: Date };

export interface PreviewRow {
  from_key: string | null;
  to_key: string;
  count: string;
}

/** The highest level index `expr` reaches, as a CASE over the thresholds (parameters from `$at`). */
function rankSql(expr: string, thresholds: number[], param: (v: unknown) => string): string {
  if (thresholds.length < 2) return '0';
  const arms = thresholds
    .map((t, i) => ({ t, i }))
    .slice(1)
    .reverse()
    .map(({ t, i }) => `when ${expr} >= ${param(t)}::bigint then ${i}`);
  return `(case ${arms.join(' ')} else 0 end)`;
}

/**
 * Counts every participant by (level now, level once the proposed programme is applied and
 * evaluated). `current` null: no programme runs (everyone's level now is null).
 */
export async function previewCounts(
  sql: Sql,
  workspaceId: string,
  mode: string,
  current: TierProgramme | null,
  proposed: TierProgramme,
  source: PreviewSource,
): Promise<PreviewRow[]> {
  const values: unknown[] = [workspaceId, mode];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const levels = proposed.levels;
  const thresholds = levels.map((l) => l.threshold);
  const keys = param(levels.map((l) => l.key));

  let points = 'p.tier_points';
  let prior = '0';
  let from = 'participants p';
  if (source.kind === 'lifetime') points = 'p.lifetime_points';
  else if (source.kind === 'standing' && source.period) {
    const cur = param(source.period.current);
    const prev = param(source.period.previous);
    points = `(case when p.tier_period = ${cur} then p.tier_points else 0 end)`;
    prior = `(case when p.tier_period = ${cur} then p.tier_prior_points when p.tier_period = ${prev} then p.tier_points else 0 end)`;
  } else if (source.kind === 'ledger') {
    const since = param(source.from);
    const split = source.currentStart ? param(source.currentStart) : null;
    from = `participants p left join (
        select e.participant_id,
               sum(e.points) filter (where ${split ? `e.created_at >= ${split}` : 'true'}) as points,
               ${split ? `sum(e.points) filter (where e.created_at < ${split})` : '0'} as prior
          from ledger_entries e
         where e.workspace_id = $1 and e.mode = $2 and e.created_at >= ${since} and e.points > 0
           and e.source in ('flow', 'adjustment') and e.reverses_entry_id is null
           and not exists (select 1 from ledger_entries r where r.reverses_entry_id = e.id)
         group by e.participant_id) c on c.participant_id = p.id`;
    points = 'coalesce(c.points, 0)';
    prior = 'coalesce(c.prior, 0)';
  }
  const supported =
    proposed.qualification.window === 'calendar'
      ? `greatest(${rankSql(points, thresholds, param)}, ${rankSql(prior, thresholds, param)})`
      : rankSql(points, thresholds, param);
  const nowKey = current ? `coalesce(p.tier_key, ${param(current.levels[0]!.key)})` : 'null::text';
  const downgrades = proposed.qualification.window !== 'lifetime' && proposed.downgrade.policy !== 'none';
  const down = !downgrades ? 'x.r' : proposed.downgrade.policy === 'one_down' ? 'x.r - 1' : 'x.sup';
  const { rows } = await sql.query<PreviewRow>(
    `select x.now_key as from_key,
            (${keys}::text[])[1 + case when x.r is null or x.sup > x.r then x.sup
                                       when x.sup < x.r then ${down} else x.r end] as to_key,
            count(*) as count
       from (select ${nowKey} as now_key, ${supported} as sup,
                    array_position(${keys}::text[], ${current ? nowKey : 'null::text'}) - 1 as r
               from ${from}
              where p.workspace_id = $1 and p.mode = $2) x
      group by 1, 2`,
    values,
  );
  return rows;
}
