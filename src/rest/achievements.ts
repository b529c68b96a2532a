import { z } from 'zod';
import { keyParam } from '../lib/primitives.ts';
import { backfillBadge } from '../services/achievements/backfill.ts';
import { participantAchievements } from '../services/achievements/progress.ts';
import {
  achievementListShape,
  backfillDryRunShape,
  backfillInput,
  backfillQueuedShape,
} from '../services/achievements/shapes.ts';
import { BADGE_KEY_LENGTH } from '../services/badges/manage-badges.ts';
import { type Operation, operation, Reply } from './operation.ts';
import { byExternalId } from './participants.ts';

const byBadgeKey = z.object({ key: keyParam('The badge key.', BADGE_KEY_LENGTH) });

/** Achievements: a participant's progress toward every badge with criteria, and a badge's backfill (docs/engagement.md#achievements). */
export const achievementsOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/achievements',
    operationId: 'listParticipantAchievements',
    tag: 'Participants',
    summary: 'A participant’s achievements',
    description:
      'Every badge with criteria, by key: the participant’s progress (count or sum of their processed events ' +
      'matching the criteria, in the window ending now), the target, the percentage (100 once completed) and ' +
      'when they were awarded it (null: not yet).',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: { status: '200', description: 'The achievements.', schema: achievementListShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantAchievements(ctx, who, params.external_id),
  }),
  operation({
    method: 'post',
    path: '/v1/badges/{key}/backfill',
    operationId: 'backfillBadge',
    tag: 'Flows',
    summary: 'Award an achievement to those who already meet it',
    description:
      'Criteria apply to events processed after they are set; this awards the badge to every participant who ' +
      'meets them now (window ending now) and does not hold it, each once, with `badge.awarded`. `dry_run`: ' +
      'only the count (200). Otherwise a job is queued (202). A badge without criteria: 409 `invalid_state`.',
    auth: 'flows:write',
    params: { path: byBadgeKey },
    body: { schema: backfillInput },
    success: { status: '202', description: 'Queued.', schema: backfillQueuedShape },
    otherSuccess: {
      '200': { description: 'The dry run’s count; nothing changed.', schema: backfillDryRunShape },
    },
    errors: ['not_found', 'invalid_state'],
    handle: async ({ ctx, who, params, body }) => {
      const result = await backfillBadge(ctx, who, params.key, body);
      return 'would_award' in result ? new Reply(200, result) : result;
    },
  }),
];
