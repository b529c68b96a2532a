import type { Sql } from '../../../db/tx.ts';
import { uuidv7Floor, uuidv7Time } from '../../../lib/uuid7.ts';
import type { Mode } from '../../keys/principal.ts';
import { groupKeys } from '../../ledger/post-credits.ts';
import { activeMultipliersSql } from '../../rewards/multiplier.ts';
import type { FlowAction } from '../flow-schemas.ts';
import {
  type BadgeRow,
  type EventRow,
  type FlowRow,
  flowKey,
  type ParticipantState,
  type RunRow,
} from './types.ts';

/**
 * Locks the participants of the batch's still-`received` events, in id order (the order
 * `recordEarnings` and every other batch writer uses, so concurrent workers never deadlock).
 * Holding these locks is what makes balances, counts and run limits exact across workers.
 */
export async function lockParticipants(sql: Sql, eventIds: string[]): Promise<Map<number, ParticipantState>> {
  const { rows } = await sql.query<{
    id: string;
    workspace_id: string;
    mode: Mode;
    external_id: string;
    email: string | null;
    phone: string | null;
    name: string | null;
    balance: string;
    lifetime_points: string;
  }>({
    // Named (prepared once per connection): the engine's hot statements skip parse and plan.
    name: 'engine_lock_participants',
    text: `select id, workspace_id, mode, external_id, email, phone, name, balance, lifetime_points
       from participants
      where id in (select participant_id from events where id = any($1::uuid[]) and status = 'received')
      order by id
        for update`,
    values: [eventIds],
  });
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        workspaceId: r.workspace_id,
        mode: r.mode,
        externalId: r.external_id,
        email: r.email,
        phone: r.phone,
        name: r.name,
        balance: Number(r.balance),
        lifetime: Number(r.lifetime_points),
        counts: new Map(),
      },
    ]),
  );
}

/**
 * The badges the batch's flows award, keyed `workspace/mode/key`; a key no one defined yet is
 * created here (CONTRACT 7), named after its key.
 */
