import type { Sql } from '../../../db/tx.ts';
import { uuidv7Floor, uuidv7Time } from '../../../lib/uuid7.ts';
import { groupKeys } from '../../ledger/post-credits.ts';
import { standingOf } from '../../tiers/standing.sql.ts';
import {
  type BadgeKey,
  type BatchRows,
  badgesByKey,
  insertBadges,
  type LockedRow,
  ledgerKeysIn,
  loadBatchRows,
  lockParticipantRows,
  lockParticipantRowsById,
} from './load.sql.ts';
import {
  type BadgeRow,
  type EventRow,
  type FlowRow,
  flowKey,
  type ParticipantState,
  type RunRow,
} from './types.ts';

/**
 * Locks the participants of the batch's still-`received` events, in id order. Holding these
 * locks is what makes balances, counts and run limits exact across workers.
 */
export async function lockParticipants(sql: Sql, eventIds: string[]): Promise<Map<number, ParticipantState>> {
  return statesOf(await lockParticipantRows(sql, eventIds));
}

/**
 * Locks these participants in id order, skipping any another transaction holds (the inactivity
 * job, docs/engagement.md#inactivity: a participant skipped now is looked at again next tick).
 */
export async function lockParticipantsById(sql: Sql, ids: number[]): Promise<Map<number, ParticipantState>> {
  return statesOf(await lockParticipantRowsById(sql, ids));
}

const statesOf = (rows: LockedRow[]): Map<number, ParticipantState> =>
  new Map(
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
        standing: standingOf(r),
        tier: null,
        timezone: r.timezone,
        streaks: new Map(),
        windowed: () => 0,
      },
    ]),
  );

const badgeKeyOf = (b: { workspace_id: string; mode: string; key: string }) =>
  `${b.workspace_id}/${b.mode}/${b.key}`;

/**
 * The badges the batch's flows award, keyed `workspace/mode/key`; a key no one defined yet is
 * created here (docs/api.md#flows: awarding an undefined badge defines it), named after its key.
 */
