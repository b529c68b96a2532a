// Raw SQL: the delivery log beside the dispatcher's claim (turn.sql.ts, bench suite `webhooks`), on the
// columns it shares; a replay's row lock `for update of d`; and Postgres' NOTIFY, which has no ORM
// equivalent.
import { LockMode } from '@mikro-orm/core';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { type KeysetRange, keysetFind, keysetSql } from '../../lib/pagination.ts';
import type { Principal, Scope } from '../keys/principal.ts';
import { DELIVERIES_CHANNEL } from '../outbox/emit.ts';
import { WebhookDelivery, WebhookSubscription } from './entities.ts';
import type { AttemptRow, DeliveryRow, SubscriptionRow } from './presenters.ts';
import type { PreviousSecret } from './signing-secrets.ts';

/**
 * Queries over the webhook tables; every one is scoped to the caller's workspace and mode.
 * Subscriptions' CRUD is a cold path: MikroORM, on a fork of its own for a plain read, or on a
 * unit of work's `em` when it changes one. The delivery log stays in SQL.
 */

export const DELIVERY_COLUMNS =
  'id, subscription_id, outbox_id, type, status, attempt_count, next_attempt_at, last_attempt_at, ' +
  'last_status_code, last_error, created_at, updated_at';

/** The columns of an attempt as presented (AttemptRow). */
const ATTEMPT_COLUMNS = ['number', 'attempted_at', 'status_code', 'response_snippet', 'duration_ms', 'error'];

const isUuid = (id: string) => z.uuid().safeParse(id).success;

type Db = MikroORM | EntityManager;
const emOf = (db: Db) => (db instanceof MikroORM ? db.em.fork() : db);

const live = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode, deletedAt: null });

