import type { Sql } from '../../db/tx.ts';
import { pointsChangedJsonSql } from '../ledger/presenters.ts';
import { entryColumns } from '../ledger/repository.ts';
import { emitResultsCtes, UUIDV7_SQL } from '../outbox/emit.sql.ts';

// Raw SQL: the expiry job (bench suite `points`: 1,000,000 lots in under a minute on one worker).
// A batch is two statements: lock the participants that have due lots (SKIP LOCKED, so workers
// share the work and never wait on an engine batch), then, in a statement of its own that sees
// every commit before the locks, empty their due lots with one ledger entry each.

/** Locks up to `limit` participants with lots due at `now`; answers their ids. */
export async function lockDueOwners(sql: Sql, now: Date, limit: number): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id from participants p
      where p.id in (select l.participant_id from point_lots l
                      where l.remaining > 0 and l.expires_at <= $1 order by l.expires_at limit $2)
      order by p.id
      for no key update of p skip locked`,
    [now, limit],
  );
  return rows.map((r) => Number(r.id));
}

const emit = emitResultsCtes('results');

/**
 * Empties every due lot of these (locked) participants, in one statement: one entry per lot
 * `{ source: 'expiry', points: -remaining, reference: 'lot:<entry_id>' }` (soonest first,
 * `balance_after` running), its allocation, the balance move, and each entry's `points.changed`
 * in the outbox (with its deliveries). A lot already emptied (by a debit, or by another worker
 * before our lock) is not due any more: each lot expires once. Answers how many lots it expired.
 */
export async function expireLotsOf(sql: Sql, participantIds: number[], now: Date): Promise<number> {
  const { rows } = await sql.query<{ expired: string }>(
    `with lots as (
       select l.id, l.workspace_id, l.mode, l.participant_id, l.entry_id, l.remaining,
              sum(l.remaining) over (partition by l.participant_id order by l.expires_at, l.id) as upto
         from point_lots l
        where l.participant_id = any($1::bigint[]) and l.remaining > 0 and l.expires_at <= $2
     ), due as materialized (
       -- Entry ids drawn in consumption order (the sorted subquery), so ids and balances run together.
       select s.*, nextval(pg_get_serial_sequence('ledger_entries', 'id')) as new_id,
              row_number() over () as ord
         from (select * from lots order by participant_id, upto) s
     ), totals as (
       select participant_id, sum(remaining) as points from due group by participant_id
     ), moved as (
       update participants p set balance = p.balance - t.points, updated_at = now()
         from totals t where p.id = t.participant_id
       returning p.id, p.balance + t.points as before, p.external_id
     ), emptied as (
       update point_lots l set remaining = 0, expired_at = now() from due d where l.id = d.id
       returning l.id
     ), entries as (
       insert into ledger_entries (id, workspace_id, mode, participant_id, points, balance_after, reason, source, reference)
       select d.new_id, d.workspace_id, d.mode, d.participant_id, -d.remaining, m.before - d.upto, 'Points expired',
              'expiry', 'lot:' || d.entry_id
         from due d join moved m on m.id = d.participant_id
        order by d.new_id
       returning workspace_id, mode, participant_id, ${entryColumns()}
     ), allocated as (
       insert into lot_allocations (entry_id, lot_id, points)
       select d.new_id, d.id, d.remaining from due d join emptied e on e.id = d.id
       returning 1
     ), results as (
       select ${UUIDV7_SQL} as id, e.workspace_id, e.mode, 'points.changed'::text as type,
              ${pointsChangedJsonSql('e', 'm.external_id')} as data, d.ord
         from entries e join due d on d.new_id = e.id join moved m on m.id = e.participant_id
     ), ${emit.ctes}
     select (select count(*) from entries) as expired, (select count(*) from allocated) as allocated,
            ${emit.notify} as notified`,
    [participantIds, now],
  );
  return Number(rows[0]!.expired);
}

/** A lot whose `points.expiring` notice is due, with what the result carries. */
export interface NoticeRow {
  workspace_id: string;
  mode: string;
  external_id: string;
  remaining: string;
  expires_at: Date;
  balance: string;
}

/**
 * Marks up to `limit` lots whose notice is due at `now` (expiry minus the programme's
 * `expiry_notice`, counted by Postgres' interval arithmetic in UTC) and answers them: each lot is
 * announced once (the mark commits with the outbox rows). Lots already due to expire are left to
 * the expiry. SKIP LOCKED: it never waits, and a lot a debit holds is announced next tick.
 */
export async function markNotices(sql: Sql, now: Date, limit: number): Promise<NoticeRow[]> {
  const { rows } = await sql.query<NoticeRow>(
    `with horizon as (
       select $1::timestamptz + greatest(interval 'P14D',
              coalesce(max((settings->>'expiry_notice')::interval), interval 'P14D')) as at
         from program_settings
     ), due as (
       select l.id from point_lots l
         left join program_settings s on s.workspace_id = l.workspace_id and s.mode = l.mode
        where l.notified_at is null and l.remaining > 0 and l.expires_at is not null
          and l.expires_at > $1 and l.expires_at <= (select at from horizon)
          and l.expires_at - coalesce((s.settings->>'expiry_notice')::interval, interval 'P14D') <= $1
        order by l.expires_at
        limit $2
        for update of l skip locked
     ), marked as (
       update point_lots l set notified_at = $1 from due where l.id = due.id
       returning l.workspace_id, l.mode, l.participant_id, l.remaining, l.expires_at
     )
     select m.workspace_id, m.mode, p.external_id, m.remaining, m.expires_at, p.balance
       from marked m join participants p on p.id = m.participant_id
      order by m.expires_at`,
    [now, limit],
  );
  return rows;
}
