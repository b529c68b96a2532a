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
    // The tier job's due downgrade evaluations, and the participants above the first level
    // (a calendar period's end evaluates them): both small sets.
    {
      name: 'participants_tier_review_idx',
      expression:
        'create index "participants_tier_review_idx" on "participants" ("tier_review_at") where tier_review_at is not null',
    },
    {
      name: 'participants_tier_key_idx',
      expression:
        'create index "participants_tier_key_idx" on "participants" ("workspace_id", "mode", "id") where tier_key is not null',
    },
  ],
  // A spendable balance never goes below zero, even if a caller forgot the conditional UPDATE.
  checks: [
    { name: 'participants_balance_non_negative', expression: 'balance >= 0' },
    { name: 'participants_pending_points_non_negative', expression: 'pending_points >= 0' },
    {
      name: 'participants_tier_points_non_negative',
      expression: 'tier_points >= 0 and tier_prior_points >= 0',
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    externalId: p.string().length(255),
    email: p.string().length(320).nullable(),
    phone: p.string().length(64).nullable(),
    name: p.string().length(200).nullable(),
    /** IANA time zone of their streak periods (docs/engagement.md#streaks); null: the programme's. */
    timezone: p.string().length(64).nullable(),
    balance: p.bigint('number').default(0),
    lifetimePoints: p.bigint('number').default(0),
    /** Points of pending grants not yet activated or cancelled (docs/points.md#pending-points). */
    pendingPoints: p.bigint('number').default(0),
    // Where the participant stands in the tier programme (docs/tiers.md#standing), kept on the
    // row every ledger write already locks, so a read sums nothing and every writer is serialized.
    /** Their level's key; null: the programme's first level (or no programme). */
    tierKey: p.string().length(64).nullable(),
    /** When they reached it; null: never moved (the programme's or their own start). */
    tierSince: p.datetime().nullable(),
    /** Qualifying points in the current window (`rolling`, `calendar`; `lifetime` reads lifetime points). */
    tierPoints: p.bigint('number').default(0),
    /** `calendar`: the period `tier_points` counts (`month:2026-11`, `quarter:2026-Q4`, `year:2026`). */
    tierPeriod: p.string().length(16).nullable(),
    /** `calendar`: the qualifying points of the period before `tier_period`. */
    tierPriorPoints: p.bigint('number').default(0),
    /** When their level is next evaluated for a downgrade (a grace's end); null: not below it. */
    tierReviewAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Participant extends ParticipantSchema.class {}
ParticipantSchema.setClass(Participant);
