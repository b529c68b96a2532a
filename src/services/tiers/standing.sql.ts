import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { emitResultsCtes } from '../outbox/emit.sql.ts';
import type { Move, Standing } from './rules.ts';
import type { TierChangedData } from './shapes.ts';

// Raw SQL: every write of tier standings, in ONE statement whatever the number of participants
// (bench suite `tiers`: the engine's batches, the tier job's batches, a programme change's walk):
// the standings, the history of the moves, the rolling window's credits in and out, and each
// move's `tier.changed` in the outbox. The caller holds the participants' row locks and computed
// the standings with rules.ts from rows read under them.

/** The standing columns of `participants` as rules.ts reads them, prefixed with `alias`. */
export const standingColumns = (alias: string) =>
  `${alias}.tier_key, ${alias}.tier_since, ${alias}.tier_points, ${alias}.tier_period, ${alias}.tier_prior_points,
   ${alias}.tier_review_at, ${alias}.lifetime_points`;

/** A row with {@link standingColumns}. */
export interface StandingRow {
  tier_key: string | null;
  tier_since: Date | string | null;
  tier_points: string | number;
  tier_period: string | null;
  tier_prior_points: string | number;
  tier_review_at: Date | string | null;
  lifetime_points: string | number;
}

const dateOrNull = (d: Date | string | null) => (d === null ? null : new Date(d));

export const standingOf = (r: StandingRow): Standing => ({
  key: r.tier_key,
  since: dateOrNull(r.tier_since),
  points: Number(r.tier_points),
  period: r.tier_period,
  prior: Number(r.tier_prior_points),
  reviewAt: dateOrNull(r.tier_review_at),
  lifetime: Number(r.lifetime_points),
});

export interface StandingWrite {
  participantId: number;
  standing: Standing;
}

export interface MoveWrite {
  workspaceId: string;
  mode: string;
  participantId: number;
  externalId: string;
  move: Move;
}

export interface TierWrites {
  standings: StandingWrite[];
  moves: MoveWrite[];
  /** Qualifying credits entering a rolling window. */
  credits: { entryId: number; participantId: number; points: number; leavesAt: Date }[];
}

export const noWrites = (): TierWrites => ({ standings: [], moves: [], credits: [] });

const emit = emitResultsCtes('r', 'tier');

/** The `tier.changed` data of a move (docs/tiers.md#moves). */
export const tierChanged = (m: MoveWrite): TierChangedData => ({
  participant: { external_id: m.externalId },
  from: m.move.from,
  to: m.move.to,
  reason: m.move.reason,
  qualifying_points: m.move.qualifyingPoints,
});

/** Writes the standings, moves and credits; nothing (no round trip) when there are none. */
export async function writeStandings(sql: Sql, w: TierWrites): Promise<void> {
  if (!w.standings.length && !w.moves.length && !w.credits.length) return;
  const s = w.standings;
  const m = w.moves;
  const c = w.credits;
  await sql.query({
    name: 'tiers_write_standings',
    text: `with st as (
       update participants p
          set tier_key = x.key, tier_since = x.since, tier_points = x.points, tier_period = x.period,
              tier_prior_points = x.prior, tier_review_at = x.review_at
         from unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::bigint[], $5::text[], $6::bigint[],
                     $7::timestamptz[]) as x(id, key, since, points, period, prior, review_at)
        where p.id = x.id
       returning 1
     ), hist as (
       insert into tier_history (workspace_id, mode, participant_id, from_key, from_name, to_key, to_name, reason,
                                 note, qualifying_points, at)
       select w, m, p, fk, fn, tk, tn, reason, note, q, at
         from unnest($8::uuid[], $9::text[], $10::bigint[], $11::text[], $12::text[], $13::text[], $14::text[],
                     $15::text[], $16::text[], $17::bigint[], $18::timestamptz[]) with ordinality
           as h(w, m, p, fk, fn, tk, tn, reason, note, q, at, ord)
        order by ord
       returning 1
     ), credits as (
       insert into tier_credits (entry_id, participant_id, points, leaves_at)
       select * from unnest($19::bigint[], $20::bigint[], $21::bigint[], $22::timestamptz[])
       on conflict (entry_id) do nothing
       returning 1
     ), r as (
       select * from unnest($23::uuid[], $8::uuid[], $9::text[], $24::text[], $25::text[]) with ordinality
         as r(id, workspace_id, mode, type, data, ord)
     ), ${emit.ctes}
     select (select count(*) from st) + (select count(*) from hist) + (select count(*) from credits) as n,
            ${emit.notify} as notified`,
    values: [
      s.map((x) => x.participantId),
      s.map((x) => x.standing.key),
      s.map((x) => x.standing.since),
      s.map((x) => x.standing.points),
      s.map((x) => x.standing.period),
      s.map((x) => x.standing.prior),
      s.map((x) => x.standing.reviewAt),
      m.map((x) => x.workspaceId),
      m.map((x) => x.mode),
      m.map((x) => x.participantId),
      m.map((x) => x.move.from?.key ?? null),
      m.map((x) => x.move.from?.name ?? null),
      m.map((x) => x.move.to?.key ?? null),
      m.map((x) => x.move.to?.name ?? null),
      m.map((x) => x.move.reason),
      m.map((x) => x.move.note ?? null),
      m.map((x) => x.move.qualifyingPoints),
      m.map((x) => x.move.at),
      c.map((x) => x.entryId),
      c.map((x) => x.participantId),
      c.map((x) => x.points),
      c.map((x) => x.leavesAt),
      m.map(() => uuidv7()),
      m.map(() => 'tier.changed'),
      m.map((x) => JSON.stringify(tierChanged(x))),
    ],
  });
}

/**
 * `rolling`: takes a reversed credit out of the window if it is still in it; answers whether it was
 * (whoever deletes the row subtracts its points: the tier job's leave or this, once).
 */
export async function takeOutCredit(sql: Sql, entryId: number): Promise<boolean> {
  const { rowCount } = await sql.query(`delete from tier_credits where entry_id = $1`, [entryId]);
  return (rowCount ?? 0) > 0;
}
