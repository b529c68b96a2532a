import { defineEntity, p } from '@mikro-orm/core';
import { liveTrigger } from '../live/triggers.ts';
import { Workspace } from '../workspaces/entities.ts';

/**
 * A workspace+mode's tier programme (docs/tiers.md#the-programme). `programme` null: ended (or
 * never started). Every change bumps `version`; the tier job walks every participant (by id, from
 * `cursor`) until `applied_version` catches up, so each is moved once (docs/tiers.md#changing-the-programme).
 */
const TierProgramRowSchema = defineEntity({
  name: 'TierProgramRow',
  tableName: 'tier_programs',
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    mode: p.string().length(4).primary(),
    /** The programme as `PUT /v1/tiers` validated it; null once ended. */
    programme: p.json<Record<string, unknown>>().nullable(),
    /** The programme before the latest change (the walk names the levels participants leave). */
    previous: p.json<Record<string, unknown>>().nullable(),
    version: p.integer().default(1),
    appliedVersion: p.integer().default(0),
    /** The apply walk's last participant id. */
    cursor: p.bigint('number').default(0),
    /** The walk recounts qualifying points from the ledger (the window changed). */
    recount: p.boolean().default(false),
    /** When the current programme started (a participant who never moved is at its first level since). */
    startedAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class TierProgramRow extends TierProgramRowSchema.class {}
TierProgramRowSchema.setClass(TierProgramRow);

/**
 * Every move of a participant's level (docs/tiers.md#moves). Append-only; read by participant in
 * id order (history, the live `tierChanged`). No foreign keys: written in batches by the engine and
 * the tier job, like the lots (points/entities.ts).
 */
const TierMoveSchema = defineEntity({
  name: 'TierMove',
  tableName: 'tier_history',
  triggers: [liveTrigger('tier_history', 't')],
  indexes: [{ name: 'tier_history_participant_idx', properties: ['participantId', 'id'] }],
  checks: [
    {
      name: 'tier_history_reason_check',
      expression: "reason in ('qualified', 'downgrade', 'manual', 'programme_change')",
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspaceId: p.uuid(),
    mode: p.string().length(4),
    participantId: p.bigint('number'),
    fromKey: p.string().length(64).nullable(),
    fromName: p.string().length(200).nullable(),
    toKey: p.string().length(64).nullable(),
    toName: p.string().length(200).nullable(),
    reason: p.string().length(20),
    /** The operator's note of a manual move. */
    note: p.string().length(500).nullable(),
    qualifyingPoints: p.bigint('number'),
    at: p.datetime().defaultRaw('now()'),
  },
});
export class TierMove extends TierMoveSchema.class {}
TierMoveSchema.setClass(TierMove);

/**
 * A qualifying credit still inside a `rolling` window (docs/tiers.md#qualifying-points): the tier
 * job takes it out at `leaves_at`, a reversal before then takes it out at once. Exactly once
 * either way: whoever deletes the row subtracts its points.
 */
const TierCreditSchema = defineEntity({
  name: 'TierCredit',
  tableName: 'tier_credits',
  indexes: [
    { name: 'tier_credits_leaves_idx', properties: ['leavesAt'] },
    { name: 'tier_credits_participant_idx', properties: ['participantId', 'leavesAt'] },
  ],
  properties: {
    entryId: p.bigint('number').primary().autoincrement(false),
    participantId: p.bigint('number'),
    points: p.bigint('number'),
    leavesAt: p.datetime(),
  },
});
export class TierCredit extends TierCreditSchema.class {}
TierCreditSchema.setClass(TierCredit);
