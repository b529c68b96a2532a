import { z } from 'zod';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import type { AttemptRow, DeliveryRow, SubscriptionRow } from './presenters.ts';

/** Queries over the webhook tables; every one is scoped to the caller's workspace and mode. */

export const SUBSCRIPTION_COLUMNS =
  'id, mode, url, event_types, headers, description, status, created_at, updated_at';

const DELIVERY_COLUMNS =
  'id, subscription_id, outbox_id, type, status, attempt_count, next_attempt_at, last_attempt_at, ' +
  'last_status_code, last_error, created_at, updated_at';

const isUuid = (id: string) => z.uuid().safeParse(id).success;

/** A live (not deleted) subscription of the caller, optionally locked for the transaction; 404 otherwise. */
export async function findSubscription(
  sql: Sql,
  who: Principal,
  id: string,
  opts: { lock?: boolean; withSecret?: boolean } = {},
): Promise<SubscriptionRow & { secret_enc?: string }> {
  const { rows } = isUuid(id)
    ? await sql.query<SubscriptionRow & { secret_enc?: string }>(
        `select ${SUBSCRIPTION_COLUMNS}${opts.withSecret ? ', secret_enc' : ''} from webhook_subscriptions
         where id = $1 and workspace_id = $2 and mode = $3 and deleted_at is null${opts.lock ? ' for update' : ''}`,
        [id, who.workspaceId, who.mode],
      )
    : { rows: [] };
  const row = rows[0];
  if (!row) throw notFound('webhook subscription');
  return row;
}

export async function pageSubscriptions(
  sql: Sql,
  who: Principal,
  range: KeysetRange<string>,
): Promise<SubscriptionRow[]> {
  const k = keysetSql(range, 'id', 3);
  const { rows } = await sql.query<SubscriptionRow>(
    `select ${SUBSCRIPTION_COLUMNS} from webhook_subscriptions
     where workspace_id = $1 and mode = $2 and deleted_at is null and ${k.where}
     order by ${k.order} limit ${k.limit}`,
    [who.workspaceId, who.mode, ...k.params],
  );
  return rows;
}

export interface DeliveryFilter {
  subscriptionId?: string;
  status?: string;
  type?: string;
}

export async function pageDeliveries(
  sql: Sql,
  who: Principal,
  filter: DeliveryFilter,
  range: KeysetRange<string>,
): Promise<DeliveryRow[]> {
  const params: unknown[] = [who.workspaceId, who.mode];
  const conds: string[] = [];
  const add = (cond: (p: string) => string, value: unknown) => {
    params.push(value);
    conds.push(cond(`$${params.length}`));
  };
  if (filter.subscriptionId) add((p) => `subscription_id = ${p}`, filter.subscriptionId);
  if (filter.status) add((p) => `status = ${p}`, filter.status);
  if (filter.type) add((p) => `type = ${p}`, filter.type);
  const k = keysetSql(range, 'id', params.length + 1);
  const { rows } = await sql.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries
     where workspace_id = $1 and mode = $2 ${conds.map((c) => `and ${c}`).join(' ')} and ${k.where}
     order by ${k.order} limit ${k.limit}`,
    [...params, ...k.params],
  );
  return rows;
}

export async function findDelivery(
  sql: Sql,
  who: Principal,
  id: string,
): Promise<DeliveryRow & { body: string }> {
  const { rows } = isUuid(id)
    ? await sql.query<DeliveryRow & { body: string }>(
        `select ${DELIVERY_COLUMNS}, body from webhook_deliveries where id = $1 and workspace_id = $2 and mode = $3`,
        [id, who.workspaceId, who.mode],
      )
    : { rows: [] };
  const row = rows[0];
  if (!row) throw notFound('webhook delivery');
  return row;
}

export async function attemptsOf(sql: Sql, deliveryId: string): Promise<AttemptRow[]> {
  const { rows } = await sql.query<AttemptRow>(
    `select number, attempted_at, status_code, response_snippet, duration_ms, error
     from webhook_attempts where delivery_id = $1 order by id`,
    [deliveryId],
  );
  return rows;
}

/** Where a subscription change is announced (on commit), so dispatchers drop what they queued for it. */
export const SUBSCRIPTIONS_CHANNEL = 'svc_webhook_subscriptions';

export async function announceSubscriptionChange(sql: Sql, subscriptionId: string): Promise<void> {
  await sql.query(`select pg_notify('${SUBSCRIPTIONS_CHANNEL}', $1)`, [subscriptionId]);
}

/**
 * SPEC 6.4.6: a paused or removed subscription's pending deliveries die at once. An attempt
 * already in flight keeps its claim, so its outcome is still recorded; nothing new is sent.
 */
export async function killPendingDeliveries(sql: Sql, subscriptionId: string, why: string): Promise<number> {
  const { rowCount } = await sql.query(
    `update webhook_deliveries set status = 'dead', next_attempt_at = null, last_error = $2, updated_at = now()
     where subscription_id = $1 and status = 'pending'`,
    [subscriptionId, why],
  );
  return rowCount ?? 0;
}
