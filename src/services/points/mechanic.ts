import { Temporal } from 'temporal-polyfill';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Award, AwardDecision, EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import { type AwardWrites, writeAwards } from './award.sql.ts';
import { programFrom } from './program.ts';
import { type BatchProgramme, batchProgram } from './repository.ts';
import {
  addDuration,
  type Cap,
  type CapPeriod,
  capAward,
  dateOf,
  expiryOf,
  instantOf,
  PeriodKeys,
} from './rules.ts';
import { DEFAULT_PROGRAM, type ProgramSettings } from './shapes.ts';

/** What the points mechanic holds for one batch. */
interface PointsState {
  now: Temporal.Instant;
  settings: Map<string, ProgramSettings>;
  /** Earned points keyed `participant|scope|period`, as loaded and then moved by the batch. */
  earned: Map<string, number>;
  /** The keys of `earned` this batch moved. */
  moved: Set<string>;
  periods: PeriodKeys;
  /** Instants worked out once per batch: per scope the expiry of a credit made now, per duration the end of a pending period. */
  later: Map<string, Date | null>;
  writes: AwardWrites;
}

const PERIODS: CapPeriod[] = ['day', 'week', 'month', 'year'];
const DAY_MS = 86_400_000;

/** `map`'s value for `key`, made by `make` the first time. */
function once<V>(map: Map<string, V>, key: string, make: () => V): V {
  if (!map.has(key)) map.set(key, make());
  return map.get(key)!;
}
const scopeKey = (x: { workspaceId: string; mode: string }) => `${x.workspaceId}/${x.mode}`;

/**
 * The batch's loyalty programme in one round trip, for every mechanic: settings, tier programmes,
 * and the cap counters of every period the events could fall in, whatever the programme's time
 * zone (within a day of their UTC date).
 */
export async function loadBatchProgramme(
  sql: Sql,
  batch: Pick<MechanicBatch, 'events'>,
): Promise<BatchProgramme> {
  const scopes = [...new Map(batch.events.map((e) => [scopeKey(e), e])).values()];
  const keys = new PeriodKeys();
  const periods = new Set<string>();
  for (const e of batch.events) {
    const at = e.occurredAt.getTime();
    for (const near of [at - DAY_MS, at, at + DAY_MS])
      for (const unit of PERIODS)
        periods.add(keys.key(unit, Temporal.Instant.fromEpochMilliseconds(near), 'UTC'));
  }
  const ids = [...new Set(batch.events.map((e) => e.participantId))];
  return batchProgram(sql, scopes, ids, [...periods]);
}

/**
 * The points lifecycle in the engine (docs/points.md): earning caps cut an award to what is
 * left in each period (counted on the event's `occurred_at` in the programme's time zone), a
 * `pending_for` turns it into a pending grant, and a credit carries its lot's expiry (`activity`
 * expiry moves the participant's open lots too). Exact under concurrent events of one participant:
 * the batch holds the participant's row lock from its load to its commit.
 */
export const pointsMechanic: EngineMechanic<PointsState> = {
  name: 'points',

  async load(_sql: Sql, batch: MechanicBatch): Promise<PointsState> {
    const stored = batch.programme;
    const settings = new Map<string, ProgramSettings>();
    for (const e of batch.events) settings.set(scopeKey(e), programFrom(stored.settings.get(scopeKey(e))));
    return {
      now: instantOf(new Date()),
      settings,
      earned: new Map(
        stored.counts.map((r) => [`${r.participant_id}|${r.scope}|${r.period}`, Number(r.points)]),
      ),
      moved: new Set(),
      periods: new PeriodKeys(),
      later: new Map(),
      writes: { counts: [], grants: [], moves: [] },
    };
  },

  onEvent() {},

  award(state: PointsState, a: Award): AwardDecision {
    const settings = state.settings.get(scopeKey(a.event)) ?? DEFAULT_PROGRAM;
    const tz = settings.timezone;
    const at = instantOf(a.event.occurredAt);
    const caps: Cap[] = [
      ...settings.earning_caps.map((c) => ({ scope: 'program', ...c })),
      ...(a.action.cap ? [{ scope: `${a.flowId}:${a.actionIndex}`, ...a.action.cap }] : []),
    ].map((c) => {
      const key = `${a.participant.id}|${c.scope}|${state.periods.key(c.period, at, tz)}`;
      return { key, max: c.max_points, earned: state.earned.get(key) ?? 0 };
    });
    const { points, capped } = capAward(a.points, caps);
    if (points <= 0) return { points: 0, capped };
    for (const c of caps) {
      state.earned.set(c.key, c.earned + points);
      state.moved.add(c.key);
    }

    const pendingFor = a.action.pending_for ?? settings.pending_for;
    if (pendingFor) {
      const grant = {
        id: uuidv7(),
        workspaceId: a.event.workspaceId,
        mode: a.event.mode,
        participantId: a.participant.id,
        points,
        availableAt: once(state.later, `${tz}|${pendingFor}`, () =>
          dateOf(addDuration(state.now, pendingFor, tz)),
        )!,
        eventId: a.event.spellAt === undefined ? a.event.id : null,
        flowRunId: a.runId,
        idempotencyKey: a.key,
      };
      state.writes.grants.push(grant);
      return { points, capped, pending: { grantId: grant.id, availableAt: grant.availableAt } };
    }
    const expiresAt = once(state.later, scopeKey(a.event), () => {
      const expiry = expiryOf(state.now, settings.points_expiry, tz);
      return expiry ? dateOf(expiry) : null;
    });
    if (expiresAt && settings.points_expiry?.mode === 'activity')
      state.writes.moves.push({ participantId: a.participant.id, expiresAt });
    return { points, capped, expiresAt };
  },

  async write(sql: Sql, state: PointsState): Promise<void> {
    for (const key of state.moved) {
      const points = state.earned.get(key)!;
      const [participantId, scope, period] = key.split('|');
      state.writes.counts.push({
        participantId: Number(participantId),
        scope: scope!,
        period: period!,
        points,
      });
    }
    // The last move of each participant wins (moves are in event order).
    const moves = new Map(state.writes.moves.map((m) => [m.participantId, m]));
    await writeAwards(sql, { ...state.writes, moves: [...moves.values()] });
  },
};
