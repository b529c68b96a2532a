import type { Sql } from '../../db/tx.ts';
import { moveOpenLotsSql } from './repository.ts';

// Raw SQL: what the engine's batch decided about its awards, in one statement (bench suite
// `engine`): the cap counters, the pending grants (with the participants' pending points) and the
// `activity` expiry moves. The caller holds the batch's participant locks.

export interface GrantToWrite {
  id: string;
  workspaceId: string;
  mode: string;
  participantId: number;
  points: number;
  availableAt: Date;
  /** Null for an inactivity run's award (docs/engagement.md#inactivity): there is no event. */
  eventId: string | null;
  /** Null for a referral's advocate reward (docs/referrals.md#hold-and-claw-back): no flow ran. */
  flowRunId: string | null;
  idempotencyKey: string;
}

export interface AwardWrites {
  /** Earned points per participant, cap scope and period, as they stand after the batch. */
  counts: { participantId: number; scope: string; period: string; points: number }[];
  grants: GrantToWrite[];
  /** `activity` expiry: each participant's open lots move to this instant. */
  moves: { participantId: number; expiresAt: Date }[];
}

const COUNTS = `counts as (
  insert into earning_counts (participant_id, scope, period, points)
  select * from unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])
  on conflict (participant_id, scope, period) do update set points = excluded.points
  returning 1
)`;

// A retried step finds its grant (the derived key) and adds nothing to the pending points.
const GRANTS = `grants as (
  insert into pending_grants (id, workspace_id, mode, participant_id, points, available_at, status, event_id,
                              flow_run_id, idempotency_key)
  select g.id, g.workspace_id, g.mode, g.participant_id, g.points, g.available_at, 'pending', g.event_id,
         g.flow_run_id, g.key
    from unnest($5::uuid[], $6::uuid[], $7::text[], $8::bigint[], $9::bigint[], $10::timestamptz[], $11::uuid[],
                $12::uuid[], $13::text[])
      as g(id, workspace_id, mode, participant_id, points, available_at, event_id, flow_run_id, key)
  on conflict (workspace_id, mode, idempotency_key) do nothing
  returning participant_id, points
), pending as (
  update participants p set pending_points = p.pending_points + t.points
    from (select participant_id, sum(points) as points from grants group by participant_id) t
   where p.id = t.participant_id
  returning 1
)`;

const MOVES = `moves as (
  ${moveOpenLotsSql('$14', '$15')}
  returning 1
)`;

/** Writes the batch's counters, grants and expiry moves; nothing (no round trip) when there are none. */
export async function writeAwards(sql: Sql, w: AwardWrites): Promise<void> {
  if (!w.counts.length && !w.grants.length && !w.moves.length) return;
  await sql.query(
    `with ${COUNTS}, ${GRANTS}, ${MOVES}
     select (select count(*) from counts) + (select count(*) from pending) + (select count(*) from moves) as n`,
    [
      w.counts.map((c) => c.participantId),
      w.counts.map((c) => c.scope),
      w.counts.map((c) => c.period),
      w.counts.map((c) => c.points),
      w.grants.map((g) => g.id),
      w.grants.map((g) => g.workspaceId),
      w.grants.map((g) => g.mode),
      w.grants.map((g) => g.participantId),
      w.grants.map((g) => g.points),
      w.grants.map((g) => g.availableAt),
      w.grants.map((g) => g.eventId),
      w.grants.map((g) => g.flowRunId),
      w.grants.map((g) => g.idempotencyKey),
      w.moves.map((m) => m.participantId),
      w.moves.map((m) => m.expiresAt),
    ],
  );
}