export async function ensureBadges(
  sql: Sql,
  wanted: { workspaceId: string; mode: string; key: string; tier: string }[],
): Promise<Map<string, BadgeRow>> {
  const uniq = new Map<string, (typeof wanted)[number]>();
  for (const w of wanted) {
    const k = `${w.workspaceId}/${w.mode}/${w.key}`;
    if (!uniq.has(k) || (w.tier && !uniq.get(k)!.tier)) uniq.set(k, w);
  }
  const list = [...uniq.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = new Map<string, BadgeRow>();
  if (!list.length) return out;
  const cols = [list.map((w) => w.workspaceId), list.map((w) => w.mode), list.map((w) => w.key)];
  const select = `select b.id, b.workspace_id, b.mode, b.key, b.name from badges b
       join unnest($1::uuid[], $2::text[], $3::text[]) k(w, m, key)
         on b.workspace_id = k.w and b.mode = k.m and b.key = k.key`;
  let { rows } = await sql.query<{
    id: string;
    workspace_id: string;
    mode: string;
    key: string;
    name: string;
  }>(select, cols);
  if (rows.length < list.length) {
    const have = new Set(rows.map((r) => `${r.workspace_id}/${r.mode}/${r.key}`));
    const missing = list.filter((w) => !have.has(`${w.workspaceId}/${w.mode}/${w.key}`));
    await sql.query(
      `insert into badges (workspace_id, mode, key, name, tiers)
       select w, m, key, key, case when tier = '' then '[]'::jsonb else jsonb_build_array(tier) end
         from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) k(w, m, key, tier)
       on conflict (workspace_id, mode, key) do nothing`,
      [
        missing.map((w) => w.workspaceId),
        missing.map((w) => w.mode),
        missing.map((w) => w.key),
        missing.map((w) => w.tier),
      ],
    );
    ({ rows } = await sql.query(select, cols));
  }
  for (const r of rows)
    out.set(`${r.workspace_id}/${r.mode}/${r.key}`, { id: Number(r.id), key: r.key, name: r.name });
  return out;
}

/** Ledger keys already written (only asked when an earlier attempt's run is resumed). */
export async function loadLedgerKeys(
  sql: Sql,
  keys: { workspaceId: string; mode: string; key: string }[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const [scope, list] of groupKeys(keys.map((k) => ({ ...k, idempotencyKey: k.key })))) {
    const [w, m] = scope.split('/');
    const { rows } = await sql.query<{ idempotency_key: string }>(
      `select idempotency_key from ledger_entries where workspace_id = $1 and mode = $2 and idempotency_key = any($3::text[])`,
      [w, m, list],
    );
    for (const r of rows) found.add(r.idempotency_key);
  }
  return found;
}

/** What one batch's evaluation reads, besides the locked participants. */
export interface BatchContext {
  /** The events still to process, oldest first (UUIDv7), so one participant's events apply in order. */
  events: EventRow[];
  flows: Map<string, FlowRow[]>;
  runs: Map<string, RunRow>;
  multipliers: Map<number, number>;
  counts: { participant_id: number; event_type: string; count: number }[];
  badges: Map<string, BadgeRow>;
  holdings: Set<string>;
  runCounts: Map<string, number>;
}

/**
 * How far before its own events a batch looks for earlier ones of its participants still
 * waiting in other batches (see {@link loadBatch}): concurrent batches are milliseconds apart, and
 * a bound keeps the lookup a short range of the (participant, id) index.
 */
const PULL_LOOKBACK_MS = 60_000;

/** The smallest UUIDv7 of the moment PULL_LOOKBACK_MS before the batch's oldest event. */
export function lookbackFloor(eventIds: string[]): string {
  let oldest = eventIds[0]!;
  for (const id of eventIds) if (id < oldest) oldest = id;
  return uuidv7Floor(new Date(uuidv7Time(oldest).getTime() - PULL_LOOKBACK_MS));
}

/**
 * Everything a batch reads after its participant locks, in ONE round trip (bench `engine`: under
 * load each round trip costs milliseconds, and a batch's latency is the sum of them): the events
 * still `received` (one another worker finished meanwhile is `processed` by now and drops out;
 * read after the locks, in a later statement, so its snapshot includes that commit), the active
 * flows of their types, prior runs, event counts, multipliers, the badges those flows award, the
 * participants' holdings of them and run counts for limited flows. A badge key no one defined yet
 * is created here (CONTRACT 7) and the read repeated: once per key, ever.
 *
 * With `pullEarlier`, the batch also takes in its participants' earlier events still `received`
 * in other batches (up to PULL_LOOKBACK_MS before its oldest): the locks are held, so they are
 * applied first, in id order, and drop out of their own batch later. Without it, a batch on one
 * worker could overtake a slower batch on another, and the 10th purchase be rewarded on the 8th.
 * Events with a failed run are left to their own job's retries; so is everything when a failed
 * batch is retried event by event (`pullEarlier` false), so one bad event holds back no other.
 *
 * The batch's rows drive the per-event and per-participant reads as joins (`ev join …`,
 * `unnest($2) join …`), never as `= any(array)` conditions on the probed table: as a filter the
 * array is tested against every scanned row (500 participants × every holder of a badge, or ×
 * every count row when a plan cached on a young table scans it), and as an index condition
 * inside a nested loop it is sorted again for every outer row (500 × 500 event ids). Either took
 * most of this statement's time in the `engine` bench (66–90 ms a batch of 500; 1–3 ms as joins).
 */
export async function loadBatch(
  sql: Sql,
  eventIds: string[],
  participantIds: number[],
  at: Date,
  pullEarlier = true,
): Promise<BatchContext> {
  const load = () =>
    sql.query<{
      events: RawEvent[];
      flows: RawFlow[];
      runs: RawRun[];
      counts: RawCount[];
      multipliers: RawMultiplier[];
      badge_keys: number;
      badges: RawBadge[];
      holdings: RawHolding[];
      run_counts: RawRunCount[];
    }>({
      name: 'engine_load_batch',
      text: `with own as materialized (
         select id, workspace_id, mode, event_type, participant_id, payload, occurred_at
           from events
          where id = any($1::uuid[]) and status = 'received' and event_type is not null
            and participant_id = any($2::bigint[])
       ), ev as materialized (
         select * from own
         union all
         select e.id, e.workspace_id, e.mode, e.event_type, e.participant_id, e.payload, e.occurred_at
           from (select distinct on (participant_id) participant_id, id as upto from own order by participant_id, id desc) b
           join events e on e.participant_id = b.participant_id and e.id >= $4::uuid and e.id < b.upto
          where $5::boolean and e.status = 'received' and e.event_type is not null
            and not exists (select 1 from own o where o.id = e.id)
            and not exists (select 1 from flow_runs r where r.event_id = e.id and r.status = 'failed')
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
         select b.id, b.workspace_id, b.mode, b.key, b.name
           from badges b join bk on b.workspace_id = bk.workspace_id and b.mode = bk.mode and b.key = bk.key
       )
       select
         (select coalesce(json_agg(ev order by ev.id), '[]') from ev) as events,
         (select coalesce(json_agg(f order by f.id), '[]') from f) as flows,
         (select coalesce(json_agg(r), '[]') from (
            select r.id, r.event_id, r.flow_id, r.status, r.steps
              from ev join flow_runs r on r.event_id = ev.id) r) as runs,
         (select coalesce(json_agg(c), '[]') from (
            select c.participant_id, c.event_type, c.count
              from unnest($2::bigint[]) q(id) join participant_event_counts c on c.participant_id = q.id) c) as counts,
         (select coalesce(json_agg(m), '[]') from (
            ${activeMultipliersSql('$2::bigint[]', '$3::timestamptz')}) m) as multipliers,
         (select count(*)::int from bk) as badge_keys,
         (select coalesce(json_agg(b), '[]') from b) as badges,
         (select coalesce(json_agg(h), '[]') from (
            select pb.participant_id, pb.badge_id, pb.tier
              from unnest($2::bigint[]) q(id) join participant_badges pb on pb.participant_id = q.id
             where pb.badge_id in (select id from b)) h) as holdings,
         (select coalesce(json_agg(c), '[]') from (
            select r.flow_id, r.participant_id, count(*) as n
              from unnest($2::bigint[]) q(id) join flow_runs r on r.participant_id = q.id
             where r.flow_id in (select id from f where max_runs_per_participant is not null)
             group by r.flow_id, r.participant_id) c) as run_counts`,
      values: [eventIds, participantIds, at, lookbackFloor(eventIds), pullEarlier],
    });
  let raw = (await load()).rows[0]!;
  if (raw.badges.length < raw.badge_keys) {
    // A key no one defined yet: created here (CONTRACT 7), then read again.
    await ensureBadges(
      sql,
      raw.flows.flatMap((f) =>
        f.actions.flatMap((a) =>
          a.type === 'award_badge'
            ? [{ workspaceId: f.workspace_id, mode: f.mode, key: a.badge, tier: a.tier ?? '' }]
            : [],
        ),
      ),
    );
    raw = (await load()).rows[0]!;
  }

  const events: EventRow[] = raw.events.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    mode: r.mode,
    eventType: r.event_type,
    participantId: Number(r.participant_id),
    payload: r.payload ?? {},
    occurredAt: new Date(r.occurred_at),
  }));
  const flows = new Map<string, FlowRow[]>();
  for (const r of raw.flows) {
    const flow: FlowRow = {
      id: r.id,
      workspaceId: r.workspace_id,
      mode: r.mode,
      name: r.name,
      eventType: r.event_type,
      conditions: r.conditions,
      actions: r.actions,
      maxRuns: r.max_runs_per_participant,
    };
    const k = flowKey(flow);
    flows.set(k, [...(flows.get(k) ?? []), flow]);
  }
  const runs = new Map(
    raw.runs.map((r) => [
      `${r.event_id}/${r.flow_id}`,
      { id: r.id, eventId: r.event_id, flowId: r.flow_id, status: r.status, steps: r.steps },
    ]),
  );
  return {
    events,
    flows,
    runs,
    multipliers: new Map(raw.multipliers.map((m) => [Number(m.participant_id), Number(m.factor)])),
    counts: raw.counts,
    badges: new Map(
      raw.badges.map((b) => [
        `${b.workspace_id}/${b.mode}/${b.key}`,
        { id: Number(b.id), key: b.key, name: b.name },
      ]),
    ),
    holdings: new Set(raw.holdings.map((h) => `${h.participant_id}/${h.badge_id}/${h.tier}`)),
    runCounts: new Map(raw.run_counts.map((c) => [`${c.flow_id}/${c.participant_id}`, Number(c.n)])),
  };
}

interface RawEvent {
  id: string;
  workspace_id: string;
  mode: Mode;
  event_type: string;
  participant_id: number | string;
  payload: Record<string, unknown> | null;
  /** ISO text: json_agg renders timestamptz as text. */
  occurred_at: string;
}
type RawBadge = { id: number; workspace_id: string; mode: string; key: string; name: string };
interface RawFlow {
  id: string;
  workspace_id: string;
  mode: Mode;
  name: string;
  event_type: string;
  conditions: unknown;
  actions: FlowAction[];
  max_runs_per_participant: number | null;
}
type RawRun = {
  id: string;
  event_id: string;
  flow_id: string;
  status: RunRow['status'];
  steps: RunRow['steps'];
};
type RawCount = { participant_id: number; event_type: string; count: number };
type RawMultiplier = { participant_id: number; factor: number | string };
type RawHolding = { participant_id: number; badge_id: number; tier: string };
type RawRunCount = { flow_id: string; participant_id: number; n: number };
