import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { DELIVERIES_CHANNEL } from '../outbox/emit.ts';
import { getDelivery } from './list-deliveries.ts';
import { findDelivery } from './repository.ts';
import type { DeliveryDetailDto } from './shapes.ts';

// Raw SQL: re-arms a delivery `for update` and wakes the dispatchers with `pg_notify` on commit, on the
// dispatcher's tables and columns (bench suite `webhooks`).

/**
 * Replay (SPEC 6.4.5): a dead or succeeded delivery goes back to `pending`, due now, with its
 * attempt count reset; the same body bytes are sent again. Anything else is 409 `invalid_state`,
 * as is a delivery whose subscription is paused or deleted (resume it first).
 */
export async function replayDelivery(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<DeliveryDetailDto> {
  await withTransaction(ctx.pool, async (sql) => {
    const delivery = await findDelivery(sql, who, id);
    const { rows } = await sql.query<{ status: string; sub_status: string; deleted: boolean }>(
      `select d.status, s.status as sub_status, s.deleted_at is not null as deleted
       from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
       where d.id = $1 for update of d`,
      [delivery.id],
    );
    const row = rows[0]!;
    if (row.status !== 'dead' && row.status !== 'succeeded') {
      throw new DomainError(
        'invalid_state',
        `Only a dead or succeeded delivery can be replayed; this one is ${row.status}`,
      );
    }
    if (row.deleted || row.sub_status !== 'active') {
      throw new DomainError(
        'invalid_state',
        `The delivery's subscription is ${row.deleted ? 'deleted' : row.sub_status}: resume it before replaying`,
      );
    }
    await sql.query(
      `update webhook_deliveries set status = 'pending', attempt_count = 0, next_attempt_at = now(),
         claim_token = null, last_error = null, updated_at = now() where id = $1`,
      [delivery.id],
    );
    await sql.query(`select pg_notify('${DELIVERIES_CHANNEL}', '')`);
  });
  return getDelivery(ctx, who, id);
}
