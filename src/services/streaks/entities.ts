import { defineEntity, p } from '@mikro-orm/core';
import { liveTrigger } from '../live/triggers.ts';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';

/** A streak definition (docs/engagement.md#streaks). `DELETE` archives it: states and history stay. */
const StreakSchema = defineEntity({
  name: 'Streak',
  tableName: 'streaks',
  uniques: [{ name: 'streaks_key_unique', properties: ['workspace', 'mode', 'key'] }],
  checks: [{ name: 'streaks_frequency_check', expression: "frequency in ('daily', 'weekly', 'monthly')" }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    key: p.string().length(64),
    name: p.string().length(200),
    eventTypes: p.json<string[]>(),
    frequency: p.string().length(8),
    freezesInitial: p.integer().default(0),
    freezesMax: p.integer().default(0),
    /** A freeze is earned every this many extended periods; null: never. */
    earnEvery: p.integer().nullable(),
    archivedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Streak extends StreakSchema.class {}
StreakSchema.setClass(Streak);

/**
 * A participant's state in one streak (docs/engagement.md#the-rules). Periods are named by
 * their first day in the participant's time zone. `due_at` is when the period after
 * `checked_period` ends: the streak job accounts for it then (a freeze, or the break) unless an
 * event extended it first. Null once broken.
 */
const ParticipantStreakSchema = defineEntity({
  name: 'ParticipantStreak',
  tableName: 'participant_streaks',
  indexes: [
    {
      name: 'participant_streaks_due_idx',
      expression:
        'create index "participant_streaks_due_idx" on "participant_streaks" ("due_at") where due_at is not null',
    },
  ],
  properties: {
    participant: () => p.manyToOne(Participant).primary().deleteRule('cascade'),
    streak: () => p.manyToOne(Streak).primary().deleteRule('cascade'),
    workspaceId: p.uuid(),
    mode: p.string().length(4),
    length: p.integer().default(0),
    longest: p.integer().default(0),
    freezes: p.integer().default(0),
    /** Extended periods counted toward the next earned freeze. */
    earned: p.integer().default(0),
    /** The last extended period's first day. */
    lastPeriod: p.string().columnType('date'),
    /** The last period accounted for (extended, frozen or missed). */
    checkedPeriod: p.string().columnType('date'),
    /** The last 30 periods' outcomes, oldest first: `[{ period_start, status }]`. */
    history: p.json<{ period_start: string; status: string }[]>().default('[]'),
    dueAt: p.datetime().nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class ParticipantStreak extends ParticipantStreakSchema.class {}
ParticipantStreakSchema.setClass(ParticipantStreak);

/**
 * Every change of a participant's streak (extended, frozen, broken), append-only, announced on
 * `svc_live` for the `streakChanged` subscription (docs/live-updates.md).
 */
const StreakChangeSchema = defineEntity({
  name: 'StreakChange',
  tableName: 'streak_changes',
  triggers: [liveTrigger('streak_changes', 's')],
  indexes: [{ name: 'streak_changes_participant_idx', properties: ['participantId', 'id'] }],
  checks: [{ name: 'streak_changes_change_check', expression: "change in ('extended', 'frozen', 'broken')" }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspaceId: p.uuid(),
    mode: p.string().length(4),
    participantId: p.bigint('number'),
    streakId: p.bigint('number'),
    change: p.string().length(10),
    length: p.integer(),
    longest: p.integer(),
    freezes: p.integer(),
    periodStart: p.string().columnType('date'),
    at: p.datetime().defaultRaw('now()'),
  },
});
export class StreakChange extends StreakChangeSchema.class {}
StreakChangeSchema.setClass(StreakChange);
