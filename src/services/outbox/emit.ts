import { isoJsonSql } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';

// Raw SQL: one statement per batch of results, inside the caller's ledger, engine or redemption
// transaction on its pg client (bench suites `engine`, `webhooks`): `unnest` rows, SQL-made UUIDv7s and a
// `pg_notify` delivered on commit.

/** The result types of SPEC 6.1 (plus `webhook.test`, which is sent directly, never stored). */
export type ResultType =
  | 'badge.awarded'
  | 'points.changed'
  | 'reward.redeemed'
  | 'flow.completed'
  | 'message.sent';

export const RESULT_TYPES: readonly ResultType[] = [
  'badge.awarded',
  'points.changed',
  'reward.redeemed',
  'flow.completed',
  'message.sent',
];

export interface ResultToEmit {
  workspaceId: string;
  mode: Mode;
  type: ResultType;
  /** The `data` object of the delivery body, in the shapes of CONTRACT 10. */
  data: Record<string, unknown>;
}

/** The channel a committed live delivery is announced on; the dispatchers LISTEN to it. */
export const DELIVERIES_CHANNEL = 'svc_webhook_deliveries';

/**
 * One statement for any number of results: their outbox rows, and one delivery per active
 * subscription of the workspace and mode whose `event_types` name the type (or `*`), each with
 * its body bytes fixed here (they are signed and sent unchanged on every attempt). Live
 * deliveries are due at once and a NOTIFY wakes the dispatchers — Postgres delivers it only on
 * COMMIT, so a rolled-back change sends nothing. Test-mode deliveries are `simulated`: logged,
 * never POSTed (SPEC 6.4.7).
 *
 * The delivery id is a UUIDv7 made in SQL (the number of matching subscriptions is only known
 * there); the body is concatenated rather than built with json_build_object so its bytes are
 * compact and key order is exactly `id, type, tenant, created_at, data` (`data` is the caller's
 * JSON.stringify output, byte for byte).
 */
const EMIT_SQL = (() => {
  const { ctes, notify } = emitResultsCtes('r');
  return `
with r as (
  select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[]) with ordinality
    as r(id, workspace_id, mode, type, data, ord)
), ${ctes}
select ${notify} as notified
`;
})();

/**
 * Records results in the outbox and fans them out to the matching webhook subscriptions, in one
 * statement whatever their number. Call it with the transaction that makes the change, so the
 * results commit (and are delivered) exactly when the change does. Returns the outbox ids, in order.
 */
export async function emitResults(sql: Sql, results: readonly ResultToEmit[]): Promise<string[]> {
  if (results.length === 0) return [];
  const ids = results.map(() => uuidv7());
  await sql.query(EMIT_SQL, [
    ids,
    results.map((r) => r.workspaceId),
    results.map((r) => r.mode),
    results.map((r) => r.type),
    results.map((r) => JSON.stringify(r.data)),
  ]);
  return ids;
}

/** One result: {@link emitResults} with one element. Returns its outbox id. */
export async function emitResult(sql: Sql, result: ResultToEmit): Promise<string> {
  const [id] = await emitResults(sql, [result]);
  return id!;
}

/**
 * {@link emitResults} as CTEs, for a caller whose results are made inside its own statement (a
 * chain of data-modifying CTEs that commits on its own, e.g. a redemption: ids and timestamps of
 * its rows only exist there). `source` names a relation of that statement with the columns of
 * EMIT_SQL's `r`: `id uuid, workspace_id uuid, mode text, type text, data text, ord int`, `data`
 * being compact JSON text (the delivery body's `data` bytes). The same outbox rows and deliveries
 * as {@link emitResults}; `prefix` names the CTEs (`<prefix>_o`, `_m`, `_d`). The caller puts
 * `notify` in its final SELECT list (a boolean; Postgres sends the NOTIFY only on COMMIT).
 */
export function emitResultsCtes(source: string, prefix = 'emit'): { ctes: string; notify: string } {
  const [o, m, d] = [`${prefix}_o`, `${prefix}_m`, `${prefix}_d`];
  const ctes = `${o} as (
  insert into outbox (id, workspace_id, mode, type, data)
  select id, workspace_id, mode, type, data::jsonb from ${source} order by ord
  returning id, workspace_id, mode, type, created_at
), ${m} as (
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
           substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
           from 1 for 6), 52, 1), 53, 1), 'hex')::uuid as id,
         s.id as subscription_id, o.id as outbox_id, o.workspace_id, o.mode, o.type, o.created_at, r.data, r.ord
  from ${o} o
  join ${source} r on r.id = o.id
  join webhook_subscriptions s
    on s.workspace_id = o.workspace_id and s.mode = o.mode and s.status = 'active'
   and s.deleted_at is null and (s.event_types ? o.type or s.event_types ? '*')
), ${d} as (
  insert into webhook_deliveries (id, workspace_id, mode, subscription_id, outbox_id, type, body, status, next_attempt_at)
  select m.id, m.workspace_id, m.mode, m.subscription_id, m.outbox_id, m.type,
         '{"id":"' || m.id || '","type":' || to_json(m.type::text)::text
           || ',"tenant":' || to_json(w.slug::text)::text
           || ',"created_at":' || ${isoJsonSql('m.created_at')}
           || ',"data":' || m.data || '}',
         case when m.mode = 'live' then 'pending' else 'simulated' end,
         case when m.mode = 'live' then now() end
  from ${m} m join workspaces w on w.id = m.workspace_id
  order by m.ord
  returning status
)`;
  const notify = `((select pg_notify('${DELIVERIES_CHANNEL}', '') from ${d} where ${d}.status = 'pending' limit 1) is not null)`;
  return { ctes, notify };
}
