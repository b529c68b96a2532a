import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import { type PendingStatus, pendingStatus } from './shapes.ts';

/** A workspace+mode's programme settings (docs/points.md#programme-settings); absent = the defaults. */
const ProgramSettingsRowSchema = defineEntity({
  name: 'ProgramSettingsRow',
  tableName: 'program_settings',
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    mode: p.string().length(4).primary(),
    /** The `Program` object as `PATCH /v1/program` validated it. */
    settings: p.json<Record<string, unknown>>(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class ProgramSettingsRow extends ProgramSettingsRowSchema.class {}
ProgramSettingsRowSchema.setClass(ProgramSettingsRow);

/**
 * Points a credit brought (docs/points.md#lots), opened and consumed by the ledger's trigger
 * (lots-trigger.sql.ts) and emptied by the expiry job. `remaining` only ever goes down: a reversal
 * that gives points back opens new lots.
 *
 * No foreign keys, on purpose: lots and allocations are written only by the ledger's trigger and
 * the expiry statement, from rows of the same statement, and ledger rows are never deleted; a
 * foreign key check is a query per row on the engine's, the redemption's and the expiry's hot
 * paths (bench suites `engine`, `rewards`, `points`).
 */
const PointLotSchema = defineEntity({
  name: 'PointLot',
  tableName: 'point_lots',
  indexes: [
    // A participant's open lots in consumption order (debits, reads).
    {
      name: 'point_lots_open_idx',
      expression:
        'create index "point_lots_open_idx" on "point_lots" ("participant_id", "expires_at", "id") where remaining > 0',
    },
    // The expiry job's due lots.
    {
      name: 'point_lots_due_idx',
      expression:
        'create index "point_lots_due_idx" on "point_lots" ("expires_at") where remaining > 0 and expires_at is not null',
    },
    // The notice job's lots not yet announced.
    {
      name: 'point_lots_notice_idx',
      expression:
        'create index "point_lots_notice_idx" on "point_lots" ("expires_at") where notified_at is null and remaining > 0 and expires_at is not null',
    },
    { name: 'point_lots_entry_idx', properties: ['entryId'] },
  ],
  checks: [
    { name: 'point_lots_points_positive', expression: 'points > 0' },
    { name: 'point_lots_remaining_range', expression: 'remaining >= 0 and remaining <= points' },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspaceId: p.uuid(),
    mode: p.string().length(4),
    participantId: p.bigint('number'),
    /** The credit that opened it. */
    entryId: p.bigint('number'),
    points: p.bigint('number'),
    remaining: p.bigint('number'),
    expiresAt: p.datetime().nullable(),
    /** When `points.expiring` was emitted for it. */
    notifiedAt: p.datetime().nullable(),
    /** When the expiry job emptied it. */
    expiredAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class PointLot extends PointLotSchema.class {}
PointLotSchema.setClass(PointLot);

/** Which lots a debit consumed, and how much of each (docs/points.md#lots); no foreign keys (above). */
const LotAllocationSchema = defineEntity({
  name: 'LotAllocation',
  tableName: 'lot_allocations',
  indexes: [{ name: 'lot_allocations_lot_idx', properties: ['lotId'] }],
  checks: [{ name: 'lot_allocations_points_positive', expression: 'points > 0' }],
  properties: {
    /** The debit entry. */
    entryId: p.bigint('number').primary(),
    lotId: p.bigint('number').primary(),
    points: p.bigint('number'),
  },
});
export class LotAllocation extends LotAllocationSchema.class {}
LotAllocationSchema.setClass(LotAllocation);

/** Flow-awarded points waiting for `available_at` (docs/points.md#pending-points). */
const PendingGrantSchema = defineEntity({
  name: 'PendingGrant',
  tableName: 'pending_grants',
  uniques: [
    { name: 'pending_grants_idempotency_key_unique', properties: ['workspace', 'mode', 'idempotencyKey'] },
  ],
  indexes: [
    { name: 'pending_grants_participant_idx', properties: ['participant', 'id'] },
    {
      name: 'pending_grants_due_idx',
      expression:
        'create index "pending_grants_due_idx" on "pending_grants" ("available_at") where status = \'pending\'',
    },
  ],
  checks: [
    { name: 'pending_grants_points_positive', expression: 'points > 0' },
    {
      name: 'pending_grants_status_check',
      expression: `status in (${pendingStatus.options.map((s) => `'${s}'`).join(', ')})`,
    },
  ],
  properties: {
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    points: p.bigint('number'),
    availableAt: p.datetime(),
    status: p.string().length(16).$type<PendingStatus>(),
    eventId: p.uuid().nullable(),
    flowRunId: p.uuid().nullable(),
    /** The flow step's derived key, so a retried step grants once. */
    idempotencyKey: p.string().length(300),
    /** The credit its activation posted. */
    entryId: p.bigint('number').nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    settledAt: p.datetime().nullable(),
  },
});
export class PendingGrant extends PendingGrantSchema.class {}
PendingGrantSchema.setClass(PendingGrant);

/**
 * Points a participant earned from flows in one calendar period, per cap scope (`program`, or a
 * flow action's `<flow id>:<index>`), so a cap reads one row (docs/points.md#earning-caps).
 */
const EarningCountSchema = defineEntity({
  name: 'EarningCount',
  tableName: 'earning_counts',
  properties: {
    participant: () => p.manyToOne(Participant).primary().deleteRule('cascade'),
    /** `day:2026-11-28`, `week:2026-W48`, `month:2026-11`, `year:2026` (rules.ts periodKey). */
    period: p.string().length(16).primary(),
    scope: p.string().length(80).primary(),
    points: p.bigint('number').default(0),
  },
});
export class EarningCount extends EarningCountSchema.class {}
EarningCountSchema.setClass(EarningCount);
