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
    // One round trip: the balances move (participants in id order; the caller holds their
    // locks) and each entry's balance_after continues its participant's balance before this
    // statement, in the given order (a running sum per participant).
    const { rows } = await sql.query<RawEntry & { workspace_id: string; mode: string }>({
      name: 'post_credits',
      text: `with d as (
         select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[],
                              $7::text[], $8::text[], $9::bigint[]) with ordinality
           as d(workspace_id, mode, participant_id, points, reason, source, reference, idempotency_key, lifetime, ord)
       ), t as (
         select participant_id, sum(points) as points, sum(lifetime) as lifetime
           from d group by participant_id order by participant_id
       ), moved as (
         update participants p
            set balance = p.balance + t.points, lifetime_points = greatest(p.lifetime_points + t.lifetime, 0),
                updated_at = now()
           from t
          where p.id = t.participant_id and p.id = any($3::bigint[])
          returning p.id, p.balance, t.points
       )
       insert into ledger_entries
         (workspace_id, mode, participant_id, points, balance_after, reason, source, reference, idempotency_key)
       select d.workspace_id, d.mode, d.participant_id, d.points,
              m.balance - m.points + sum(d.points) over (partition by d.participant_id order by d.ord),
              d.reason, d.source, d.reference, d.idempotency_key
         from d join moved m on m.id = d.participant_id
        order by d.ord
       returning workspace_id, mode, ${ENTRY_COLUMNS}`,
      values: [
        fresh.map((e) => e.workspaceId),
        fresh.map((e) => e.mode),
        fresh.map((e) => e.participantId),
        fresh.map((e) => e.points),
        fresh.map((e) => e.reason ?? null),
        fresh.map((e) => e.source),
        fresh.map((e) => e.reference ?? null),
        fresh.map((e) => e.idempotencyKey),
        fresh.map((e) => lifetime(e)),
      ],
    });
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
