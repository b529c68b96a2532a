import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { programOf } from '../points/program.ts';
import { dateOf, instantOf, subtractDuration } from '../points/rules.ts';
import { type PreviewSource, previewCounts } from './preview.sql.ts';
import { storeProgramme, tierProgramRow } from './repository.ts';
import { calendarPeriod, type Rules } from './rules.ts';
import { type TierPreviewDto, type TierProgramme, tierProgrammeShape } from './shapes.ts';

/** Parsed programmes by their stored JSON: the engine reads them every batch, they rarely change. */
const parsed = new Map<string, TierProgramme>();

/** The stored programme, parsed once per distinct JSON. */
export function tiersFrom(stored: Record<string, unknown>): TierProgramme {
  const key = JSON.stringify(stored);
  let programme = parsed.get(key);
  if (!programme) {
    programme = tierProgrammeShape.parse(stored);
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(key, programme);
  }
  return programme;
}

/** The rules of a stored programme in a time zone, or null without one. */
export const rulesFrom = (
  stored: Record<string, unknown> | null | undefined,
  timezone: string,
): Rules | null => (stored ? { programme: tiersFrom(stored), timezone } : null);

/** The running programme of the workspace and mode with its start, or null. */
export async function tierRulesOf(
  sql: Sql,
  workspaceId: string,
  mode: string,
): Promise<(Rules & { startedAt: Date }) | null> {
  const row = await tierProgramRow(sql, workspaceId, mode);
  const rules = rulesFrom(row?.programme, row?.timezone ?? 'UTC');
  return rules && { ...rules, startedAt: row!.started_at };
}

/** `GET /v1/tiers` (docs/tiers.md#the-programme): the programme, or null when none runs. */
export async function getTiers(ctx: AppContext, who: Scope): Promise<TierProgramme | null> {
  return (await tierRulesOf(ctx.pool, who.workspaceId, who.mode))?.programme ?? null;
}

const sameWindow = (a: TierProgramme['qualification'], b: TierProgramme['qualification']) =>
  a.window === b.window && a.duration === b.duration && a.period === b.period;

/**
 * `PUT /v1/tiers`: replaces the programme. The tier job then walks every participant once: up at
 * once to what the new levels support, a level no longer supported evaluated at its window's next
 * evaluation (docs/tiers.md#changing-the-programme). A new window recounts qualifying points from
 * the ledger (`lifetime` needs no count: it is lifetime points).
 */
export async function putTiers(
  ctx: AppContext,
  who: Scope,
  programme: TierProgramme,
): Promise<TierProgramme> {
  return unitOfWork(ctx, async ({ sql }) => {
    const row = await tierProgramRow(sql, who.workspaceId, who.mode, { lock: true });
    const old = row?.programme ? tiersFrom(row.programme) : null;
    const recount =
      programme.qualification.window !== 'lifetime' &&
      (!old || !sameWindow(old.qualification, programme.qualification));
    await storeProgramme(sql, who.workspaceId, who.mode, programme, recount);
    return programme;
  });
}

/**
 * `DELETE /v1/tiers`: ends the programme; the tier job then moves every participant off their level
 * (`programme_change`). 404 when none runs.
 */
export async function deleteTiers(ctx: AppContext, who: Scope): Promise<{ deleted: true }> {
  return unitOfWork(ctx, async ({ sql }) => {
    const row = await tierProgramRow(sql, who.workspaceId, who.mode, { lock: true });
    if (!row?.programme) throw notFound('tier programme');
    await storeProgramme(sql, who.workspaceId, who.mode, null, false);
    return { deleted: true as const };
  });
}

/**
 * `POST /v1/tiers/preview`: who would be where under a proposed programme, with nothing changed
 * (docs/tiers.md#changing-the-programme): participants per level now and once the change is applied
 * and evaluated, and the moves between them. The same window as the running programme reads the
 * standings (fast); a new window counts the ledger.
 */
export async function previewTiers(
  ctx: AppContext,
  who: Scope,
  proposed: TierProgramme,
): Promise<TierPreviewDto> {
  const row = await tierProgramRow(ctx.pool, who.workspaceId, who.mode);
  const current = row?.programme ? tiersFrom(row.programme) : null;
  const timezone = row?.timezone ?? (await programOf(ctx.pool, who.workspaceId, who.mode)).timezone;
  const now = new Date();
  const q = proposed.qualification;
  const counted = current && sameWindow(current.qualification, q) && row!.applied_version >= row!.version;
  let source: PreviewSource;
  if (q.window === 'lifetime') source = { kind: 'lifetime' };
  else if (q.window === 'calendar') {
    const cur = calendarPeriod(q.period!, instantOf(now), timezone);
    const prev = calendarPeriod(q.period!, cur.start.subtract({ nanoseconds: 1 }), timezone);
    source = counted
      ? { kind: 'standing', period: { current: cur.key, previous: cur.previousKey } }
      : { kind: 'ledger', from: dateOf(prev.start), currentStart: dateOf(cur.start) };
  } else
    source = counted
      ? { kind: 'standing' }
      : { kind: 'ledger', from: dateOf(subtractDuration(instantOf(now), q.duration!, timezone)) };
  const rows = await previewCounts(ctx.pool, who.workspaceId, who.mode, current, proposed, source);
  const out: TierPreviewDto = {
    current: Object.fromEntries((current?.levels ?? []).map((l) => [l.key, 0])),
    proposed: Object.fromEntries(proposed.levels.map((l) => [l.key, 0])),
    moves: [],
  };
  for (const r of rows) {
    const n = Number(r.count);
    if (r.from_key !== null) out.current[r.from_key] = (out.current[r.from_key] ?? 0) + n;
    out.proposed[r.to_key] = (out.proposed[r.to_key] ?? 0) + n;
    if (r.from_key !== r.to_key) out.moves.push({ from: r.from_key, to: r.to_key, count: n });
  }
  out.moves.sort((a, b) => b.count - a.count);
  return out;
}
