// Raw SQL: an achievement's backfill (bench suite `engagement`: 1,000,000 participants in under
// 120 s). Participants are walked by id through participants (workspace_id, mode, id); for each
// one not holding the badge, its matching events are one range of events_window_idx (participant,
// type, occurred_at) where processed, aggregated per participant. Only the workspace's own
// participants are read, whatever the size of the events table.
import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { awardResultsCtes } from './award.sql.ts';
import { tierOf } from './criteria.ts';
import { progressSubquery } from './progress.sql.ts';
import type { AchievementBadge } from './repository.ts';
import { SqlParams } from './where-sql.ts';

/** A backfill's question: the badge, and the window `(since, end]` every participant is counted in. */
export interface BackfillAsk {
  badge: AchievementBadge;
  end: Date;
  since: Date | null;
}

/**
 * CTEs `todo` (the participants of `ps` not holding the badge's key+tier) and `reached` (those of
 * them whose progress reaches the target), after a CTE `ps` of participant ids.
 */
function reachedCtes(ask: BackfillAsk, params: SqlParams): string {
  const c = ask.badge.criteria;
  const badgeId = params.add(ask.badge.id, 'bigint');
  const tier = params.add(tierOf(c), 'text');
  // Progress as a correlated subquery, one index range per participant: as a join, Postgres may
  // prefer to hash the whole events table once per chunk.
  const at = {
    participant: 't.id',
    end: () => params.add(ask.end, 'timestamptz'),
    since: params.add(ask.since, 'timestamptz'),
  };
  // A lateral probe of participant_badges_held_once per participant: as an anti-join, Postgres may
  // hash every holder of the badge (all earlier chunks' awards) in each chunk. `badge_id + 0`
  // keeps the probe on the participant's few holdings: on `badge_id` = …, statistics taken before
  // the backfill made participant_badges_badge_idx look cheap, and each probe walked every holder
  // so far (5 s a chunk after 140,000 awards; bench engagement).
  return `todo as (
       select ps.id from ps
         left join lateral (select 1 as held from participant_badges h
                             where h.participant_id = ps.id and h.badge_id + 0 = ${badgeId} and h.tier = ${tier}
                             limit 1) h on true
        where h.held is null
     ), reached as (
       select t.id as participant_id from todo t
        where ${progressSubquery(c, params, at)} >= ${params.add(c.target, 'numeric')}
     )`;
}

/** How many participants meet the criteria now and do not hold the badge (a dry run: one statement). */
export async function countWouldAward(sql: Sql, ask: BackfillAsk): Promise<number> {
  const params = new SqlParams();
  const ps = `ps as (
       select id from participants
        where workspace_id = ${params.add(ask.badge.workspaceId, 'uuid')} and mode = ${params.add(ask.badge.mode, 'text')}
     )`;
  const { rows } = await sql.query<{ n: string }>(
    `with ${ps}, ${reachedCtes(ask, params)}
     select count(*) as n from reached`,
    params.values,
  );
  return Number(rows[0]!.n);
}

/**
 * Where a backfill's chunks end: the id of every `size`-th participant of the scope, in order (the
 * last chunk runs on past the last bound, so participants created meanwhile are walked too).
 */
export async function chunkBounds(sql: Sql, scope: Scope, size: number): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from (select id, row_number() over (order by id) as n from participants
                      where workspace_id = $1 and mode = $2) s
      where n % $3 = 0 order by id`,
    [scope.workspaceId, scope.mode, size],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * One chunk of a backfill: the participants of the badge's workspace and mode with an id in
 * `(after, upto]` (upto null: no end); those who meet the criteria and do not hold the badge are
 * awarded it (ON CONFLICT DO NOTHING: concurrent backfills and the engine award a key+tier once)
 * with a `badge.awarded` for exactly the rows inserted. Answers how many were awarded.
 */
export async function backfillChunk(
  sql: Sql,
  ask: BackfillAsk,
  after: number,
  upto: number | null,
): Promise<number> {
  const params = new SqlParams();
  const w = params.add(ask.badge.workspaceId, 'uuid');
  const m = params.add(ask.badge.mode, 'text');
  const end = upto === null ? '' : ` and id <= ${params.add(upto, 'bigint')}`;
  const ps = `ps as (
       select id from participants
        where workspace_id = ${w} and mode = ${m} and id > ${params.add(after, 'bigint')}${end}
     )`;
  const reached = reachedCtes(ask, params);
  const { rows } = await sql.query<{ awarded: string }>(
    `with ${ps}, ${reached}, awarded as (
       insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier)
       select ${w}, ${m}, r.participant_id, ${params.add(ask.badge.id, 'bigint')}, ${params.add(tierOf(ask.badge.criteria), 'text')}
         from reached r order by r.participant_id
       on conflict do nothing
       returning workspace_id, mode, participant_id, badge_id, tier
     ), ${awardResultsCtes.ctes}
     select (select count(*) from awarded) as awarded, ${awardResultsCtes.notify} as notified`,
    params.values,
  );
  return Number(rows[0]!.awarded);
}
