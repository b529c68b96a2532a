import { z } from 'zod';
import { ledgerEntryShape } from './shapes.ts';

/**
 * A committed change of a participant's points as a live subscription delivers it (GraphQL
 * `balanceChanged`, docs/live-updates.md#payloads): one per ledger entry, after it commits.
 */
export const balanceChangeShape = z.object({
  external_id: z.string(),
  balance: z
    .int()
    .min(0)
    .meta({ description: 'The balance right after this entry (`entry.balance_after`).' }),
  lifetime_points: z
    .int()
    .min(0)
    .meta({ description: "The participant's lifetime points when the change was read." }),
  entry: ledgerEntryShape,
});
export type BalanceChange = z.output<typeof balanceChangeShape>;
