import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { keysetSql, type Page } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { ranksOf } from '../leaderboards/read-leaderboard.ts';
import type { RawEntry } from '../ledger/post-entry.ts';
import { type LedgerEntryRow, presentEntry } from '../ledger/presenters.ts';
import { activeMultipliersSql } from '../rewards/multiplier.ts';
import { parseInput } from '../validation.ts';
import { presentHeldBadgeRow } from './participant-badges.ts';
import { participantLedgerInput } from './participant-ledger.ts';
import type { ParticipantBadgeDto, ParticipantSummary } from './shapes.ts';

// Raw SQL: the batched reads behind GraphQL's nested participant fields (schema/participant.ts):
// one statement per list of participants, whatever its length, each scoped like
// `findParticipant` (workspace and mode) by joining the participants table on the external ids.

/**
 * What a batch answers per requested external id, in the order asked: the value, or the 404 the
 * single read (`participantBadges`, `participantSummary`, `participantLedger`) would throw.
 */
export type PerParticipant<T> = (T | Error)[];

const inOrder = <T>(externalIds: readonly string[], found: Map<string, T>): PerParticipant<T> =>
  externalIds.map((id) => found.get(id) ?? notFound('participant'));

/** `participantBadges` for many participants of the caller's workspace and mode, in one statement. */
export async function badgesOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
): Promise<PerParticipant<ParticipantBadgeDto[]>> {
  const { rows } = await ctx.pool.query<{
    external_id: string;
    key: string | null;
    tier: string;
    name: string;
    awarded_at: Date;
    flow_run_id: string | null;
  }>(
    `select p.external_id, b.key, pb.tier, b.name, pb.awarded_at, pb.flow_run_id
       from participants p
       left join participant_badges pb on pb.participant_id = p.id
       left join badges b on b.id = pb.badge_id
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])
      order by p.id, pb.awarded_at desc nulls last, pb.id desc`,
    [who.workspaceId, who.mode, externalIds],
  );
  const found = new Map<string, ParticipantBadgeDto[]>();
  for (const r of rows) {
    const held = found.get(r.external_id) ?? [];
    found.set(r.external_id, held);
    if (r.key === null) continue; // a participant without badges
    held.push(presentHeldBadgeRow({ ...r, key: r.key }));
  }
  return inOrder(externalIds, found);
}

/**
 * `participantSummary` for many participants in two statements: the participants with their
 * counts and active multiplier (the rule of rewards/multiplier.ts), then every rank at once.
 */
export async function summariesOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
  now = new Date(),
): Promise<PerParticipant<ParticipantSummary>> {
  const { rows } = await ctx.pool.query<{
    external_id: string;
    balance: string;
    lifetime_points: string;
    badges: string;
    redemptions: string;
    events: string;
    factor: string | null;
    expires_at: Date | null;
  }>(
    `with ps as (
       select id, external_id, balance, lifetime_points from participants
        where workspace_id = $1 and mode = $2 and external_id = any($3::text[])
     )
     select ps.external_id, ps.balance, ps.lifetime_points,
            (select count(*) from participant_badges where participant_id = ps.id) as badges,
            (select count(*) from redemptions where participant_id = ps.id) as redemptions,
            (select count(*) from events where participant_id = ps.id) as events,
            m.factor, m.expires_at
       from ps
       left join (${activeMultipliersSql('array(select id from ps)', '$4::timestamptz')}) m
         on m.participant_id = ps.id`,
    [who.workspaceId, who.mode, externalIds, now],
  );
  const ranks = await ranksOf(
    ctx.pool,
    who,
    'all_time',
    rows.map((r) => Number(r.lifetime_points)),
    now,
  );
  const found = new Map<string, ParticipantSummary>();
  rows.forEach((r, i) => {
    found.set(r.external_id, {
      external_id: r.external_id,
      balance: Number(r.balance),
      lifetime_points: Number(r.lifetime_points),
      badges_count: Number(r.badges),
      redemptions_count: Number(r.redemptions),
      events_count: Number(r.events),
      rank: ranks[i]!,
      active_multiplier:
        r.factor !== null && r.expires_at !== null
          ? { factor: Number(r.factor), expires_at: new Date(r.expires_at).toISOString() }
          : null,
    });
  });
  return inOrder(externalIds, found);
}

/**
 * The same page (`input`: limit and cursor, as `participantLedger` takes) of many participants'
 * ledgers, in one statement: a LATERAL keyset read per participant.
 */
export async function ledgersOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
  input: unknown,
): Promise<PerParticipant<Page<LedgerEntryRow>>> {
  const q = parseInput(participantLedgerInput, input);
  const range = ctx.paginator.rangeOf<string>(q);
  const k = keysetSql(range, 'id', 4);
  const { rows } = await ctx.pool.query<RawEntry & { owner: string; entry_id: string | null }>(
    `select p.external_id as owner, e.id as entry_id, e.*
       from participants p
       left join lateral (
         select id, points, balance_after, reason, source, reference, reverses_entry_id, idempotency_key, created_at
           from ledger_entries
          where participant_id = p.id and ${k.where}
          order by ${k.order} limit ${k.limit}
       ) e on true
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])`,
    [who.workspaceId, who.mode, externalIds, ...k.params],
  );
  const ascending = range.after?.op === 'gt';
  const byOwner = new Map<string, RawEntry[]>();
  for (const r of rows) {
    const list = byOwner.get(r.owner) ?? [];
    byOwner.set(r.owner, list);
    if (r.entry_id !== null) list.push(r);
  }
  const found = new Map<string, Page<LedgerEntryRow>>();
  for (const [owner, list] of byOwner) {
    // Bigint ids as strings: compared as numbers, in the range's order.
    list.sort((a, b) => {
      const d = BigInt(a.id) - BigInt(b.id);
      return (d > 0n ? 1 : d < 0n ? -1 : 0) * (ascending ? 1 : -1);
    });
    found.set(
      owner,
      ctx.paginator.pageFrom(q, list.map(presentEntry), (e: LedgerEntryRow) => e.id),
    );
  }
  return inOrder(externalIds, found);
}
