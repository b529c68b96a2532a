import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Scope } from '../keys/principal.ts';
import { eraseRows } from './erase.sql.ts';
import { findParticipant } from './repository.ts';

/**
 * `DELETE /v1/participants/{external_id}` (docs/api.md#participants-points-and-leaderboards): the
 * person goes, the accounting stays. PII is cleared and the external id replaced by a random
 * pseudonym (random, so nothing can map it back); the events' payloads and external ids
 * (quarantined ones too), the messages' recipients and bodies, and the old id in results and
 * webhook delivery bodies are scrubbed. Ledger entries, badges and redemptions stay on the
 * pseudonymous row, so balances, leaderboards and totals remain exact. The old id then 404s, and
 * a new event with it creates a fresh participant.
 */
export async function eraseParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<{ erased: true }> {
  // It rewrites rows other writers lock in another order (a replay links the quarantined event it
  // replays, then touches the participant): a deadlock rolls the erasure back whole, and it runs again.
  for (let attempt = 1; ; attempt++) {
    try {
      await unitOfWork(ctx, async ({ sql }) => {
        const p = await findParticipant(sql, who, externalId, { forUpdate: true });
        await eraseRows(sql, who, { id: p.id, externalId }, `erased_${randomBytes(16).toString('hex')}`);
      });
      return { erased: true };
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    }
  }
}
