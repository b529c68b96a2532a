import { validationError } from '../errors.ts';
import { externalIdParam } from '../lib/primitives.ts';
import type { BadgeAward } from '../services/badges/badge-award.ts';
import type { BalanceChange } from '../services/ledger/balance-change.ts';
import type { StreakChange } from '../services/live/streak-change.ts';
import { LiveEnded } from '../services/live/subscriber.ts';
import type { TierChange } from '../services/live/tier-change.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { LedgerEntry } from './ledger-entry.ts';
import { TierReason, TierRef } from './participant-tier.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

const BalanceChangeRef = builder.objectRef<BalanceChange>('BalanceChange').implement({
  description: 'A committed change of a participant’s points: one per ledger entry, in commit order.',
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id'),
    balance: t.expose('balance', { type: PointsScalar, description: 'The balance right after this entry.' }),
    lifetimePoints: t.expose('lifetime_points', { type: PointsScalar }),
    entry: t.expose('entry', { type: LedgerEntry }),
  })),
});

const AwardedBadge = builder.objectRef<BadgeAward['badge']>('AwardedBadge').implement({
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    tier: t.exposeString('tier', { nullable: true }),
    name: t.exposeString('name'),
  })),
});

const BadgeAwardRef = builder.objectRef<BadgeAward>('BadgeAward').implement({
  description: 'A badge (key + tier) awarded to a participant, after it commits.',
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id'),
    badge: t.expose('badge', { type: AwardedBadge }),
    awardedAt: t.expose('awarded_at', { type: DateTimeScalar }),
    flowRunId: t.exposeID('flow_run_id', { nullable: true }),
  })),
});

const TierChangeRef = builder.objectRef<TierChange>('TierChange').implement({
  description: 'A move of a participant’s level (a tier_history row), after it commits.',
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id'),
    from: t.expose('from', { type: TierRef, nullable: true, description: 'Null when they had no level.' }),
    to: t.expose('to', { type: TierRef, nullable: true, description: 'Null when the programme ended.' }),
    reason: t.field({ type: TierReason, resolve: (c) => c.reason }),
    qualifyingPoints: t.expose('qualifying_points', {
      type: PointsScalar,
      description: 'Their qualifying points when they moved.',
    }),
  })),
});

const StreakChangeKind = builder.enumType('StreakChangeKind', {
  description:
    '`extended`: an event extended it (`streak.extended`). `frozen`: a freeze covered a missed period. ' +
    '`broken`: periods were missed with no freeze left (`streak.broken`).',
  values: ['extended', 'frozen', 'broken'] as const satisfies readonly StreakChange['change'][],
});

const StreakChangeStreak = builder.objectRef<StreakChange['streak']>('StreakChangeStreak').implement({
  description: 'The streak right after the change, as `streak.extended` and `streak.broken` carry it.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    length: t.exposeInt('length', { description: '0 once broken.' }),
    longest: t.exposeInt('longest'),
    freezes: t.exposeInt('freezes', { description: 'Freezes left.' }),
  })),
});

const StreakChangeRef = builder.objectRef<StreakChange>('StreakChange').implement({
  description: 'A change of a participant’s streak (a streak_changes row), after it commits.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'Pass it as `streakChanged(after:)` to resume after this change.' }),
    externalId: t.exposeString('external_id'),
    change: t.field({ type: StreakChangeKind, resolve: (c) => c.change }),
    streak: t.expose('streak', { type: StreakChangeStreak }),
    periodStart: t.exposeString('period_start', {
      description: 'The period it concerns: its first day, YYYY-MM-DD, in the participant’s time zone.',
    }),
    at: t.expose('at', { type: DateTimeScalar }),
  })),
});

/** participants:read, or a participant token subscribing to its own participant. */
const canWatch = (externalId: string) =>
  ({ $any: { ability: 'participants:read', participant: externalId } }) as const;

