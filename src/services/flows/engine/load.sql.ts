// Raw SQL: the engine's reads of a batch (bench suite `engine`): the participants locked `for update` in
// id order, then everything else in one named statement of materialized CTEs, one round trip under load.
import type { Sql } from '../../../db/tx.ts';
import type { Mode } from '../../keys/principal.ts';
import type { ParticipantRow } from '../../participants/presenters.ts';
import { activeMultipliersSql } from '../../rewards/multiplier.ts';
import { type StandingRow, standingColumns } from '../../tiers/standing.sql.ts';
import type { FlowAction } from '../flow-schemas.ts';
import type { RunRow } from './types.ts';

/** A locked participant as the lock statement reads it. */
export type LockedRow = Pick<
  ParticipantRow,
  'id' | 'external_id' | 'email' | 'phone' | 'name' | 'balance' | 'lifetime_points' | 'timezone'
> & { workspace_id: string; mode: Mode } & StandingRow;

const LOCKED_COLUMNS = `p.id, p.workspace_id, p.mode, p.external_id, p.email, p.phone, p.name, p.timezone, p.balance,
            ${standingColumns('p')}`;

/**
 * Locks the participants of the batch's still-`received` events, in id order (the order
 * `recordEarnings` and every other batch writer uses, so concurrent workers never deadlock).
 */
export async function lockParticipantRows(sql: Sql, eventIds: string[]): Promise<LockedRow[]> {
  const { rows } = await sql.query<LockedRow>({
    // Named (prepared once per connection): the engine's hot statements skip parse and plan.
    name: 'engine_lock_participants',
    text: `select ${LOCKED_COLUMNS}
       from participants p
      where p.id in (select participant_id from events where id = any($1::uuid[]) and status = 'received')
      order by p.id
        for update`,
    values: [eventIds],
  });
  return rows;
}

/**
 * Locks these participants in id order, as {@link lockParticipantRows} does, skipping those another
 * transaction holds (an engine batch, or another worker's inactivity job: docs/engagement.md#inactivity).
 */
export async function lockParticipantRowsById(sql: Sql, ids: number[]): Promise<LockedRow[]> {
  const { rows } = await sql.query<LockedRow>(
    `select ${LOCKED_COLUMNS}
       from participants p
      where p.id = any($1::bigint[])
      order by p.id
        for update skip locked`,
    [ids],
  );
  return rows;
}

/** A badge as the engine awards it. */
export interface BadgeKeyRow {
  id: number | string;
  workspace_id: string;
  mode: string;
  key: string;
  name: string;
}

/** The columns of a {@link BadgeKeyRow}, in one place: a field renamed there fails here. */
const BADGE_KEY: Record<keyof BadgeKeyRow, true> = {
  id: true,
  workspace_id: true,
  mode: true,
  key: true,
  name: true,
};
const badgeKeyColumns = (alias: string) =>
  Object.keys(BADGE_KEY)
    .map((c) => `${alias}.${c}`)
    .join(', ');

/** The one read of a batch, as JSON arrays (json_agg renders timestamptz as ISO text). */
export interface BatchRows {
  events: {
    id: string;
    workspace_id: string;
    mode: Mode;
    event_type: string;
    participant_id: number | string;
    payload: Record<string, unknown> | null;
    occurred_at: string;
    referral_code: string | null;
    /** Whether the statement that wrote the event created its participant (asked only with a code). */
    creates_participant: boolean | null;
  }[];
  flows: {
    id: string;
    workspace_id: string;
    mode: Mode;
    name: string;
    event_type: string;
    conditions: unknown;
    actions: FlowAction[];
    max_runs_per_participant: number | null;
  }[];
  runs: { id: string; event_id: string; flow_id: string; status: RunRow['status']; steps: RunRow['steps'] }[];
  counts: { participant_id: number; event_type: string; count: number }[];
  multipliers: { participant_id: number; factor: number | string }[];
  /** How many badge keys the flows award: more than `badges` means some are not defined yet. */
  badge_keys: number;
  badges: BadgeKeyRow[];
  holdings: { participant_id: number; badge_id: number; tier: string }[];
  run_counts: { flow_id: string; participant_id: number; n: number }[];
  /**
   * Per participant with more earlier events waiting than the batch takes in, the first one it
   * leaves: `[participant id, event id]`. Its own events after that wait for a later batch.
   */
  stops: [number | string, string][];
}

