import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from './find-participant.ts';

// Raw SQL: GDPR erase in one transaction over the event log, messages, outbox and deliveries: `jsonb_set`
// rewrites the external id inside stored JSON (outbox data, delivery bodies), a `with … update …
// returning` chains two of the updates, which the ORM cannot express.

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

/**
 * `DELETE /v1/participants/{external_id}` (CONTRACT 7): the person goes, the accounting stays.
 * PII is cleared and the external id replaced by a random pseudonym (random, so nothing can map
 * it back); the events' payloads and external ids (quarantined ones too), the messages'
 * recipients and bodies, and the old id in results and webhook delivery bodies are scrubbed. Ledger entries, badges and redemptions stay on the pseudonymous row, so balances,
 * leaderboards and totals remain exact. The old id then 404s, and a new event with it creates
 * a fresh participant.
 */
export async function eraseParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<{ erased: true }> {
  await withTransaction(ctx.pool, async (c) => {
    const p = await findParticipant(c, who, externalId, { forUpdate: true });
    const pseudonym = `erased_${randomBytes(16).toString('hex')}`;
    await c.query(
      `update participants set external_id = $2, email = null, phone = null, name = null, updated_at = now()
        where id = $1`,
      [p.id, pseudonym],
    );
    await c.query(`update events set payload = '{}'::jsonb, external_id = $2 where participant_id = $1`, [
      p.id,
      pseudonym,
    ]);
    await c.query(`update messages set "to" = null, subject = null, body = '' where participant_id = $1`, [
      p.id,
    ]);
    // Copies of the old id that are not linked by participant_id: quarantined events (never
    // linked to a participant) and the results (outbox) and their webhook deliveries, whose
    // bodies would otherwise map the old id to the pseudonym. Scans the workspace's rows of
    // these tables: erasure is rare, and an index for it would tax every write.
    await c.query(
      `update events set payload = '{}'::jsonb, external_id = $4
        where workspace_id = $1 and mode = $2 and external_id = $3 and participant_id is null`,
      [who.workspaceId, who.mode, externalId, pseudonym],
    );
    await c.query(
      `with scrubbed as (
         update outbox set data = ${scrubSql('data', '')}
          where workspace_id = $1 and mode = $2 and data->'participant'->>'external_id' = $3
          returning id
       )
       update webhook_deliveries
          set body = (${scrubSql('body::jsonb', 'data,')})::text
        where workspace_id = $1 and mode = $2 and outbox_id in (select id from scrubbed)`,
      [who.workspaceId, who.mode, externalId, pseudonym],
    );
  });
  return { erased: true };
}
