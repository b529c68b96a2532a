import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import { findParticipant } from './find-participant.ts';
import type { Scope } from './presenters.ts';

/**
 * `DELETE /v1/participants/{external_id}` (CONTRACT 7): the person goes, the accounting stays.
 * PII is cleared and the external id replaced by a random pseudonym (random, so nothing can map
 * it back); the events' payloads and external ids and the messages' recipients and bodies are
 * scrubbed. Ledger entries, badges and redemptions stay on the pseudonymous row, so balances,
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
  });
  return { erased: true };
}
