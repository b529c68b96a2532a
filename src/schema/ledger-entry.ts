import type { LedgerEntryDto } from '../services/ledger/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

/** A ledger entry, the same object the REST ledger and adjustments return. */
export const LedgerEntry = builder.objectRef<LedgerEntryDto>('LedgerEntry').implement({
  description: 'One immutable points movement. Entries are never edited: a reversal is a new entry.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    points: t.expose('points', {
      type: PointsScalar,
      description: 'Signed: credits positive, debits negative.',
    }),
    balanceAfter: t.expose('balance_after', { type: PointsScalar }),
    reason: t.exposeString('reason', { nullable: true }),
    source: t.exposeString('source', {
      description: '`flow`, `adjustment`, `redemption`, `reversal` or `expiry`.',
    }),
    reference: t.exposeString('reference', { nullable: true }),
    reversesEntryId: t.exposeID('reverses_entry_id', { nullable: true }),
    idempotencyKey: t.exposeString('idempotency_key', { nullable: true }),
    expiresAt: t.expose('expires_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'Credits: when the lot it opened expires, as written; null otherwise or never.',
    }),
    cappedPoints: t.expose('capped_points', {
      type: PointsScalar,
      description: 'Flow awards: the part an earning cap cut; 0 otherwise.',
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
  })),
});
