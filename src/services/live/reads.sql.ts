// Raw SQL: the live hub's reads of committed rows by id (`id > after` per participant, through a lateral
// join on the participant's own index) and its `live_watches` rows, which its statement triggers read; a
// starting point is read under `for share`, after every write already under way has committed, in a short
// transaction of its own on the hub's pool (the hub is the GraphQL subscriptions' transport, no service).
import { type ClientPool, type Sql, withTransaction } from '../../db/tx.ts';
import {
  type BadgeAward,
  type BadgeAwardRow,
  badgeAwardColumns,
  presentBadgeAward,
} from '../badges/badge-award.ts';
import type { Scope } from '../keys/principal.ts';
import type { BalanceChange } from '../ledger/balance-change.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { entryColumns, type RawEntry } from '../ledger/repository.ts';
import type { MoveRow } from '../tiers/repository.ts';
import { presentStreakChange, type StreakChange, type StreakChangeRow } from './streak-change.ts';
import { presentTierChange, type TierChange } from './tier-change.ts';

/** A row read for subscribers: its participant, its id (the position) and what is delivered. */
export interface LiveRow<T> {
  participantId: string;
  id: number;
  item: T;
}

/** Where each participant's subscribers are: read the rows after `afters[i]` of `pids[i]`. */
export interface Positions {
  pids: string[];
  afters: number[];
  /** Rows per participant at most. */
  limit: number;
}

/** The ledger entries after each position, as balance changes, by participant and id. */
export async function readBalanceChanges(db: Sql, at: Positions): Promise<LiveRow<BalanceChange>[]> {
  const { rows } = await db.query<
    RawEntry & { participant_id: string; external_id: string; lifetime_points: string }
  >(
    `select ${entryColumns('e')}, e.participant_id, p.external_id, p.lifetime_points
       from unnest($1::bigint[], $2::bigint[]) s(pid, after)
       join lateral (select * from ledger_entries e
                      where e.participant_id = s.pid and e.id > s.after
                      order by e.id limit $3) e on true
       join participants p on p.id = e.participant_id
      order by e.participant_id, e.id`,
    [at.pids, at.afters, at.limit],
  );
  return rows.map((r) => {
    const entry = presentEntry(r);
    return {
      participantId: String(r.participant_id),
      id: Number(r.id),
      item: {
        external_id: r.external_id,
        balance: entry.balance_after,
        lifetime_points: Number(r.lifetime_points),
        entry,
      },
    };
  });
}

/** The badge awards after each position, by participant and id. */
export async function readBadgeAwards(db: Sql, at: Positions): Promise<LiveRow<BadgeAward>[]> {
  const { rows } = await db.query<BadgeAwardRow & { id: string; participant_id: string }>(
    `select pb.id, pb.participant_id, ${badgeAwardColumns({ award: 'pb', badge: 'b', participant: 'p' })}
       from unnest($1::bigint[], $2::bigint[]) s(pid, after)
       join lateral (select * from participant_badges pb
                      where pb.participant_id = s.pid and pb.id > s.after
                      order by pb.id limit $3) pb on true
       join badges b on b.id = pb.badge_id
       join participants p on p.id = pb.participant_id
      order by pb.participant_id, pb.id`,
    [at.pids, at.afters, at.limit],
  );
  return rows.map((r) => ({
    participantId: String(r.participant_id),
    id: Number(r.id),
    item: presentBadgeAward(r),
  }));
}

/** The moves of levels (`tier_history`) after each position, by participant and id. */
export async function readTierChanges(db: Sql, at: Positions): Promise<LiveRow<TierChange>[]> {
  const { rows } = await db.query<MoveRow & { participant_id: string; external_id: string }>(
    `select h.id, h.participant_id, h.from_key, h.from_name, h.to_key, h.to_name, h.reason, h.note,
            h.qualifying_points, h.at, p.external_id
       from unnest($1::bigint[], $2::bigint[]) s(pid, after)
       join lateral (select * from tier_history h
                      where h.participant_id = s.pid and h.id > s.after
                      order by h.id limit $3) h on true
       join participants p on p.id = h.participant_id
      order by h.participant_id, h.id`,
    [at.pids, at.afters, at.limit],
  );
  return rows.map((r) => ({
    participantId: String(r.participant_id),
    id: Number(r.id),
    item: presentTierChange(r),
  }));
}

/** The changes of streaks (`streak_changes`) after each position, by participant and id. */
export async function readStreakChanges(db: Sql, at: Positions): Promise<LiveRow<StreakChange>[]> {
  const { rows } = await db.query<StreakChangeRow & { participant_id: string }>(
    `select c.id, c.participant_id, c.change, c.length, c.longest, c.freezes,
            to_char(c.period_start, 'YYYY-MM-DD') as period_start, c.at, st.key, p.external_id
       from unnest($1::bigint[], $2::bigint[]) s(pid, after)
       join lateral (select * from streak_changes c
                      where c.participant_id = s.pid and c.id > s.after
                      order by c.id limit $3) c on true
       join streaks st on st.id = c.streak_id
       join participants p on p.id = c.participant_id
      order by c.participant_id, c.id`,
    [at.pids, at.afters, at.limit],
  );
  return rows.map((r) => ({
    participantId: String(r.participant_id),
    id: Number(r.id),
    item: presentStreakChange(r),
  }));
}

/** The id of a participant of the scope's workspace and mode, or null. */
export async function participantIdOf(db: Sql, scope: Scope, externalId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'select id from participants where workspace_id = $1 and mode = $2 and external_id = $3',
    [scope.workspaceId, scope.mode, externalId],
  );
  return rows[0]?.id ?? null;
}

/** Marks the participant watched by this hub, so writes to it NOTIFY from now on. */
export async function watchParticipant(db: Sql, pid: string, hubId: string): Promise<void> {
  await db.query('insert into live_watches (participant_id, hub_id) values ($1, $2) on conflict do nothing', [
    pid,
    hubId,
  ]);
}

/** This hub no longer watches the participant. */
export async function unwatchParticipant(db: Sql, pid: string, hubId: string): Promise<void> {
  await db.query('delete from live_watches where participant_id = $1 and hub_id = $2', [pid, hubId]);
}

/** This hub watches no participant any more (it is closing). */
export async function unwatchAll(db: Sql, hubId: string): Promise<void> {
  await db.query('delete from live_watches where hub_id = $1', [hubId]);
}

/** The tables the hub reads rows of, by id per participant. */
export type LiveTable = 'ledger_entries' | 'participant_badges' | 'tier_history' | 'streak_changes';

/** A pool that lends one connection for a short transaction. */
export type Connections = ClientPool;

/**
 * The id of the participant's last row in `table`, read after every write already under way has
 * committed: ledger, badge, tier and streak writes hold the participant's row lock until they
 * commit, and FOR SHARE waits for them; the next statement's snapshot then sees their rows.
 */
export async function lastRowId(pool: Connections, table: LiveTable, pid: string): Promise<number> {
  return withTransaction(pool, async (client) => {
    await client.query('select 1 from participants where id = $1 for share', [pid]);
    const { rows } = await client.query<{ max: string | null }>(
      `select max(id) as max from ${table} where participant_id = $1`,
      [pid],
    );
    return Number(rows[0]?.max ?? 0);
  });
}