/** An `after` argument, the id of a row of what is followed: a whole number, or a validation_error. */
const rowId = (id: string | number | null | undefined, what: string): number | undefined => {
  if (id == null) return undefined;
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 0)
    throw validationError([{ field: 'after', message: `must be ${what}` }]);
  return n;
};

/** A value of the hub's stream, or the reason the hub ended it (an error payload, then complete). */
const delivered = <T>(value: T | LiveEnded): T => {
  if (value instanceof LiveEnded) throw value;
  return value;
};

builder.subscriptionType({});
builder.subscriptionFields((t) => ({
  balanceChanged: t.field({
    type: BalanceChangeRef,
    description:
      'Every ledger entry of the participant (flow awards, adjustments, redemptions, reversals) after it ' +
      'commits, in commit order, from any process. Needs participants:read, or a participant token for ' +
      'this participant. An unknown participant is not_found.',
    args: {
      externalId: t.arg.string({ required: true, validate: externalIdParam() }),
      after: t.arg.id({
        description:
          'Resume after this ledger entry id (e.g. the newest one a query returned): every later entry is sent, ' +
          'so nothing that commits between the query and the subscription is missed.',
      }),
    },
    authScopes: (_root, args) => canWatch(args.externalId),
    subscribe: (_root, args, { app, who }) =>
      app.live.subscribe('balance', who, args.externalId, { after: rowId(args.after, 'a ledger entry id') }),
    resolve: (change) => delivered(change as BalanceChange | LiveEnded),
  }),
  badgeAwarded: t.field({
    type: BadgeAwardRef,
    description:
      'Every badge awarded to the participant after it commits. Needs participants:read, or a participant ' +
      'token for this participant.',
    args: { externalId: t.arg.string({ required: true, validate: externalIdParam() }) },
    authScopes: (_root, args) => canWatch(args.externalId),
    subscribe: (_root, args, { app, who }) => app.live.subscribe('badge', who, args.externalId),
    resolve: (award) => delivered(award as BadgeAward | LiveEnded),
  }),
  tierChanged: t.field({
    type: TierChangeRef,
    description:
      'Every move of the participant’s level (upgrades, downgrades, manual levels, programme changes) after it ' +
      'commits, in commit order, from any process. Needs participants:read, or a participant token for this ' +
      'participant. An unknown participant is not_found.',
    args: {
      externalId: t.arg.string({ required: true, validate: externalIdParam() }),
      after: t.arg.id({
        description:
          'Resume after this tier move id (the newest one `Participant.tierHistory` returned): every later move ' +
          'is sent, so nothing that commits between the query and the subscription is missed.',
      }),
    },
    authScopes: (_root, args) => canWatch(args.externalId),
    subscribe: (_root, args, { app, who }) =>
      app.live.subscribe('tier', who, args.externalId, { after: rowId(args.after, 'a tier move id') }),
    resolve: (change) => delivered(change as TierChange | LiveEnded),
  }),
  streakChanged: t.field({
    type: StreakChangeRef,
    description:
      'Every change of the participant’s streaks (extended by an event, a missed period frozen, broken by the ' +
      'streak job) after it commits, in commit order, from any process. Needs participants:read, or a ' +
      'participant token for this participant. An unknown participant is not_found.',
    args: {
      externalId: t.arg.string({ required: true, validate: externalIdParam() }),
      after: t.arg.id({
        description:
          'Resume after this streak change id (`Participant.lastStreakChangeId`, or a `StreakChange.id` received): ' +
          'every later change is sent, so nothing that commits between the query and the subscription is missed.',
      }),
    },
    authScopes: (_root, args) => canWatch(args.externalId),
    subscribe: (_root, args, { app, who }) =>
      app.live.subscribe('streak', who, args.externalId, { after: rowId(args.after, 'a streak change id') }),
    resolve: (change) => delivered(change as StreakChange | LiveEnded),
  }),
}));
