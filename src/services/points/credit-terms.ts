import type { Sql } from '../../db/tx.ts';
import { programOf } from './program.ts';
import { moveOpenLots } from './repository.ts';
import { dateOf, expiryOf, instantOf } from './rules.ts';

/** How a credit made now is kept: its lot's expiry, and whether it moves the open lots too. */
export interface CreditTerms {
  expiresAt: Date | null;
  /** `activity` expiry: every open lot of the participant moves to `expiresAt` with this credit. */
  movesOpenLots: boolean;
}

/** The terms of a credit from a flow or a positive adjustment made at `at` (docs/points.md#expiry). */
export async function creditTerms(
  sql: Sql,
  workspaceId: string,
  mode: string,
  at: Date,
): Promise<CreditTerms> {
  const program = await programOf(sql, workspaceId, mode);
  const expiry = expiryOf(instantOf(at), program.points_expiry, program.timezone);
  return {
    expiresAt: expiry ? dateOf(expiry) : null,
    movesOpenLots: expiry !== null && program.points_expiry?.mode === 'activity',
  };
}

/** Applies the `activity` move after the credit posted (the caller holds the participant's row lock). */
export function applyCreditTerms(sql: Sql, participantId: number, terms: CreditTerms): Promise<void> {
  if (!terms.movesOpenLots || !terms.expiresAt) return Promise.resolve();
  return moveOpenLots(sql, [{ participantId, expiresAt: terms.expiresAt }]);
}
