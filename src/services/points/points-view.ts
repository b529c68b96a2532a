import type { AppContext } from '../../context.ts';
import { isoTime } from '../../lib/iso-time.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from '../participants/repository.ts';
import { type LotRow, openLots } from './repository.ts';
import type { LotDto, PointsViewDto } from './shapes.ts';

/** How many expiry instants `expiring` lists. */
const EXPIRING_GROUPS = 12;

export const presentLot = (r: LotRow): LotDto => ({
  entry_id: Number(r.entry_id),
  points: Number(r.points),
  remaining: Number(r.remaining),
  expires_at: r.expires_at ? isoTime(r.expires_at) : null,
});

/**
 * `GET /v1/participants/{external_id}/points` (docs/points.md#reads): the balance, the pending
 * points, every open lot in the order debits consume them, and open points grouped by expiry
 * instant. Balance = Σ remaining of the lots, always.
 */
export async function participantPoints(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<PointsViewDto> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  const lots = (await openLots(ctx.pool, participant.id)).map(presentLot);
  const expiring = new Map<string, number>();
  for (const l of lots) {
    if (!l.expires_at) continue;
    if (!expiring.has(l.expires_at) && expiring.size === EXPIRING_GROUPS) break;
    expiring.set(l.expires_at, (expiring.get(l.expires_at) ?? 0) + l.remaining);
  }
  return {
    balance: Number(participant.balance),
    pending_points: Number(participant.pending_points),
    lots,
    expiring: [...expiring].map(([expires_at, points]) => ({ expires_at, points })),
  };
}
