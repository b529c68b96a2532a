import { z } from 'zod';
import { presentMove } from '../tiers/presenters.ts';
import type { MoveRow } from '../tiers/repository.ts';
import { tierMoveShape } from '../tiers/shapes.ts';

/**
 * A move of a participant's level, as a live subscription delivers it (GraphQL `tierChanged`,
 * docs/live-updates.md#payloads), after it commits: the history row's move, named by the
 * participant's external id like the other live payloads.
 */
export const tierChangeShape = z.object({
  external_id: z.string(),
  from: tierMoveShape.shape.from,
  to: tierMoveShape.shape.to,
  reason: tierMoveShape.shape.reason,
  qualifying_points: tierMoveShape.shape.qualifying_points,
});
export type TierChange = z.output<typeof tierChangeShape>;

/** A `tier_history` row with its participant's external id, as every door presents the move. */
export function presentTierChange(r: MoveRow & { external_id: string }): TierChange {
  const { from, to, reason, qualifying_points } = presentMove(r);
  return { external_id: r.external_id, from, to, reason, qualifying_points };
}
