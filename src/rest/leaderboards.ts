import { z } from 'zod';
import { keyParam } from '../lib/primitives.ts';
import { createLeaderboard, createLeaderboardInput } from '../services/leaderboards/create-leaderboard.ts';
import { listLeaderboards } from '../services/leaderboards/list-leaderboards.ts';
import {
  leaderboardTop,
  leaderboardTopInput,
  participantStanding,
} from '../services/leaderboards/read-leaderboard.ts';
import { leaderboardPageShape, leaderboardShape, standingShape } from '../services/leaderboards/shapes.ts';
import { type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const byBoardKey = z.object({
  key: keyParam('The leaderboard key (`points` always exists). Unknown: 404.'),
});

const L = 'Leaderboards';

/** Leaderboards (docs/api.md#participants-points-and-leaderboards): reads need any key, defining one flows:write. */
export const leaderboardsOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/leaderboards',
    operationId: 'listLeaderboards',
    tag: L,
    summary: 'List leaderboards',
    description: 'The built-in all-time `points` board first, then the configured ones.',
    auth: 'key',
    success: {
      status: '200',
      description: 'The boards.',
      schema: z.object({ data: z.array(leaderboardShape) }),
    },
    handle: ({ ctx, who }) => listLeaderboards(ctx, who),
  }),
  operation({
    method: 'post',
    path: '/v1/leaderboards',
    operationId: 'createLeaderboard',
    tag: L,
    summary: 'Define a leaderboard',
    description:
      'Scores are the points earned in the period: the UTC week (from Monday), the UTC month, or all ' +
      'time (= lifetime points). `points` is reserved; a taken key is a 422.',
    auth: 'flows:write',
    body: { schema: createLeaderboardInput },
    success: { status: '201', description: 'Created.', schema: leaderboardShape },
    handle: ({ ctx, who, body }) => createLeaderboard(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/leaderboards/{key}',
    operationId: 'getLeaderboard',
    tag: L,
    summary: 'A leaderboard’s top places',
    description:
      'Competition ranking (1, 1, 3); ties in order of joining. Only positive scores are placed. No PII: ' +
      'external ids and scores only.',
    auth: 'key',
    params: { path: byBoardKey, query: leaderboardTopInput },
    success: {
      status: '200',
      description: 'The top places of the current period.',
      schema: leaderboardPageShape,
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params, query }) => leaderboardTop(ctx, who, params.key, query),
  }),
  operation({
    method: 'get',
    path: '/v1/leaderboards/{key}/participants/{external_id}',
    operationId: 'getLeaderboardStanding',
    tag: L,
    summary: 'A participant’s rank and score',
    description:
      'Rank = 1 + the number of participants with a strictly higher score (a score of 0 ranks last).',
    auth: 'key',
    params: { path: byBoardKey.extend(byExternalId.shape) },
    success: { status: '200', description: 'The standing.', schema: standingShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantStanding(ctx, who, params.key, params.external_id),
  }),
];
