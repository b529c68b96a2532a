import { isoJsonSql } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';

// Raw SQL: one statement per batch of results, inside the caller's ledger, engine or redemption
// transaction (bench suites `engine`, `webhooks`, `rewards`): `unnest` rows, UUIDv7s made in SQL
// and a `pg_notify` that Postgres delivers on commit only.

/** A UUIDv7 made in SQL: the current millisecond leads, then version and variant bits, then random bits. */
export const UUIDV7_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
           substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
           from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;

/** The channel a committed live delivery is announced on; the dispatchers LISTEN to it. */
export const DELIVERIES_CHANNEL = 'svc_webhook_deliveries';

/**
 * The columns a relation of results must have for {@link emitResultsCtes}: `data` is compact
 * JSON text (the delivery body's `data` bytes), `ord` their order.
 */
export type ResultsRelationColumns = 'id' | 'workspace_id' | 'mode' | 'type' | 'data' | 'ord';

/** The emit builder's CTEs, and the boolean the caller puts in its final SELECT list. */
export interface EmitCtes {
  ctes: string;
  /** True when a live delivery was made (Postgres sends the NOTIFY only on COMMIT). */
  notify: string;
}

/**
 * Results as CTEs, for a caller whose results are made inside its own statement (a chain of
 * data-modifying CTEs that commits on its own, e.g. a redemption: ids and timestamps of its rows
 * only exist there). `source` names a relation of that statement with the columns
 * {@link ResultsRelationColumns} (`id uuid, workspace_id uuid, mode text, type text, data text,
 * ord int`). Writes the outbox rows, and one delivery per active subscription of the workspace
 * and mode whose `event_types` name the type (or `*`), its body bytes fixed here (they are
 * signed and sent unchanged on every attempt). Live deliveries are due at once; test-mode ones
 * are `simulated`: logged, never POSTed. `prefix` names the CTEs (`<prefix>_o`, `_m`, `_d`).
 *
 * The delivery id is a UUIDv7 made in SQL (the number of matching subscriptions is only known
 * there); the body is concatenated rather than built with json_build_object so its bytes are
 * compact and key order is exactly `id, type, tenant, created_at, data`.
 */
export function emitResultsCtes(source: string, prefix = 'emit'): EmitCtes {
  const [o, m, d] = [`${prefix}_o`, `${prefix}_m`, `${prefix}_d`];
  const ctes = `${o} as (
  insert into outbox (id, workspace_id, mode, type, data)
  select id, workspace_id, mode, type, data::jsonb from ${source} order by ord
  returning id, workspace_id, mode, type, created_at
), ${m} as (
  select ${UUIDV7_SQL} as id,
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

/** One result row as the statement takes it: `data` is its JSON text. */
export interface ResultRow {
  id: string;
  workspaceId: string;
  mode: string;
  type: string;
  data: string;
}

/** Writes the results and their deliveries in one statement. */
export async function insertResults(sql: Sql, rows: readonly ResultRow[]): Promise<void> {
  await sql.query(EMIT_SQL, [
    rows.map((r) => r.id),
    rows.map((r) => r.workspaceId),
    rows.map((r) => r.mode),
    rows.map((r) => r.type),
    rows.map((r) => r.data),
  ]);
}
