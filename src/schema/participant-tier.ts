import { type ParticipantTierDto, type TierMoveDto, tierReason } from '../services/tiers/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

// A participant's level, shared by Participant, ParticipantSummary, the tier history and the live
// `tierChanged` (docs/tiers.md#reads).

export const TierReason = builder.enumType('TierReason', {
  description:
    '`qualified`: a credit reached the level. `downgrade`: the tier job moved them down. `manual`: an operator ' +
    'set it. `programme_change`: the programme changed or ended.',
  values: tierReason.options,
});

/** A level by key and name (`from` and `to` of a move). */
export const TierRef = builder.objectRef<NonNullable<TierMoveDto['from']>>('TierRef').implement({
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
  })),
});

type Next = NonNullable<ParticipantTierDto['next']>;
type Retain = NonNullable<ParticipantTierDto['retain']>;

const TierNext = builder.objectRef<Next>('TierNext').implement({
  description: 'The level above and the qualifying points it still needs.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    pointsNeeded: t.expose('points_needed', {
      type: PointsScalar,
      description: '0 when their qualifying points already reach it (a level set by hand below them).',
    }),
  })),
});

const TierRetain = builder.objectRef<Retain>('TierRetain').implement({
  description: 'What keeping the level needs by its next evaluation for a downgrade.',
  fields: mirror((t) => ({
    pointsNeeded: t.expose('points_needed', { type: PointsScalar }),
    by: t.expose('by', { type: DateTimeScalar, description: 'When the level is next evaluated.' }),
  })),
});

/** A participant's `tier`: null on the participant when no tier programme runs. */
export const ParticipantTier = builder.objectRef<ParticipantTierDto>('ParticipantTier').implement({
  description: 'A participant’s level in the tier programme, and what the next one needs.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    since: t.expose('since', { type: DateTimeScalar, description: 'When they reached this level.' }),
    qualifyingPoints: t.expose('qualifying_points', {
      type: PointsScalar,
      description: 'Qualifying points in the current window (earned, not spent; apart from the balance).',
    }),
    next: t.expose('next', { type: TierNext, nullable: true, description: 'Null at the top level.' }),
    retain: t.expose('retain', {
      type: TierRetain,
      nullable: true,
      description:
        'Null when the level cannot be lost (the first level, a `lifetime` window, downgrade policy `none`).',
    }),
  })),
});

/** One move of a participant's level. */
export const TierMove = builder.objectRef<TierMoveDto>('TierMove').implement({
  description: 'A move of a participant’s level, with its reason and the qualifying points at the time.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    from: t.expose('from', { type: TierRef, nullable: true, description: 'Null when they had no level.' }),
    to: t.expose('to', { type: TierRef, nullable: true, description: 'Null when the programme ended.' }),
    reason: t.field({ type: TierReason, resolve: (m) => m.reason }),
    note: t.exposeString('note', { nullable: true, description: 'The operator’s note of a manual move.' }),
    qualifyingPoints: t.expose('qualifying_points', { type: PointsScalar }),
    at: t.expose('at', { type: DateTimeScalar }),
  })),
});
