import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { notFound, validationError } from '../../errors.ts';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import type { Scope } from '../keys/principal.ts';
import {
  archiveStreakRow,
  insertStreak,
  type StreakRow,
  streakRow,
  streakRows,
  updateStreakRow,
} from './repository.ts';
import type { StreakRules } from './rules.ts';
import type { CreateStreakInput, StreakDto, UpdateStreakInput } from './shapes.ts';

export type { StreakRow } from './repository.ts';

export const presentStreak = (r: StreakRow): StreakDto => ({
  key: r.key,
  name: r.name,
  event_types: r.event_types,
  frequency: r.frequency,
  freezes: { initial: r.freezes_initial, max: r.freezes_max, earn_every: r.earn_every },
  archived_at: isoTimeOrNull(r.archived_at),
  created_at: isoTime(r.created_at),
  updated_at: isoTime(r.updated_at),
});

/** The rules of a definition's row. */
export const rulesOf = (
  r: Pick<StreakRow, 'frequency' | 'freezes_initial' | 'freezes_max' | 'earn_every'>,
): StreakRules => ({
  frequency: r.frequency,
  freezesInitial: r.freezes_initial,
  freezesMax: r.freezes_max,
  earnEvery: r.earn_every,
});

/** `POST /v1/streaks`. A key already used (archived ones too): 422 on `key`. */
export async function createStreak(ctx: AppContext, who: Scope, body: CreateStreakInput): Promise<StreakDto> {
  const f = body.freezes ?? { initial: 0, max: 0 };
  try {
    const row = await insertStreak(ctx.pool, who, body.key, body.frequency, {
      name: body.name,
      eventTypes: [...new Set(body.event_types)],
      freezesInitial: f.initial,
      freezesMax: f.max,
      earnEvery: f.earn_every ?? null,
    });
    return presentStreak(row);
  } catch (err) {
    if (uniqueViolation(err) === 'streaks_key_unique')
      throw validationError([
        { field: 'key', message: 'a streak with this key already exists (archived ones keep theirs)' },
      ]);
    throw err;
  }
}

/** `GET /v1/streaks`: every definition, archived ones with `include_archived`. */
export async function listStreaks(
  ctx: AppContext,
  who: Scope,
  includeArchived = false,
): Promise<{ data: StreakDto[] }> {
  return { data: (await streakRows(ctx.pool, who, includeArchived)).map(presentStreak) };
}

/** `GET /v1/streaks/{key}` (archived ones too). */
export async function getStreak(ctx: AppContext, who: Scope, key: string): Promise<StreakDto> {
  const row = await streakRow(ctx.pool, who, key);
  if (!row) throw notFound('streak');
  return presentStreak(row);
}

/** `PATCH /v1/streaks/{key}`: name, event types and freezes; states keep their length. */
export async function updateStreak(
  ctx: AppContext,
  who: Scope,
  key: string,
  body: UpdateStreakInput,
): Promise<StreakDto> {
  const before = await streakRow(ctx.pool, who, key);
  if (!before) throw notFound('streak');
  const f = body.freezes;
  const row = await updateStreakRow(ctx.pool, who, key, {
    name: body.name ?? before.name,
    eventTypes: body.event_types ? [...new Set(body.event_types)] : before.event_types,
    freezesInitial: f ? f.initial : before.freezes_initial,
    freezesMax: f ? f.max : before.freezes_max,
    earnEvery: f ? (f.earn_every ?? null) : before.earn_every,
  });
  if (!row) throw notFound('streak');
  return presentStreak(row);
}

/**
 * `DELETE /v1/streaks/{key}`: archives it. Events stop extending it, the streak job stops
 * looking at it and participants' reads leave it out; states and history stay.
 */
export async function archiveStreak(ctx: AppContext, who: Scope, key: string): Promise<StreakDto> {
  const row = await archiveStreakRow(ctx.pool, who, key);
  if (!row) throw notFound('streak');
  return presentStreak(row);
}
