import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';

/** What moved the points: a flow's award, an adjustment by hand, a redemption, a reversal, or an expiry. */
export const ledgerSource = z.enum(['flow', 'adjustment', 'redemption', 'reversal', 'expiry']);
export type LedgerSource = z.output<typeof ledgerSource>;

/** A ledger entry as every door shows it (docs/api.md#participants-points-and-leaderboards). */
export const ledgerEntryShape = z
  .object({
    id: z.int(),
    points: z.int().meta({ description: 'Signed: credits positive, debits negative.' }),
    balance_after: z.int().min(0),
    reason: z.string().nullable(),
    source: ledgerSource,
    reference: z.string().nullable().meta({ description: 'What caused it (flow run, redemption, …).' }),
    reverses_entry_id: z.int().nullable().meta({ description: 'Set on a reversal: the entry it reverses.' }),
    idempotency_key: z.string().nullable(),
    expires_at: timestamp(
      'Credits: when the lot it opened expires, as written; null otherwise or never.',
    ).nullable(),
    capped_points: z
      .int()
      .min(0)
      .meta({ description: 'Flow awards: the part an earning cap cut; 0 otherwise.' }),
    created_at: timestamp('When it was posted.'),
  })
  .meta({
    id: 'LedgerEntry',
    description: 'Immutable: entries are never updated or deleted (the database refuses).',
  });
export type LedgerEntryDto = z.output<typeof ledgerEntryShape>;

/** The `data` of a `points.changed` result: the entry posted and the balance it left. */
export const pointsChangedShape = z.object({
  participant: z.object({ external_id: z.string() }),
  entry: ledgerEntryShape,
  balance: z.int().min(0),
});
export type PointsChangedData = z.output<typeof pointsChangedShape>;
