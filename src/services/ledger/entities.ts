import { defineEntity, p } from '@mikro-orm/core';
import { liveTrigger } from '../live/triggers.ts';
import { Participant } from '../participants/entities.ts';
import { LOTS_TRIGGER } from '../points/lots-trigger.sql.ts';
import { Workspace } from '../workspaces/entities.ts';
import type { LedgerSource } from './shapes.ts';

/**
 * One immutable points movement (docs/guarantees.md#the-ledger-immutable-balance--sum-of-entries). Rows are never updated or deleted: a trigger in
 * the migration refuses both. A reversal is a new row whose `reversesEntry` names the original,
 * unique so an entry can be reversed once.
 */
const IMMUTABLE = `raise exception 'ledger entries are immutable: post a reversal instead';`;

const LedgerEntrySchema = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  uniques: [
    { name: 'ledger_entries_idempotency_key_unique', properties: ['workspace', 'mode', 'idempotencyKey'] },
    { name: 'ledger_entries_reverses_entry_id_unique', properties: ['reversesEntry'] },
  ],
  // Points are never edited in place: the database itself refuses UPDATE, DELETE and
  // TRUNCATE of ledger rows, whatever code (or person) tries. (TRUNCATE's statement trigger is in
  // the migration only: MikroORM's introspection does not read statement triggers back.)
  triggers: [
    {
      name: 'ledger_entries_no_update',
      timing: 'before',
      events: ['update', 'delete'],
      forEach: 'row',
      body: IMMUTABLE,
    },
    // Announces committed entries to GraphQL subscribers (src/services/live).
    liveTrigger('ledger_entries', 'l'),
    // Opens and consumes point lots for every entry, whatever code posts it (docs/points.md#lots).
    LOTS_TRIGGER,
  ],
  indexes: [
    { name: 'ledger_entries_participant_idx', properties: ['participant', 'id'] },
    { name: 'ledger_entries_list_idx', properties: ['workspace', 'mode', 'id'] },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    /** Signed: credits positive, debits negative. */
    points: p.bigint('number'),
    balanceAfter: p.bigint('number'),
    reason: p.string().length(500).nullable(),
    source: p.string().length(16).$type<LedgerSource>(),
    /** What caused it: a flow run id, a redemption id, … */
    reference: p.string().length(255).nullable(),
    reversesEntry: () => p.manyToOne(LedgerEntry).nullable().deleteRule('no action'),
    idempotencyKey: p.string().length(300).nullable(),
    /** Credits: the expiry of the lot it opened, as written (docs/points.md#lots); null otherwise. */
    expiresAt: p.datetime().nullable(),
    /** Flow awards: the part an earning cap cut (docs/points.md#earning-caps); 0 otherwise. */
    cappedPoints: p.bigint('number').default(0),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class LedgerEntry extends LedgerEntrySchema.class {}
LedgerEntrySchema.setClass(LedgerEntry);