export async function ensureBadges(
  sql: Sql,
  wanted: (BadgeKey & { tier: string })[],
): Promise<Map<string, BadgeRow>> {
  const uniq = new Map<string, (typeof wanted)[number]>();
  for (const w of wanted) {
    const k = `${w.workspaceId}/${w.mode}/${w.key}`;
    if (!uniq.has(k) || (w.tier && !uniq.get(k)!.tier)) uniq.set(k, w);
  }
  const list = [...uniq.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = new Map<string, BadgeRow>();
  if (!list.length) return out;
  let rows = await badgesByKey(sql, list);
  if (rows.length < list.length) {
    const have = new Set(rows.map(badgeKeyOf));
    await insertBadges(
      sql,
      list.filter((w) => !have.has(`${w.workspaceId}/${w.mode}/${w.key}`)),
    );
    rows = await badgesByKey(sql, list);
  }
  for (const r of rows) out.set(badgeKeyOf(r), { id: Number(r.id), key: r.key, name: r.name });
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
    for (const key of await ledgerKeysIn(sql, w!, m!, list)) found.add(key);
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
  /** The batch's own events it leaves `received` for a later batch (see {@link loadBatch}). */
  deferred: string[];
}

/**
 * How far before its own events a batch looks for earlier ones of its participants still
 * waiting in other batches (see {@link loadBatch}): concurrent batches are milliseconds apart, and
 * a bound keeps the lookup a short range of the (participant, id) index.
 */
const PULL_LOOKBACK_MS = 60_000;

/**
 * How many earlier events a batch takes in at most, shared among its participants (at least one
 * each; see {@link loadBatch}): a batch stays a few thousand events when every participant is
 * hundreds behind, not all of their backlogs in one transaction (bench `integrators`).
 */
export const PULL_BUDGET = 2000;

/** The earlier events a batch of `participants` takes in per participant. */
export const pullLimit = (participants: number) => Math.max(1, Math.floor(PULL_BUDGET / participants));

/** The smallest UUIDv7 of the moment PULL_LOOKBACK_MS before the batch's oldest event. */
export function lookbackFloor(eventIds: string[]): string {
  let oldest = eventIds[0]!;
  for (const id of eventIds) if (id < oldest) oldest = id;
  return uuidv7Floor(new Date(uuidv7Time(oldest).getTime() - PULL_LOOKBACK_MS));
}

/**
 * Everything a batch reads after its participant locks, in ONE round trip (load.sql.ts; bench
 * `engine`: under load each round trip costs milliseconds, and a batch's latency is the sum of
 * them). The events still `received` are read after the locks, in a later statement, so an event
 * another worker finished meanwhile is `processed` in this snapshot and drops out. A badge key no
 * one defined yet is created here and the read repeated: once per key, ever.
 *
 * With `pullEarlier`, the batch also takes in its participants' earlier events still `received`
 * in other batches (up to PULL_LOOKBACK_MS before its oldest): the locks are held, so they are
 * applied first, in id order, and drop out of their own batch later. Without it, a batch on one
 * worker could overtake a slower batch on another, and the 10th purchase be rewarded on the 8th.
 * Events with a failed run are left to their own job's retries; so is everything when a failed
 * batch is retried event by event (`pullEarlier` false), so one bad event holds back no other.
 * It takes in at most {@link pullLimit} a participant, the earliest: a participant with more
 * waiting keeps its own events of this batch after the first one left behind `received`, and the
 * caller hands them to a new job (`deferred`), so order holds and no transaction grows with a
 * backlog.
 */
export async function loadBatch(
  sql: Sql,
  eventIds: string[],
  participantIds: number[],
  at: Date,
  pullEarlier = true,
): Promise<BatchContext> {
  const values: Parameters<typeof loadBatchRows>[1] = [
    eventIds,
    participantIds,
    at,
    lookbackFloor(eventIds),
    pullEarlier,
    pullLimit(participantIds.length),
  ];
  let raw = await loadBatchRows(sql, values);
  if (raw.badges.length < raw.badge_keys) {
    await ensureBadges(sql, awardedBadges(raw.flows));
    raw = await loadBatchRows(sql, values);
  }
  return batchContext(raw);
}

/** The badges the flows award. */
const awardedBadges = (flows: BatchRows['flows']) =>
  flows.flatMap((f) =>
    f.actions.flatMap((a) =>
      a.type === 'award_badge'
        ? [{ workspaceId: f.workspace_id, mode: f.mode, key: a.badge, tier: a.tier ?? '' }]
        : [],
    ),
  );

/**
 * The batch's rows without its own events that come after a participant's stop (see
 * {@link loadBatch}), and those events' ids.
 */
function withoutStopped(raw: BatchRows): { events: BatchRows['events']; deferred: string[] } {
  if (!raw.stops.length) return { events: raw.events, deferred: [] };
  const stops = new Map(raw.stops.map(([participant, id]) => [Number(participant), id]));
  const events: BatchRows['events'] = [];
  const deferred: string[] = [];
  for (const e of raw.events) {
    const stop = stops.get(Number(e.participant_id));
    if (stop !== undefined && e.id > stop) deferred.push(e.id);
    else events.push(e);
  }
  return { events, deferred };
}

function batchContext(raw: BatchRows): BatchContext {
  const taken = withoutStopped(raw);
  const events: EventRow[] = taken.events.map((r) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    mode: r.mode,
    eventType: r.event_type,
    participantId: Number(r.participant_id),
    payload: r.payload ?? {},
    occurredAt: new Date(r.occurred_at),
    ...(r.referral_code !== null && {
      referral: { code: r.referral_code, createsParticipant: r.creates_participant === true },
    }),
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
    badges: new Map(raw.badges.map((b) => [badgeKeyOf(b), { id: Number(b.id), key: b.key, name: b.name }])),
    holdings: new Set(raw.holdings.map((h) => `${h.participant_id}/${h.badge_id}/${h.tier}`)),
    runCounts: new Map(raw.run_counts.map((c) => [`${c.flow_id}/${c.participant_id}`, Number(c.n)])),
    deferred: taken.deferred,
  };
}
