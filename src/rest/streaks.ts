import { z } from 'zod';
import { keyParam } from '../lib/primitives.ts';
import {
  archiveStreak,
  createStreak,
  getStreak,
  listStreaks,
  updateStreak,
} from '../services/streaks/definitions.ts';
import { participantStreaks } from '../services/streaks/participant-streaks.ts';
import {
  createStreakInput,
  participantStreakShape,
  streakShape,
  updateStreakInput,
} from '../services/streaks/shapes.ts';
import { type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const T = 'Streaks';
const byKey = z.object({ key: keyParam('The streak key. Unknown: 404.', 64) });
const listQuery = z.object({
  include_archived: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: '`true` lists archived streaks too.' }),
});

/** Streak definitions and a participant's streaks (docs/engagement.md#streaks). */
export const streakOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/streaks',
    operationId: 'listStreaks',
    tag: T,
    summary: 'Streak definitions',
    description: 'The running streaks by key; archived ones with `include_archived=true`.',
    auth: 'flows:read',
    params: { query: listQuery },
    success: { status: '200', description: 'The streaks.', schema: z.object({ data: z.array(streakShape) }) },
    handle: ({ ctx, who, query }) => listStreaks(ctx, who, query.include_archived === 'true'),
  }),
  operation({
    method: 'post',
    path: '/v1/streaks',
    operationId: 'createStreak',
    tag: T,
    summary: 'Define a streak',
    description:
      'An event of one of `event_types` extends it once per period (day, ISO week or month) of its `occurred_at`, ' +
      'in the participant’s time zone. Freezes cover missed periods one each. A key already used: 422.',
    auth: 'flows:write',
    body: { schema: createStreakInput },
    success: { status: '201', description: 'The streak.', schema: streakShape },
    handle: ({ ctx, who, body }) => createStreak(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/streaks/{key}',
    operationId: 'getStreak',
    tag: T,
    summary: 'A streak definition',
    description: 'Archived ones too.',
    auth: 'flows:read',
    params: { path: byKey },
    success: { status: '200', description: 'The streak.', schema: streakShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getStreak(ctx, who, params.key),
  }),
  operation({
    method: 'patch',
    path: '/v1/streaks/{key}',
    operationId: 'updateStreak',
    tag: T,
    summary: 'Change a streak',
    description:
      'Name, event types and freezes; participants keep their lengths. The frequency cannot change.',
    auth: 'flows:write',
    params: { path: byKey },
    body: { schema: updateStreakInput },
    success: { status: '200', description: 'The streak.', schema: streakShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateStreak(ctx, who, params.key, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/streaks/{key}',
    operationId: 'archiveStreak',
    tag: T,
    summary: 'Archive a streak',
    description: 'Events stop extending it and reads leave it out; participants’ states and history stay.',
    auth: 'flows:write',
    params: { path: byKey },
    success: { status: '200', description: 'The archived streak.', schema: streakShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => archiveStreak(ctx, who, params.key),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/streaks',
    operationId: 'listParticipantStreaks',
    tag: T,
    summary: 'A participant’s streaks',
    description:
      'Every running streak as it stands now in their time zone: length (0 once it can no longer be saved), ' +
      'longest, the current period, whether it was extended in it, `at_risk`, freezes left, `expires_at` and ' +
      'the last 30 periods’ outcomes.',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: {
      status: '200',
      description: 'Their streaks.',
      schema: z.object({ data: z.array(participantStreakShape) }),
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantStreaks(ctx, who, params.external_id),
  }),
];
