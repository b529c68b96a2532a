import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';

// Raw SQL: erasure rewrites the external id inside stored JSON (`jsonb_set` over outbox data and
// delivery bodies) and chains two updates with `with … update … returning`, which the ORM cannot
// express.

/**
 * A result's `data` (at `prefix` inside `json`) with the participant's id replaced by the
 * pseudonym `$4`: `participant.external_id`, and `redemption.participant.external_id` in
 * `reward.redeemed` (the redemption object carries its participant too).
 */
const scrubSql = (json: string, prefix: string) => `case
    when ${json} #> '{${prefix}redemption,participant}' ? 'external_id'
    then jsonb_set(jsonb_set(${json}, '{${prefix}participant,external_id}', to_jsonb($4::text)),
                   '{${prefix}redemption,participant,external_id}', to_jsonb($4::text))
    else jsonb_set(${json}, '{${prefix}participant,external_id}', to_jsonb($4::text)) end`;

/** A referral result's `data` (at `prefix` inside `json`) with the advocate's or the friend's id `$3` replaced by `$4`. */
const referralScrubSql = (json: string, prefix: string) => {
  const side = (role: string, inner: string) => {
    const path = `'{${prefix}referral,${role},external_id}'`;
    return `jsonb_set(${inner}, ${path}, case when ${json} #>> ${path} = $3 then to_jsonb($4::text) else ${json} #> ${path} end)`;
  };
  return side('friend', side('advocate', json));
};

/** Replaces everything that names participant `id` (`externalId` in the scope `who`) by `pseudonym`. */
export async function eraseRows(
  sql: Sql,
  who: Scope,
  p: { id: string | number; externalId: string },
  pseudonym: string,
): Promise<void> {
  await sql.query(
    `update participants set external_id = $2, email = null, phone = null, name = null, updated_at = now()
      where id = $1`,
    [p.id, pseudonym],
  );
  await sql.query(`update events set payload = '{}'::jsonb, external_id = $2 where participant_id = $1`, [
    p.id,
    pseudonym,
  ]);
  await sql.query(`update messages set "to" = null, subject = null, body = '' where participant_id = $1`, [
    p.id,
  ]);
  // Copies of the old id that are not linked by participant_id: quarantined events (never
  // linked to a participant) and the results (outbox) and their webhook deliveries, whose
  // bodies would otherwise map the old id to the pseudonym. Scans the workspace's rows of
  // these tables: erasure is rare, and an index for it would tax every write.
  await sql.query(
    `update events set payload = '{}'::jsonb, external_id = $4
      where workspace_id = $1 and mode = $2 and external_id = $3 and participant_id is null`,
    [who.workspaceId, who.mode, p.externalId, pseudonym],
  );
  await sql.query(
    `with scrubbed as (
       update outbox set data = ${scrubSql('data', '')}
        where workspace_id = $1 and mode = $2 and data->'participant'->>'external_id' = $3
        returning id
     )
     update webhook_deliveries
        set body = (${scrubSql('body::jsonb', 'data,')})::text
      where workspace_id = $1 and mode = $2 and outbox_id in (select id from scrubbed)`,
    [who.workspaceId, who.mode, p.externalId, pseudonym],
  );
  // Referral results name the advocate and the friend (docs/referrals.md#reads).
  await sql.query(
    `with scrubbed as (
       update outbox set data = ${referralScrubSql('data', '')}
        where workspace_id = $1 and mode = $2 and type in ('referral.qualified', 'referral.rewarded')
          and $3 in (data #>> '{referral,advocate,external_id}', data #>> '{referral,friend,external_id}')
        returning id
     )
     update webhook_deliveries
        set body = (${referralScrubSql('body::jsonb', 'data,')})::text
      where workspace_id = $1 and mode = $2 and outbox_id in (select id from scrubbed)`,
    [who.workspaceId, who.mode, p.externalId, pseudonym],
  );
  // An erased advocate's code attributes no one any more.
  await sql.query(`delete from referral_codes where participant_id = $1`, [p.id]);
}
