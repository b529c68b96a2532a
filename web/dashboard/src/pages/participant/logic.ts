import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
export type PointsView = Outputs['points']['lots'];
export type PendingGrant = Outputs['points']['pending']['data'][number];
export type PendingStatus = PendingGrant['status'];
export type LedgerEntry = Outputs['participants']['ledger']['data'][number];
export type LedgerSource = LedgerEntry['source'];

/** Badge colours by ledger source, a `Record` over the router's type: a new source fails to compile here. */
export const SOURCE_COLORS: Record<LedgerSource, string> = {
  flow: 'indigo',
  adjustment: 'blue',
  redemption: 'orange',
  reversal: 'gray',
  expiry: 'grape',
};

/**
 * Badge colours by pending grant status (the router's type, as above). Not yellow: its darkest
 * text on its light fill is just under AA's 4.5:1 in this Mantine (axe color-contrast).
 */
export const PENDING_STATUS_COLORS: Record<PendingStatus, string> = {
  pending: 'orange',
  activated: 'teal',
  cancelled: 'gray',
};

/**
 * The credit an expiry entry's `reference` (`lot:<entry id>`) points back to, for the ledger's
 * reason cell: its own reason only says "Points expired". Null for every other entry.
 */
export function expiredCredit(source: LedgerSource, reference: string | null): string | null {
  const lot = source === 'expiry' && reference ? /^lot:(\d+)$/.exec(reference) : null;
  return lot ? `from credit #${lot[1]}` : null;
}