/** An event's columns as the engine reads them. */
const EVENT_COLUMNS = (e: string) =>
  ['id', 'workspace_id', 'mode', 'event_type', 'participant_id', 'payload', 'occurred_at', 'referral_code']
    .map((c) => `${e}.${c}`)
    .join(', ');

/**
 * Whether the ingest statement that wrote the event created its participant (docs/referrals.md#attribution):
 * both rows take `now()`, the statement's transaction start, so their times are equal exactly
 * then. Asked only of events that carry a referral code.
 */
const createsParticipant = (e: string) =>
  `case when ${e}.referral_code is not null then exists (
     select 1 from participants p where p.id = ${e}.participant_id and p.created_at = ${e}.received_at) end as creates_participant`;

/**
 * Everything a batch reads after its participant locks, in ONE round trip: the events still
 * `received` (`$1`, of the participants `$2`), with, when `$5`, the participants' earlier events
 * still `received` from `$4` on, at most `$6` a participant (see loadBatch, `stops`); the active
 * flows of their types, prior runs, event counts, multipliers active at `$3`, the badges those
 * flows award, the participants' holdings of them and run counts for limited flows.
 *
 * The batch's rows drive the per-event and per-participant reads as index probes, one per row
 * (`ev cross join lateral (… where r.event_id = ev.id offset 0)`), never as `= any(array)`
 * conditions on the probed table nor as plain joins: as a filter the array is tested against every
 * scanned row (500 participants × every holder of a badge), as an index condition inside a nested
 * loop it is sorted again for every outer row (500 × 500 event ids), and a plain join lets a
 * generic plan made while a table was near empty (statistics taken before a backlog was
 * processed) scan flow_runs whole for every event of the batch: 41 s a batch in the
 * `integrators` bench. `offset 0` keeps each lateral subquery a probe the planner cannot turn
 * back into a join. The earlier events are a range of events_received_idx per participant, which
 * holds only events still `received`: a range of events_participant_idx walked every event the
 * participant had processed since `$4`, hundreds a participant in a backlog.
 */
