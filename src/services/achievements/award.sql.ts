import { createHash } from 'node:crypto';
// Raw SQL: the engine's awards of achievements (bench suite `engine`), ONE statement per batch
// whose processed events a badge's criteria count: progress from the events table at each event's
// `occurred_at`, the awards, and exactly one `badge.awarded` per inserted row.
import { jsonObjectSql, jsonSql } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { emitResultsCtes, UUIDV7_SQL } from '../outbox/emit.sql.ts';
import type { AchievementBadgeAwardedData } from '../outbox/result-shapes.ts';
import { tierOf } from './criteria.ts';
import { progressSubquery } from './progress.sql.ts';
import type { AchievementBadge } from './repository.ts';
import { SqlParams } from './where-sql.ts';

/** `badge.awarded` data of an award aliased `a`, its participant `p` and its badge `b`. */
export const achievementAwardedJsonSql = jsonObjectSql<AchievementBadgeAwardedData>({
  participant: jsonObjectSql<AchievementBadgeAwardedData['participant']>({
    external_id: jsonSql('p.external_id'),
  }),
  badge: jsonObjectSql<AchievementBadgeAwardedData['badge']>({
    key: jsonSql('b.key'),
    tier: jsonSql('a.tier'),
    name: jsonSql('b.name'),
  }),
  flow_run_id: `'null'`,
  achievement: `'true'`,
});

const emit = emitResultsCtes('results', 'achievement');

/**
 * The CTEs that follow a CTE `awarded` (the rows inserted into participant_badges, with
 * workspace_id, mode, participant_id, badge_id, tier): their `badge.awarded` results and
 * deliveries. `notify` goes in the final SELECT list.
 */
export const awardResultsCtes = {
  ctes: `results as (
       select ${UUIDV7_SQL} as id, a.workspace_id, a.mode, 'badge.awarded'::text as type,
              ${achievementAwardedJsonSql} as data,
              row_number() over (order by a.participant_id, a.badge_id) as ord
         from awarded a join participants p on p.id = a.participant_id join badges b on b.id = a.badge_id
     ), ${emit.ctes}`,
  notify: emit.notify,
};

/** A processed event of a participant that a badge's criteria count: where its progress is asked. */
export interface AwardAsk {
  participantId: number;
  /** Index into the badges passed with it. */
  badge: number;
  /** The event's `occurred_at`: the window's end. */
  at: Date;
  /** The window's start (exclusive); null: all time. */
  since: Date | null;
}

/**
 * Awards each badge to the participants whose progress at one of their asks reaches its target
 * and who do not hold its key+tier, in one statement: per badge, its asks of participants not
 * holding it (a lateral probe of participant_badges_held_once each, on `badge_id + 0` so that it
 * never walks a popular badge's every holder through participant_badges_badge_idx; an anti-join
 * could hash them all), each a range of events_window_idx; then the awards (ON CONFLICT DO NOTHING: a key+tier
 * is held once) and a `badge.awarded` for exactly the rows inserted. Answers how many were awarded.
 */
export async function awardAchievements(
  sql: Sql,
  badges: readonly AchievementBadge[],
  asks: readonly AwardAsk[],
): Promise<number> {
  if (!asks.length) return 0;
  const params = new SqlParams([
    asks.map((a) => a.participantId),
    asks.map((a) => a.badge),
    asks.map((a) => a.at),
    asks.map((a) => a.since),
  ]);
  const used = new Set(asks.map((a) => a.badge));
  const blocks = badges.flatMap((b, i) => {
    if (!used.has(i)) return [];
    const c = b.criteria;
    const badgeId = params.add(b.id, 'bigint');
    const tier = params.add(tierOf(c), 'text');
    const progress = progressSubquery(c, params, {
      participant: 'x.participant_id',
      end: 'x.at',
      since: 'x.since',
    });
    return [
      `select x.participant_id, ${params.add(b.workspaceId, 'uuid')} as workspace_id, ${params.add(b.mode, 'text')} as mode,
              ${badgeId} as badge_id, ${tier} as tier
         from asks x
         left join lateral (select 1 as held from participant_badges h
                             where h.participant_id = x.participant_id and h.badge_id + 0 = ${badgeId} and h.tier = ${tier}
                             limit 1) h on true
        where x.badge = ${i} and h.held is null
          and ${progress} >= ${params.add(c.target, 'numeric')}`,
    ];
  });
  const text = `with asks as (
       select * from unnest($1::bigint[], $2::int[], $3::timestamptz[], $4::timestamptz[]) as x(participant_id, badge, at, since)
     ), reached as (
       ${blocks.join('\n       union all\n       ')}
     ), awarded as (
       insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier)
       select distinct on (participant_id, badge_id) workspace_id, mode, participant_id, badge_id, tier
         from reached order by participant_id, badge_id
       on conflict do nothing
       returning workspace_id, mode, participant_id, badge_id, tier
     ), ${awardResultsCtes.ctes}
     select (select count(*) from awarded) as awarded, ${awardResultsCtes.notify} as notified`;
  // Named by its text (the same badges make the same text): prepared once per connection, not
  // planned again for every batch (bench engagement).
  const { rows } = await sql.query<{ awarded: string }>({
    name: `achievements_award_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`,
    text,
    values: params.values,
  });
  return Number(rows[0]!.awarded);
}
