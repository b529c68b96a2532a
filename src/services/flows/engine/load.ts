import type { Mode } from '../../../context.ts';
import type { Sql } from '../../../db/tx.ts';
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
  }>(
    `select id, workspace_id, mode, external_id, email, phone, name, balance, lifetime_points
       from participants
      where id in (select participant_id from events where id = any($1::uuid[]) and status = 'received')
      order by id
        for update`,
    [eventIds],
  );
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
 * The events still to process, read after the locks: one another worker finished meanwhile is
 * `processed` by now and drops out here. Oldest first (UUIDv7), so one participant's events apply
 * in order.
 */
export async function loadEvents(
  sql: Sql,
  eventIds: string[],
  locked: Map<number, ParticipantState>,
): Promise<EventRow[]> {
  const { rows } = await sql.query<{
    id: string;
    workspace_id: string;
    mode: Mode;
    event_type: string;
    participant_id: string;
    payload: Record<string, unknown>;
    occurred_at: Date;
  }>(
    `select id, workspace_id, mode, event_type, participant_id, payload, occurred_at
       from events
      where id = any($1::uuid[]) and status = 'received' and participant_id is not null and event_type is not null
      order by id`,
    [eventIds],
  );
  return rows
    .filter((r) => locked.has(Number(r.participant_id)))
    .map((r) => ({
      id: r.id,
      workspaceId: r.workspace_id,
      mode: r.mode,
      eventType: r.event_type,
      participantId: Number(r.participant_id),
      payload: r.payload ?? {},
      occurredAt: r.occurred_at,
    }));
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

/**
 * Everything else a batch needs, in two round trips (bench `engine`: under load each round trip
 * costs milliseconds): flows, prior runs, event counts and multipliers in one; then, knowing the
 * flows, their badges, the participants' holdings of them and run counts for limited flows.
 */
export async function loadContext(
  sql: Sql,
  events: EventRow[],
  participantIds: number[],
  at: Date,
): Promise<{
  flows: Map<string, FlowRow[]>;
  runs: Map<string, RunRow>;
  multipliers: Map<number, number>;
  counts: { participant_id: number; event_type: string; count: number }[];
  badges: Map<string, BadgeRow>;
  holdings: Set<string>;
  runCounts: Map<string, number>;
}> {
  const triples = [...new Map(events.map((e) => [flowKey(e), e])).values()];
  const { rows } = await sql.query<{
    flows: RawFlow[];
    runs: RawRun[];
    counts: RawCount[];
    multipliers: RawMultiplier[];
  }>(
    `select
       (select coalesce(json_agg(f order by f.id), '[]') from (
          select f.id, f.workspace_id, f.mode, f.name, f.event_type, f.conditions, f.actions, f.max_runs_per_participant
            from flows f join unnest($1::uuid[], $2::text[], $3::text[]) k(w, m, t)
              on f.workspace_id = k.w and f.mode = k.m and f.event_type = k.t
           where f.active and f.deleted_at is null) f) as flows,
       (select coalesce(json_agg(r), '[]') from (
          select id, event_id, flow_id, status, steps from flow_runs where event_id = any($4::uuid[])) r) as runs,
       (select coalesce(json_agg(c), '[]') from (
          select participant_id, event_type, count from participant_event_counts
           where participant_id = any($5::bigint[])) c) as counts,
       (select coalesce(json_agg(m), '[]') from (
          ${activeMultipliersSql('$5::bigint[]', '$6::timestamptz')}) m) as multipliers`,
    [
      triples.map((e) => e.workspaceId),
      triples.map((e) => e.mode),
      triples.map((e) => e.eventType),
      events.map((e) => e.id),
      participantIds,
      at,
    ],
  );
  const raw = rows[0]!;
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
  const multipliers = new Map(raw.multipliers.map((m) => [Number(m.participant_id), Number(m.factor)]));

  const all = [...flows.values()].flat();
  const wanted = all.flatMap((f) =>
    f.actions.flatMap((a) =>
      a.type === 'award_badge'
        ? [{ workspaceId: f.workspaceId, mode: f.mode, key: a.badge, tier: a.tier ?? '' }]
        : [],
    ),
  );
  const limited = all.filter((f) => f.maxRuns != null).map((f) => f.id);
  let badges = new Map<string, BadgeRow>();
  let holdings = new Set<string>();
  let runCounts = new Map<string, number>();
  if (wanted.length || limited.length) {
    const uniq = [...new Map(wanted.map((w) => [`${w.workspaceId}/${w.mode}/${w.key}`, w])).values()];
    const load = () =>
      sql.query<{
        badges: { id: number; workspace_id: string; mode: string; key: string; name: string }[];
        holdings: RawHolding[];
        run_counts: RawRunCount[];
      }>(
        `with b as (
           select b.id, b.workspace_id, b.mode, b.key, b.name from badges b
             join unnest($1::uuid[], $2::text[], $3::text[]) k(w, m, key)
               on b.workspace_id = k.w and b.mode = k.m and b.key = k.key)
         select (select coalesce(json_agg(b), '[]') from b) as badges,
                (select coalesce(json_agg(h), '[]') from (
                   select pb.participant_id, pb.badge_id, pb.tier from participant_badges pb
                    where pb.participant_id = any($4::bigint[]) and pb.badge_id in (select id from b)) h) as holdings,
                (select coalesce(json_agg(c), '[]') from (
                   select flow_id, participant_id, count(*) as n from flow_runs
                    where flow_id = any($5::uuid[]) and participant_id = any($4::bigint[])
                    group by flow_id, participant_id) c) as run_counts`,
        [
          uniq.map((w) => w.workspaceId),
          uniq.map((w) => w.mode),
          uniq.map((w) => w.key),
          participantIds,
          limited,
        ],
      );
    let second = (await load()).rows[0]!;
    if (second.badges.length < uniq.length) {
      // A key no one defined yet: created here (CONTRACT 7), then read again.
      await ensureBadges(sql, wanted);
      second = (await load()).rows[0]!;
    }
    badges = new Map(
      second.badges.map((b) => [
        `${b.workspace_id}/${b.mode}/${b.key}`,
        { id: Number(b.id), key: b.key, name: b.name },
      ]),
    );
    holdings = new Set(second.holdings.map((h) => `${h.participant_id}/${h.badge_id}/${h.tier}`));
    runCounts = new Map(second.run_counts.map((c) => [`${c.flow_id}/${c.participant_id}`, Number(c.n)]));
  }
  return { flows, runs, multipliers, counts: raw.counts, badges, holdings, runCounts };
}

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
