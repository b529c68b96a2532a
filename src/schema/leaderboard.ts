import { externalIdParam, keyParam } from '../lib/primitives.ts';
import { findLeaderboard, type LeaderboardDto } from '../services/leaderboards/boards.ts';
import { createLeaderboard, createLeaderboardInput } from '../services/leaderboards/create-leaderboard.ts';
import { listLeaderboards } from '../services/leaderboards/list-leaderboards.ts';
import { periodWindow } from '../services/leaderboards/periods.ts';
import {
  type LeaderboardTopInput,
  leaderboardTopInput,
  type participantStanding,
  type Standing,
  standingsOfPeriods,
  topsOfPeriods,
} from '../services/leaderboards/read-leaderboard.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { requestLoader } from './loaders.ts';
import { serviceInput } from './names.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

type Period = LeaderboardDto['period'];

const LeaderboardPeriod = builder.enumType('LeaderboardPeriod', {
  values: {
    ALL_TIME: { value: 'all_time', description: 'Lifetime points.' },
    WEEKLY: { value: 'weekly', description: 'Points earned this UTC week (from Monday).' },
    MONTHLY: { value: 'monthly', description: 'Points earned this UTC month.' },
  } as const satisfies Record<Uppercase<Period>, { value: Period; description: string }>,
});

const LeaderboardEntry = builder.objectRef<Standing>('LeaderboardEntry').implement({
  description: 'A place on a leaderboard: competition rank (1, 1, 3), external id and score. No PII.',
  fields: mirror((t) => ({
    rank: t.exposeInt('rank'),
    externalId: t.exposeString('external_id'),
    score: t.expose('score', { type: PointsScalar }),
  })),
});

const LeaderboardStanding = builder
  .objectRef<Awaited<ReturnType<typeof participantStanding>>>('LeaderboardStanding')
  .implement({
    fields: mirror((t) => ({
      rank: t.exposeInt('rank'),
      score: t.expose('score', { type: PointsScalar }),
    })),
  });

/**
 * A list of boards reads its `top` places and a participant's `standing` once per request,
 * for every period at once (boards of one period rank the same scores); the variant is the
 * field's arguments (`top`'s as its `validate` parsed them, in JSON).
 */
const tops = requestLoader((periods, { app, who }, args) =>
  topsOfPeriods(app, who, periods as Period[], JSON.parse(args) as LeaderboardTopInput),
);
const standings = requestLoader((periods, { app, who }, externalId) =>
  standingsOfPeriods(app, who, periods as Period[], externalId),
);

/** A leaderboard (docs/api.md#participants-points-and-leaderboards); readable with any key. */
export const Leaderboard = builder.objectRef<LeaderboardDto>('Leaderboard').implement({
  description: 'A leaderboard; `points` (all time) always exists.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    period: t.field({ type: LeaderboardPeriod, resolve: (b) => b.period }),
    createdAt: t.expose('created_at', { type: DateTimeScalar, nullable: true }),
    top: t.field({
      type: [LeaderboardEntry],
      description: 'The top places of the current period (default 10, at most 1000).',
      authScopes: { anyKey: true },
      args: { limit: t.arg.int() },
      validate: serviceInput(leaderboardTopInput),
      resolve: (b, args, ctx) => tops(ctx, JSON.stringify(args)).load(b.period),
    }),
    periodStart: t.field({
      type: DateTimeScalar,
      nullable: true,
      description: 'Start of the current period (UTC); null for all time.',
      resolve: (b) => periodWindow(b.period, new Date()).periodStart,
    }),
    periodEnd: t.field({
      type: DateTimeScalar,
      nullable: true,
      description: 'End of the current period (exclusive); null for all time.',
      resolve: (b) => periodWindow(b.period, new Date()).periodEnd,
    }),
    standing: t.field({
      type: LeaderboardStanding,
      nullable: true,
      description: 'A participant’s rank and score; null for an unknown participant.',
      authScopes: { anyKey: true },
      args: { externalId: t.arg.string({ required: true, validate: externalIdParam() }) },
      resolve: (b, args, ctx) => orNull(standings(ctx, args.externalId).load(b.period)),
    }),
  })),
});

builder.queryFields((t) => ({
  leaderboard: t.field({
    type: Leaderboard,
    nullable: true,
    description: 'One leaderboard by key, or null. Any valid key.',
    authScopes: { anyKey: true },
    args: { key: t.arg.string({ required: true, validate: keyParam('The leaderboard key.') }) },
    resolve: (_root, args, { app, who }) => orNull(findLeaderboard(app.pool, who, args.key)),
  }),
  leaderboards: t.field({
    type: [Leaderboard],
    description: 'Every leaderboard of the key’s workspace and mode. Any valid key.',
    authScopes: { anyKey: true },
    resolve: async (_root, _args, { app, who }) => (await listLeaderboards(app, who)).data,
  }),
}));

const CreateLeaderboardInput = builder
  .inputType('CreateLeaderboardInput', {
    fields: (t) => ({
      key: t.string({ required: true, description: 'Letters, digits and . _ : -; `points` is reserved.' }),
      name: t.string({ required: true }),
      period: t.field({ type: LeaderboardPeriod, required: true }),
    }),
  })
  .validate(serviceInput(createLeaderboardInput));

builder.mutationFields((t) => ({
  createLeaderboard: t.field({
    type: Leaderboard,
    description:
      'Defines a leaderboard over the points earned in its period (needs flows:write); a taken key is a validation_error.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: CreateLeaderboardInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createLeaderboard(app, who, input),
  }),
}));
