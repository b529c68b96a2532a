// Raw SQL: a simulation's stand-ins (docs/api.md#simulation), written on the connection of its
// transaction, which is always rolled back: the engine's batch (engine/batch.ts) then finds them as
// it finds an accepted event. One statement, so a simulation costs one round trip before the
// engine's own (bench: simulation p99 < 20 ms).
import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';

/** The event to simulate and, when given, the unsaved flow, as their rows are written. */
export interface StandIn {
  workspaceId: string;
  mode: Mode;
  eventId: string;
  eventType: string;
  externalId: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  timezone: string | null;
  referralCode: string | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
  flow: {
    id: string;
    name: string;
    conditions: unknown;
    actions: unknown[];
    maxRuns: number | null;
  } | null;
}

export interface StandInRow {
  /** Null when a concurrent statement created the participant after this one's snapshot: write again. */
  participant_id: string | null;
  existed: boolean;
  /** The event type's JSON Schema and its version (as the ingest's schema cache keys it), or null. */
  schema: object | null;
  schema_version: string | null;
}

/**
 * The participant as ingest would leave it (created on first sight, contact fields filled only
 * where empty, the time zone replaced; a row that gains nothing is not written), the event as
 * `received` with the participant it names, and the unsaved flow as an active flow of the
 * event's type. Answers whether the participant existed before, and the event type's schema.
 */
export async function writeStandIns(sql: Sql, s: StandIn): Promise<StandInRow> {
  const { rows } = await sql.query<StandInRow>({
    name: 'simulate_stand_ins',
    text: `with existing as (
         select id from participants where workspace_id = $1::uuid and mode = $2::text and external_id = $3::text
       ), upserted as (
         insert into participants as p (workspace_id, mode, external_id, email, phone, name, timezone)
         values ($1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text)
         on conflict (workspace_id, mode, external_id) do update
            set email = coalesce(p.email, excluded.email),
                phone = coalesce(p.phone, excluded.phone),
                name = coalesce(p.name, excluded.name),
                timezone = coalesce(excluded.timezone, p.timezone),
                updated_at = now()
          where (p.email is null and excluded.email is not null)
             or (p.phone is null and excluded.phone is not null)
             or (p.name is null and excluded.name is not null)
             or (excluded.timezone is not null and p.timezone is distinct from excluded.timezone)
         returning p.id
       ), known as (
         select id from upserted union all select id from existing where not exists (select 1 from upserted)
       ), inserted as (
         insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                             status, source, referral_code)
         select $8::uuid, $1::uuid, $2::text, $9::text, k.id, $3::text, $10::jsonb, $11::timestamptz, 'received', 'api',
                $12::text
           from known k
         returning participant_id
       ), flow as (
         insert into flows (id, workspace_id, mode, name, event_type, conditions, actions, active, max_runs_per_participant)
         select $13::uuid, $1::uuid, $2::text, $14::text, $9::text, $15::jsonb, $16::jsonb, true, $17::int
          where $13::uuid is not null
       )
       select (select participant_id from inserted) as participant_id,
              exists (select 1 from existing) as existed,
              t.schema,
              case when t.schema is not null then (extract(epoch from t.updated_at) * 1000000)::bigint::text end
                as schema_version
         from (select 1) one
         left join event_types t on t.workspace_id = $1::uuid and t.mode = $2::text and t.key = $9::text`,
    values: [
      s.workspaceId,
      s.mode,
      s.externalId,
      s.email,
      s.phone,
      s.name,
      s.timezone,
      s.eventId,
      s.eventType,
      JSON.stringify(s.payload),
      s.occurredAt,
      s.referralCode,
      s.flow?.id ?? null,
      s.flow?.name ?? null,
      s.flow?.conditions == null ? null : JSON.stringify(s.flow.conditions),
      s.flow ? JSON.stringify(s.flow.actions) : null,
      s.flow?.maxRuns ?? null,
    ],
  });
  return rows[0]!;
}

/**
 * The badges this transaction awarded the participant (flows, achievements, a referral's friend
 * actions), in award order: rows whose inserting transaction is this one, on the participant's
 * index of holdings.
 */
export async function badgesAwardedHere(
  sql: Sql,
  participantId: number,
): Promise<{ key: string; tier: string }[]> {
  const { rows } = await sql.query<{ key: string; tier: string }>({
    name: 'simulate_badges_awarded',
    text: `select b.key, pb.tier
       from participant_badges pb join badges b on b.id = pb.badge_id
      where pb.participant_id = $1 and pb.xmin = pg_current_xact_id()::xid
      order by pb.id`,
    values: [participantId],
  });
  return rows;
}