/** The row shape the presenters read. */
export const subscriptionRow = (s: WebhookSubscription): SubscriptionRow => ({
  id: s.id,
  mode: s.mode,
  url: s.url,
  event_types: s.eventTypes,
  headers: s.headers,
  description: s.description ?? null,
  status: s.status,
  disabled_reason: s.disabledReason ?? null,
  disabled_at: s.disabledAt ?? null,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

/** A live (not deleted) subscription of the caller, optionally locked for `em`'s transaction; 404 otherwise. */
export async function findSubscriptionEntity(
  db: Db,
  who: Scope,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<WebhookSubscription> {
  const sub = isUuid(id)
    ? await emOf(db).findOne(
        WebhookSubscription,
        { ...live(who), id },
        opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
      )
    : null;
  if (!sub) throw notFound('webhook subscription');
  return sub;
}

/** A live subscription of the caller as a row (with its encrypted secrets when asked); 404 otherwise. */
export async function findSubscription(
  db: Db,
  who: Scope,
  id: string,
  opts: { withSecret?: boolean } = {},
): Promise<SubscriptionRow & { secret_enc?: string; previous_secrets?: PreviousSecret[] }> {
  const sub = await findSubscriptionEntity(db, who, id);
  return opts.withSecret
    ? { ...subscriptionRow(sub), secret_enc: sub.secretEnc, previous_secrets: sub.previousSecrets }
    : subscriptionRow(sub);
}

export async function pageSubscriptions(
  db: Db,
  who: Scope,
  range: KeysetRange<string>,
): Promise<SubscriptionRow[]> {
  const subs = await emOf(db).find(WebhookSubscription, ...keysetFind(range, live(who)));
  return subs.map(subscriptionRow);
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
    `select ${ATTEMPT_COLUMNS.join(', ')} from webhook_attempts where delivery_id = $1 order by id`,
    [deliveryId],
  );
  return rows;
}

/** Many deliveries of the caller's workspace and mode with their bodies, in one statement; unknown ids are absent. */
export async function findDeliveries(
  sql: Sql,
  who: Principal,
  ids: readonly string[],
): Promise<(DeliveryRow & { body: string })[]> {
  const uuids = ids.filter(isUuid);
  if (!uuids.length) return [];
  const { rows } = await sql.query<DeliveryRow & { body: string }>(
    `select ${DELIVERY_COLUMNS}, body from webhook_deliveries
      where id = any($1::uuid[]) and workspace_id = $2 and mode = $3`,
    [uuids, who.workspaceId, who.mode],
  );
  return rows;
}

/** The attempts of many deliveries of the caller's workspace and mode, oldest first, in one statement. */
export async function attemptsOfMany(
  sql: Sql,
  who: Scope,
  deliveryIds: readonly string[],
): Promise<(AttemptRow & { delivery_id: string })[]> {
  const uuids = deliveryIds.filter(isUuid);
  if (!uuids.length) return [];
  const { rows } = await sql.query<AttemptRow & { delivery_id: string }>(
    `select a.delivery_id, ${ATTEMPT_COLUMNS.map((c) => `a.${c}`).join(', ')}
       from webhook_attempts a
       join webhook_deliveries d on d.id = a.delivery_id
      where a.delivery_id = any($1::uuid[]) and d.workspace_id = $2 and d.mode = $3
      order by a.id`,
    [uuids, who.workspaceId, who.mode],
  );
  return rows;
}

/**
 * The newest `limit` deliveries, with their bodies, of the results (outbox rows) that name this
 * participant (`data.participant.external_id`): the subject-access export's. Scans the workspace's
 * results (no index on the JSON; the export is rare), then reads deliveries by
 * `webhook_deliveries_outbox_idx`.
 */
export async function deliveriesNaming(
  sql: Sql,
  who: Scope,
  externalId: string,
  limit: number,
): Promise<(DeliveryRow & { body: string })[]> {
  const { rows } = await sql.query<DeliveryRow & { body: string }>(
    `select ${DELIVERY_COLUMNS}, body from webhook_deliveries
      where workspace_id = $1 and mode = $2
        and outbox_id in (select o.id from outbox o
                           where o.workspace_id = $1 and o.mode = $2 and o.data->'participant'->>'external_id' = $3)
      order by id desc limit $4`,
    [who.workspaceId, who.mode, externalId, limit],
  );
  return rows;
}

/** Where a subscription change is announced (on commit), so dispatchers drop what they queued for it. */
export const SUBSCRIPTIONS_CHANNEL = 'svc_webhook_subscriptions';

/** Postgres' NOTIFY (no ORM equivalent), delivered when `em`'s transaction commits. */
export async function announceSubscriptionChange(em: EntityManager, subscriptionId: string): Promise<void> {
  await em.execute(`select pg_notify('${SUBSCRIPTIONS_CHANNEL}', ?)`, [subscriptionId]);
}

/**
 * A paused or removed subscription's pending deliveries die at once (docs/api.md#webhooks). An
 * attempt already in flight keeps its claim, so its outcome is still recorded; nothing new is sent.
 */
export function killPendingDeliveries(
  em: EntityManager,
  subscriptionId: string,
  why: string,
): Promise<number> {
  return em.nativeUpdate(
    WebhookDelivery,
    { subscription: subscriptionId, status: 'pending' },
    { status: 'dead', nextAttemptAt: null, lastError: why, updatedAt: new Date() },
  );
}

/** A delivery's status and its subscription's, its row locked for the caller's transaction. */
export async function lockDelivery(
  sql: Sql,
  deliveryId: string,
): Promise<{ status: string; sub_status: string; deleted: boolean }> {
  const { rows } = await sql.query<{ status: string; sub_status: string; deleted: boolean }>(
    `select d.status, s.status as sub_status, s.deleted_at is not null as deleted
     from webhook_deliveries d join webhook_subscriptions s on s.id = d.subscription_id
     where d.id = $1 for update of d`,
    [deliveryId],
  );
  return rows[0]!;
}

/** A delivery back to `pending`, due now, its attempt count reset. */
export async function rearmDelivery(sql: Sql, deliveryId: string): Promise<void> {
  await sql.query(
    `update webhook_deliveries set status = 'pending', attempt_count = 0, next_attempt_at = now(),
       claim_token = null, last_error = null, updated_at = now() where id = $1`,
    [deliveryId],
  );
}

/** Wakes the dispatchers when the caller's transaction commits. */
export async function wakeDispatchers(sql: Sql): Promise<void> {
  await sql.query(`select pg_notify('${DELIVERIES_CHANNEL}', '')`);
}

/**
 * Every dead delivery of a subscription created in [since, until] back to `pending` with its attempt
 * count reset (docs/webhooks.md#recover), due now in creation order: a microsecond apart, so the
 * dispatcher's oldest-due-first claim sends the oldest first. Answers how many.
 */
export async function recoverDeadDeliveries(
  sql: Sql,
  subscriptionId: string,
  since: Date,
  until: Date,
): Promise<number> {
  const { rowCount } = await sql.query(
    `update webhook_deliveries d set status = 'pending', attempt_count = 0, claim_token = null,
       last_error = null, updated_at = now(), next_attempt_at = now() + make_interval(secs => r.n / 1e6)
     from (select id, row_number() over (order by created_at, id) - 1 as n
             from (select id, created_at from webhook_deliveries
                    where subscription_id = $1 and status = 'dead' and created_at >= $2 and created_at <= $3
                    for update) dead) r
     where d.id = r.id`,
    [subscriptionId, since, until],
  );
  return rowCount ?? 0;
}
