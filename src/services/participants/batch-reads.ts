import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Page, PageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { ranksOf } from '../leaderboards/read-leaderboard.ts';
import { presentEntry } from '../ledger/presenters.ts';
import type { RawEntry } from '../ledger/repository.ts';
import type { LedgerEntryDto } from '../ledger/shapes.ts';
import { presentTier } from '../tiers/presenters.ts';
import { presentHeldBadgeRow } from './participant-badges.ts';
import { presentNextExpiry } from './presenters.ts';
import * as repo from './repository.ts';
import type { ParticipantBadgeDto, ParticipantSummary } from './shapes.ts';

// The batched reads behind GraphQL's nested participant fields (schema/participant.ts): one
// statement per list of participants, whatever its length, each scoped like `findParticipant`.

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
  const found = new Map<string, ParticipantBadgeDto[]>();
  for (const r of await repo.badgesOfMany(ctx.pool, who, externalIds)) {
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
  const rows = await repo.summariesOfMany(ctx.pool, who, externalIds, now);
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
      pending_points: Number(r.pending_points),
      next_expiry: presentNextExpiry(r),
      tier: presentTier(r),
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
 * The same page (`q`: limit and cursor, as `participantLedger` takes) of many participants'
 * ledgers, in one statement: a LATERAL keyset read per participant.
 */
export async function ledgersOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
  q: PageInput,
): Promise<PerParticipant<Page<LedgerEntryDto>>> {
  const range = ctx.paginator.rangeOf<string>(q);
  const rows = await repo.ledgersOfMany(ctx.pool, who, externalIds, range);
  const ascending = range.after?.op === 'gt';
  const byOwner = new Map<string, RawEntry[]>();
  for (const r of rows) {
    const list = byOwner.get(r.owner) ?? [];
    byOwner.set(r.owner, list);
    if (r.entry_id !== null) list.push(r);
  }
  const found = new Map<string, Page<LedgerEntryDto>>();
  for (const [owner, list] of byOwner) {
    // Bigint ids as strings: compared as numbers, in the range's order.
    list.sort((a, b) => {
      const d = BigInt(a.id) - BigInt(b.id);
      return (d > 0n ? 1 : d < 0n ? -1 : 0) * (ascending ? 1 : -1);
    });
    found.set(
      owner,
      ctx.paginator.pageFrom(q, list.map(presentEntry), (e: LedgerEntryDto) => e.id),
    );
  }
  return inOrder(externalIds, found);
}
