import { keyParam } from '../lib/primitives.ts';
import { backfillBadge } from '../services/achievements/backfill.ts';
import { achievementsOfMany } from '../services/achievements/progress.ts';
import type { AchievementDto, BackfillResult } from '../services/achievements/shapes.ts';
import { BADGE_KEY_LENGTH } from '../services/badges/manage-badges.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { canReadOwn, Participant } from './participant.ts';
import { mirror } from './shape.ts';

// Achievements: a participant's progress toward every badge with criteria, and a badge's backfill,
// the REST doors of src/rest/achievements.ts over the same services and abilities
// (docs/engagement.md#achievements). A badge's criteria and rarity are on Badge (badge.ts).

const AchievementBadge = builder.objectRef<AchievementDto['badge']>('AchievementBadge').implement({
  description: 'The badge (key and tier) the criteria award.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    tier: t.exposeString('tier', { nullable: true, description: 'The tier awarded; null: none.' }),
    name: t.exposeString('name'),
  })),
});

const Achievement = builder.objectRef<AchievementDto>('Achievement').implement({
  description: 'A participant’s progress toward a badge with criteria.',
  fields: mirror((t) => ({
    badge: t.expose('badge', { type: AchievementBadge }),
    progress: t.exposeFloat('progress', {
      description: 'The count or sum of their matching processed events in the window ending now.',
    }),
    target: t.exposeFloat('target'),
    percent: t.exposeInt('percent', {
      description: 'min(100, floor(progress × 100 / target)); 100 once completed.',
    }),
    completedAt: t.expose('completed_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'When they were awarded the badge (key and tier); null: not held.',
    }),
  })),
});

builder.objectFields(Participant, (t) => ({
  achievements: t.loadableList({
    type: Achievement,
    description:
      'Every badge with criteria, by key, with their progress now (GET /v1/participants/{external_id}/' +
      'achievements). Needs participants:read, or a participant token for this participant.',
    authScopes: (p) => canReadOwn(p.external_id),
    load: (externalIds: string[], { app, who }) => achievementsOfMany(app, who, externalIds),
    resolve: (p) => p.external_id,
  }),
}));

/** REST's 200 `{ would_award }` or 202 `{ queued }` as one object. */
const BackfillBadgePayload = builder.objectRef<BackfillResult>('BackfillBadgePayload').implement({
  fields: (t) => ({
    wouldAward: t.int({
      nullable: true,
      description:
        'A dry run’s count: who meets the criteria now and does not hold the badge. Null when queued.',
      resolve: (r) => ('would_award' in r ? r.would_award : null),
    }),
    queued: t.boolean({
      description: 'True when a job was queued to award them (false for a dry run).',
      resolve: (r) => 'queued' in r,
    }),
  }),
});

builder.mutationFields((t) => ({
  backfillBadge: t.field({
    type: BackfillBadgePayload,
    description:
      'Awards a badge with criteria to every participant who meets them now and does not hold it, each once, ' +
      'with `badge.awarded` (needs flows:write): queued as a job; with `dryRun`, only the count. An unknown key ' +
      'is not_found; a badge without criteria, invalid_state.',
    authScopes: { ability: 'flows:write' },
    args: {
      key: t.arg.string({ required: true, validate: keyParam('The badge key.', BADGE_KEY_LENGTH) }),
      dryRun: t.arg.boolean({ description: 'Only count; change nothing.' }),
    },
    resolve: (_root, { key, dryRun }, { app, who }) =>
      backfillBadge(app, who, key, dryRun ? { dry_run: true } : {}),
  }),
}));
