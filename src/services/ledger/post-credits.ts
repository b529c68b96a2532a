import type { Sql } from '../../db/tx.ts';
import type { ScoreMove } from '../leaderboards/histogram.ts';
import { recordEarnings } from '../leaderboards/record-earnings.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import type { EntryToPost, PostedEntry, RawEntry } from './post-entry.ts';
import { presentEntry } from './presenters.ts';

const ENTRY_COLUMNS = `id, points, balance_after, reason, source, reference, reverses_entry_id,
  idempotency_key, created_at`;

/**
 * `postEntry` for many credits at once (the engine's hot path, bench `engine`), with the same
 * guarantees (INTERFACES 7): an entry whose derived idempotency key exists is returned untouched,
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
  opts: { fresh?: boolean; moves?: ScoreMove[] } = {},
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
  const prior: (RawEntry & { workspace_id: string; mode: string })[] = [];
  for (const [scope, keys] of opts.fresh ? [] : groupKeys(entries)) {
    const [w, m] = scope.split('/');
    const { rows } = await sql.query<RawEntry & { workspace_id: string; mode: string }>(
      `select workspace_id, mode, ${ENTRY_COLUMNS} from ledger_entries
        where workspace_id = $1 and mode = $2 and idempotency_key = any($3::text[])`,
      [w, m, keys],
    );
    prior.push(...rows);
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
    const totals = new Map<number, { points: number; lifetime: number }>();
    for (const e of fresh) {
      const t = totals.get(e.participantId) ?? { points: 0, lifetime: 0 };
      t.points += e.points;
      t.lifetime += lifetime(e);
      totals.set(e.participantId, t);
    }
    const ids = [...totals.keys()].sort((a, b) => a - b);
    const { rows: moved } = await sql.query<{ id: string; balance: string }>(
      `update participants p
          set balance = p.balance + d.points, lifetime_points = greatest(p.lifetime_points + d.lifetime, 0),
              updated_at = now()
         from unnest($1::bigint[], $2::bigint[], $3::bigint[]) d(id, points, lifetime)
        where p.id = d.id and p.id = any($1::bigint[])
        returning p.id, p.balance`,
      [ids, ids.map((id) => totals.get(id)!.points), ids.map((id) => totals.get(id)!.lifetime)],
    );
    // Running balance per participant, starting from the balance before this statement.
    const running = new Map(
      moved.map((r) => [Number(r.id), Number(r.balance) - totals.get(Number(r.id))!.points]),
    );
    if (running.size !== ids.length) throw new Error('postCredits: participant not found');
    const balanceAfter = fresh.map((e) => {
      const b = running.get(e.participantId)! + e.points;
      running.set(e.participantId, b);
      return b;
    });
    const { rows } = await sql.query<RawEntry & { workspace_id: string; mode: string }>(
      `insert into ledger_entries
         (workspace_id, mode, participant_id, points, balance_after, reason, source, reference, idempotency_key)
       select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[],
                            $7::text[], $8::text[], $9::text[])
       returning workspace_id, mode, ${ENTRY_COLUMNS}`,
      [
        fresh.map((e) => e.workspaceId),
        fresh.map((e) => e.mode),
        fresh.map((e) => e.participantId),
        fresh.map((e) => e.points),
        balanceAfter,
        fresh.map((e) => e.reason ?? null),
        fresh.map((e) => e.source),
        fresh.map((e) => e.reference ?? null),
        fresh.map((e) => e.idempotencyKey),
      ],
    );
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
    const changed = fresh.map((e) => {
      const entry = posted.get(scopeKey(e))!.entry;
      return {
        workspaceId: e.workspaceId,
        mode: e.mode,
        type: 'points.changed' as const,
        data: { participant: { external_id: e.externalId }, entry, balance: entry.balance_after },
      };
    });
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
