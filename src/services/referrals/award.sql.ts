import { jsonObjectSql, jsonSql } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { emitResultsCtes, UUIDV7_SQL } from '../outbox/emit.sql.ts';
import type { ReferralBadgeAwardedData } from '../outbox/result-shapes.ts';

// Raw SQL: a referral's badges (docs/referrals.md#qualification), in one statement: the awards
// (a key+tier is held once) and exactly one `badge.awarded` per row inserted.

/** A badge a referral gives a participant. */
export interface ReferralBadge {
  workspaceId: string;
  mode: string;
  participantId: number;
  referralId: string;
  key: string;
  /** '' for none. */
  tier: string;
}

const data = jsonObjectSql<ReferralBadgeAwardedData>({
  participant: jsonObjectSql<ReferralBadgeAwardedData['participant']>({
    external_id: jsonSql('p.external_id'),
  }),
  badge: jsonObjectSql<ReferralBadgeAwardedData['badge']>({
    key: jsonSql('b.key'),
    tier: jsonSql('a.tier'),
    name: jsonSql('b.name'),
  }),
  flow_run_id: `'null'`,
  referral_id: jsonSql('a.referral_id'),
});

const emit = emitResultsCtes('results', 'referral');

/**
 * Awards referral badges (a key no one defined yet is created, named after its key, as a flow's
 * award creates it); a participant already holding the key+tier gets nothing and no result.
 * The caller holds the participants' row locks.
 */
export async function awardReferralBadges(sql: Sql, awards: ReferralBadge[]): Promise<void> {
  if (!awards.length) return;
  await sql.query(
    `with wanted as (
       select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::text[])
         as w(workspace_id, mode, participant_id, referral_id, key, tier)
     ), defined as (
       insert into badges (workspace_id, mode, key, name, tiers)
       select distinct on (workspace_id, mode, key) workspace_id, mode, key, key,
              case when tier = '' then '[]'::jsonb else jsonb_build_array(tier) end
         from wanted order by workspace_id, mode, key
       on conflict (workspace_id, mode, key) do nothing
       returning id, workspace_id, mode, key
     ), keyed as (
       select w.*, coalesce(b.id, d.id) as badge_id
         from wanted w
         left join badges b on b.workspace_id = w.workspace_id and b.mode = w.mode and b.key = w.key
         left join defined d on d.workspace_id = w.workspace_id and d.mode = w.mode and d.key = w.key
     ), awarded as (
       insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier)
       select distinct on (participant_id, badge_id, tier) workspace_id, mode, participant_id, badge_id, tier
         from keyed order by participant_id, badge_id, tier
       on conflict do nothing
       returning workspace_id, mode, participant_id, badge_id, tier
     ), results as (
       select ${UUIDV7_SQL} as id, a.workspace_id, a.mode, 'badge.awarded'::text as type, ${data} as data,
              row_number() over (order by a.participant_id, a.badge_id) as ord
         from (select aw.*, (select k.referral_id from keyed k
                              where k.participant_id = aw.participant_id and k.badge_id = aw.badge_id
                                and k.tier = aw.tier limit 1) as referral_id
                 from awarded aw) a
         join participants p on p.id = a.participant_id join badges b on b.id = a.badge_id
     ), ${emit.ctes}
     select ${emit.notify} as notified`,
    [
      awards.map((a) => a.workspaceId),
      awards.map((a) => a.mode),
      awards.map((a) => a.participantId),
      awards.map((a) => a.referralId),
      awards.map((a) => a.key),
      awards.map((a) => a.tier),
    ],
  );
}
