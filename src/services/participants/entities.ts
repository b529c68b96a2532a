import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from '../workspaces/entities.ts';

const ParticipantSchema = defineEntity({
  name: 'Participant',
  tableName: 'participants',
  uniques: [{ properties: ['workspace', 'mode', 'externalId'] }],
  indexes: [
    { properties: ['workspace', 'mode', 'id'] },
    // No index on balance or lifetime_points, on purpose: point postings then stay HOT updates.
    // Leaderboards keep their own scores (src/services/leaderboards/record-earnings.ts).
    // `?search=` is a case-insensitive substring match over external id, email and name: a
    // trigram index answers ILIKE '%term%' without scanning (pg_trgm, created by the migration).
    // Chr(31) separates the fields so a term never matches across two of them.
    {
      name: 'participants_search_trgm_idx',
      expression: `create index "participants_search_trgm_idx" on "participants" using gin ((external_id || chr(31) || coalesce(email, '') || chr(31) || coalesce(name, '')) gin_trgm_ops)`,
    },
  ],
  // A spendable balance never goes below zero, even if a caller forgot the conditional UPDATE.
  checks: [
    { name: 'participants_balance_non_negative', expression: 'balance >= 0' },
    { name: 'participants_pending_points_non_negative', expression: 'pending_points >= 0' },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    externalId: p.string().length(255),
    email: p.string().length(320).nullable(),
    phone: p.string().length(64).nullable(),
    name: p.string().length(200).nullable(),
    balance: p.bigint('number').default(0),
    lifetimePoints: p.bigint('number').default(0),
    /** Points of pending grants not yet activated or cancelled (docs/points.md#pending-points). */
    pendingPoints: p.bigint('number').default(0),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Participant extends ParticipantSchema.class {}
ParticipantSchema.setClass(Participant);
