import type { Sql } from '../../db/tx.ts';
import type { ScoreMove } from '../leaderboards/histogram.ts';
import { recordEarnings } from '../leaderboards/record-earnings.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import { countTierCredits } from '../tiers/count-credits.ts';
import { insertCredits, type PostedCredit } from './post-credits.sql.ts';
import { type EntryToPost, type PostedEntry, pointsChanged } from './post-entry.ts';
import { presentEntry } from './presenters.ts';
import { entriesByKeys } from './repository.ts';

/**
 * `postEntry` for many credits at once (the engine's hot path, bench `engine`), with the same
 * guarantees: an entry whose derived idempotency key exists is returned untouched,
 * `balance_after` is exact per entry in the given order, every entry gets its `points.changed`
 * result and its earnings are recorded — in a fixed number of statements, whatever the count.
 * Credits only, so no balance can go negative. The caller holds the participants' row locks
 * (otherwise a concurrent writer between the UPDATE and the INSERT would skew `balance_after`).
 */
export async function postCredits(
  sql: Sql,
  entries: EntryToPost[],
  /** Given: the `points.changed` results are appended here for the caller to emit with its own, in one statement. */
  results?: ResultToEmit[],
  /**
   * `fresh`: the caller knows no entry with these keys exists (the engine: no earlier attempt of
   * these runs wrote any), so the lookup is skipped. Were it wrong, the unique key fails the
   * INSERT and with it the caller's transaction: nothing is credited twice.
   */
  opts: {
    fresh?: boolean;
    moves?: ScoreMove[];
    /** False: the caller counts the credits toward tiers itself (the engine's tiers mechanic). */
    countTiers?: boolean;
  } = {},
): Promise<PostedEntry[]> {
  if (!entries.length) return [];
  for (const e of entries) {
    if (!Number.isSafeInteger(e.points) || e.points <= 0)
      throw new Error('postCredits: points must be positive');
    if (!e.idempotencyKey) throw new Error('postCredits: every entry needs an idempotency key');
  }
  const scopeKey = (e: { workspaceId: string; mode: string; idempotencyKey?: string | null }) =>
    `${e.workspaceId}/${e.mode}/${e.idempotencyKey}`;

  // One `= any` lookup per workspace+mode (almost always one): it always uses the unique index,
  // where a join against unnest() let a planner with stale statistics scan the ledger (bench `engine`).
  const prior: PostedCredit[] = [];
  for (const [scope, keys] of opts.fresh ? [] : groupKeys(entries)) {
    const [w, m] = scope.split('/');
    prior.push(...(await entriesByKeys(sql, w!, m!, keys)));
  }
  const existing = new Map(
    prior.map((r) => [`${r.workspace_id}/${r.mode}/${r.idempotency_key}`, presentEntry(r)]),
  );
  const seen = new Set<string>();
  const fresh = entries.filter((e) => {
    const k = scopeKey(e);
    if (existing.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });

  const posted = new Map<string, PostedEntry>();
  if (fresh.length) {
    const lifetime = (e: EntryToPost) =>
      e.lifetimeDelta ?? (e.source === 'flow' || e.source === 'adjustment' ? e.points : 0);
    const rows = await insertCredits(
      sql,
      fresh.map((e) => ({
        workspaceId: e.workspaceId,
        mode: e.mode,
        participantId: e.participantId,
        points: e.points,
        reason: e.reason ?? null,
        source: e.source,
        reference: e.reference ?? null,
        idempotencyKey: e.idempotencyKey!,
        lifetime: lifetime(e),
        // The caller decides expiry (the engine's points mechanic, the pending activation).
        expiresAt: e.expiresAt ?? null,
        cappedPoints: e.cappedPoints ?? 0,
      })),
    );
    if (rows.length !== fresh.length) throw new Error('postCredits: participant not found');
    for (const r of rows)
      posted.set(`${r.workspace_id}/${r.mode}/${r.idempotency_key}`, {
        entry: presentEntry(r),
        replayed: false,
      });
    await recordEarnings(
      sql,
      fresh
        .filter((e) => lifetime(e) !== 0)
        .map((e) => ({
          workspaceId: e.workspaceId,
          mode: e.mode,
          participantId: e.participantId,
          points: lifetime(e),
          at: new Date(posted.get(scopeKey(e))!.entry.created_at),
        })),
      // The caller holds the participants' row locks (see above).
      { locked: true, moves: opts.moves },
    );
    if (opts.countTiers !== false)
      await countTierCredits(
        sql,
        fresh
          .filter((e) => lifetime(e) > 0)
          .map((e) => {
            const entry = posted.get(scopeKey(e))!.entry;
            return { ...e, entryId: entry.id, points: lifetime(e), at: new Date(entry.created_at) };
          }),
      );
    const changed = fresh.map((e) => pointsChanged(e, posted.get(scopeKey(e))!.entry));
    if (results) results.push(...changed);
    else await emitResults(sql, changed);
  }
  return entries.map((e) => {
    const k = scopeKey(e);
    const prev = existing.get(k);
    return prev ? { entry: prev, replayed: true } : posted.get(k)!;
  });
}

/** Idempotency keys grouped by `workspace/mode`. */
export function groupKeys(items: { workspaceId: string; mode: string; idempotencyKey?: string | null }[]) {
  const groups = new Map<string, string[]>();
  for (const i of items) {
    if (!i.idempotencyKey) continue;
    const k = `${i.workspaceId}/${i.mode}`;
    groups.set(k, [...(groups.get(k) ?? []), i.idempotencyKey]);
  }
  return groups;
}
