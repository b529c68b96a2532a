import { defineEntity, p } from '@mikro-orm/core';
import { liveTrigger } from '../live/triggers.ts';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';

/** A badge definition: defined by `POST /v1/badges` or created on a flow's first award. */
const BadgeSchema = defineEntity({
  name: 'Badge',
  tableName: 'badges',
  uniques: [{ name: 'badges_key_unique', properties: ['workspace', 'mode', 'key'] }],
  indexes: [
    // The achievements an event type can complete (the engine's achievements mechanic).
    {
      name: 'badges_criteria_idx',
      expression:
        'create index "badges_criteria_idx" on "badges" ("workspace_id", "mode", (criteria->>\'event_type\')) where criteria is not null',
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    key: p.string().length(128),
    name: p.string().length(200),
    description: p.text().nullable(),
    imageUrl: p.text().nullable(),
    tiers: p.json<string[]>().default('[]'),
    /** An achievement's criteria (docs/engagement.md#achievements); null: awarded by flows only. */
    criteria: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Badge extends BadgeSchema.class {}
BadgeSchema.setClass(Badge);

/**
 * A badge held by a participant. Unique per (participant, badge, tier) so a key+tier is held
 * once, and unique on the derived flow key so a reprocessed event never awards twice.
 */
const ParticipantBadgeSchema = defineEntity({
  name: 'ParticipantBadge',
  tableName: 'participant_badges',
  // Announces committed awards to GraphQL subscribers (src/services/live).
  triggers: [liveTrigger('participant_badges', 'b')],
  uniques: [
    { name: 'participant_badges_held_once', properties: ['participant', 'badge', 'tier'] },
    {
      name: 'participant_badges_idempotency_key_unique',
      properties: ['workspace', 'mode', 'idempotencyKey'],
    },
  ],
  indexes: [{ name: 'participant_badges_badge_idx', properties: ['badge'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    badge: () => p.manyToOne(Badge).deleteRule('cascade'),
    /** Empty string = no tier, so the unique constraint also holds for untiered badges. */
    tier: p.string().length(64).default(''),
    awardedAt: p.datetime().defaultRaw('now()'),
    flowRunId: p.uuid().nullable(),
    idempotencyKey: p.string().length(300).nullable(),
  },
});
export class ParticipantBadge extends ParticipantBadgeSchema.class {}
ParticipantBadgeSchema.setClass(ParticipantBadge);
