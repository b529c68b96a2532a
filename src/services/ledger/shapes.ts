import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';

export const LEDGER_SOURCES = ['flow', 'adjustment', 'redemption', 'reversal'] as const;

/** A ledger entry as every door shows it (CONTRACT 7). */
export const ledgerEntryShape = z
  .object({
    id: z.int(),
    points: z.int().meta({ description: 'Signed: credits positive, debits negative.' }),
    balance_after: z.int().min(0),
    reason: z.string().nullable(),
    source: z.enum(LEDGER_SOURCES),
    reference: z.string().nullable().meta({ description: 'What caused it (flow run, redemption, …).' }),
    reverses_entry_id: z.int().nullable().meta({ description: 'Set on a reversal: the entry it reverses.' }),
    idempotency_key: z.string().nullable(),
    created_at: timestamp('When it was posted.'),
  })
  .meta({
    id: 'LedgerEntry',
    description: 'Immutable: entries are never updated or deleted (the database refuses).',
  });
export type LedgerEntryDto = z.output<typeof ledgerEntryShape>;