export async function loadBatchRows(
  sql: Sql,
  values: [
    eventIds: string[],
    participantIds: number[],
    at: Date,
    floor: string,
    pullEarlier: boolean,
    pullLimit: number,
  ],
): Promise<BatchRows> {
  const { rows } = await sql.query<BatchRows>({
    name: 'engine_load_batch',
    text: `with own as materialized (
         select ${EVENT_COLUMNS('events')}, ${createsParticipant('events')}
           from events
          where id = any($1::uuid[]) and status = 'received' and event_type is not null
            and participant_id = any($2::bigint[])
       ), pulled as materialized (
         -- Per participant, its first earlier events still received (not the batch's own, none
         -- with a failed run: a scalar probe per row, which no plan turns into a scan of flow_runs
         -- for every participant), numbered: $6 of them and one more, where the batch stops.
         select x.*
           from (select participant_id, (array_agg(id order by id desc))[1] as upto, array_agg(id) as ids
                   from own group by participant_id) b
          cross join lateral (
            select ${EVENT_COLUMNS('e')}, ${createsParticipant('e')}, row_number() over (order by e.id) as rn
              from events e
             where e.participant_id = b.participant_id and e.id >= $4::uuid and e.id < b.upto
               and e.status = 'received' and e.event_type is not null and e.id <> all(b.ids)
               and (select 1 from flow_runs r where r.event_id = e.id and r.status = 'failed' limit 1) is null
             order by e.id
             limit $6::int + 1) x
          where $5::boolean
       ), ev as materialized (
         -- The batch's own events (loadBatch leaves those after a participant's stop for later)
         -- and the earlier ones before each stop.
         select * from own
         union all
         select ${EVENT_COLUMNS('p')}, p.creates_participant from pulled p where p.rn <= $6::int
       ), f as materialized (
         select f.id, f.workspace_id, f.mode, f.name, f.event_type, f.conditions, f.actions, f.max_runs_per_participant
           from flows f
          where (f.workspace_id, f.mode, f.event_type) in (select distinct workspace_id, mode, event_type from ev)
            and f.active and f.deleted_at is null
       ), bk as materialized (
         select distinct f.workspace_id, f.mode, a->>'badge' as key
           from f cross join jsonb_array_elements(f.actions) a
          where a->>'type' = 'award_badge'
       ), b as materialized (
         select ${badgeKeyColumns('b')}
           from badges b join bk on b.workspace_id = bk.workspace_id and b.mode = bk.mode and b.key = bk.key
       )
       select
         (select coalesce(json_agg(ev order by ev.id), '[]') from ev) as events,
         (select coalesce(json_agg(json_build_array(p.participant_id, p.id)), '[]') from pulled p where p.rn > $6::int) as stops,
         (select coalesce(json_agg(f order by f.id), '[]') from f) as flows,
         (select coalesce(json_agg(r), '[]') from (
            select r.*
              from ev cross join lateral (
                select r.id, r.event_id, r.flow_id, r.status, r.steps from flow_runs r where r.event_id = ev.id offset 0) r) r) as runs,
         (select coalesce(json_agg(c), '[]') from (
            select c.*
              from unnest($2::bigint[]) q(id) cross join lateral (
                select c.participant_id, c.event_type, c.count from participant_event_counts c
                 where c.participant_id = q.id offset 0) c) c) as counts,
         (select coalesce(json_agg(m), '[]') from (
            ${activeMultipliersSql('$2::bigint[]', '$3::timestamptz')}) m) as multipliers,
         (select count(*)::int from bk) as badge_keys,
         (select coalesce(json_agg(b), '[]') from b) as badges,
         (select coalesce(json_agg(h), '[]') from (
            select h.*
              from b cross join unnest($2::bigint[]) q(id) cross join lateral (
                select pb.participant_id, pb.badge_id, pb.tier from participant_badges pb
                 where pb.participant_id = q.id and pb.badge_id = b.id offset 0) h) h) as holdings,
         (select coalesce(json_agg(c), '[]') from (
            select f.id as flow_id, q.id as participant_id, c.n
              from f cross join unnest($2::bigint[]) q(id) cross join lateral (
                select count(*) as n from flow_runs r where r.participant_id = q.id and r.flow_id = f.id) c
             where f.max_runs_per_participant is not null and c.n > 0) c) as run_counts`,
    values,
  });
  return rows[0]!;
}

export type BadgeKey = { workspaceId: string; mode: string; key: string };

/** The badges of these keys that exist. */
export async function badgesByKey(sql: Sql, keys: BadgeKey[]): Promise<BadgeKeyRow[]> {
  const { rows } = await sql.query<BadgeKeyRow>(
    `select ${badgeKeyColumns('b')} from badges b
       join unnest($1::uuid[], $2::text[], $3::text[]) k(w, m, key)
         on b.workspace_id = k.w and b.mode = k.m and b.key = k.key`,
    [keys.map((w) => w.workspaceId), keys.map((w) => w.mode), keys.map((w) => w.key)],
  );
  return rows;
}

/** Creates the badges of these keys, named after their keys, with the tier given ('' for none). */
export async function insertBadges(sql: Sql, badges: (BadgeKey & { tier: string })[]): Promise<void> {
  await sql.query(
    `insert into badges (workspace_id, mode, key, name, tiers)
     select w, m, key, key, case when tier = '' then '[]'::jsonb else jsonb_build_array(tier) end
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) k(w, m, key, tier)
     on conflict (workspace_id, mode, key) do nothing`,
    [
      badges.map((w) => w.workspaceId),
      badges.map((w) => w.mode),
      badges.map((w) => w.key),
      badges.map((w) => w.tier),
    ],
  );
}

/** Which of these ledger keys of one workspace and mode are already written. */
export async function ledgerKeysIn(
  sql: Sql,
  workspaceId: string,
  mode: string,
  keys: string[],
): Promise<string[]> {
  const { rows } = await sql.query<{ idempotency_key: string }>(
    `select idempotency_key from ledger_entries where workspace_id = $1 and mode = $2 and idempotency_key = any($3::text[])`,
    [workspaceId, mode, keys],
  );
  return rows.map((r) => r.idempotency_key);
}
