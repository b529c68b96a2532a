import { z } from 'zod';
import {
  catalogueInput,
  getReward,
  listParticipantRewards,
  listRewards,
} from '../services/rewards/list-rewards.ts';
import { REWARD_TYPES } from '../services/rewards/reward-input.ts';
import type { CatalogueRewardDto, RewardDto } from '../services/rewards/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { serviceArgs } from './names.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

export const RewardType = builder.enumType('RewardType', {
  description: 'How a reward is fulfilled (SPEC 2.1).',
  values: REWARD_TYPES,
});

/** A catalogue reward (SPEC 2.1); `canAfford` only when the catalogue was asked for a participant. */
export const Reward = builder.objectRef<RewardDto & { can_afford?: boolean }>('Reward').implement({
  description: 'A catalogue item participants spend points on.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    subtitle: t.exposeString('subtitle', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    imageUrl: t.exposeString('image_url', { nullable: true }),
    type: t.field({ type: RewardType, resolve: (r) => r.type as (typeof REWARD_TYPES)[number] }),
    costPoints: t.expose('cost_points', { type: PointsScalar }),
    active: t.exposeBoolean('active'),
    startsAt: t.expose('starts_at', { type: DateTimeScalar, nullable: true }),
    endsAt: t.expose('ends_at', { type: DateTimeScalar, nullable: true }),
    stock: t.exposeInt('stock', {
      nullable: true,
      description: 'Units of a non-code reward; null = unlimited.',
    }),
    stockRemaining: t.exposeInt('stock_remaining', {
      nullable: true,
      description: 'Unredeemed codes of a code-backed reward, else units left; null when unlimited.',
    }),
    isClaimable: t.exposeBoolean('is_claimable', {
      description: 'Active, inside its window, not archived and in stock.',
    }),
    canAfford: t.boolean({
      nullable: true,
      description: "Whether the participant's balance covers the cost; null unless `rewards(participant:)`.",
      resolve: (r) => r.can_afford ?? null,
    }),
    config: t.expose('config', {
      type: JSONScalar,
      description:
        "Type-specific settings; an external reward's header values are redacted without rewards:write.",
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

builder.queryFields((t) => ({
  rewards: t.field({
    type: [Reward],
    description:
      'The catalogue of active rewards (any valid key). With `participant`, each reward carries `canAfford` ' +
      'against that participant’s balance (an unknown participant is not_found). A participant token may ' +
      'name only its own participant.',
    authScopes: (_root, args) =>
      args.participant == null ? { anyKey: true } : { $any: { apiKey: true, participant: args.participant } },
    args: t.validate(
      {
        participant: t.arg.string({ description: "A participant's external id." }),
        includeInactive: t.arg.boolean({ description: 'Also list inactive (never archived) rewards.' }),
      },
      serviceArgs(catalogueInput, { participant: z.string().nullish() }),
    ),
    resolve: async (_root, { participant, input }, { app, who }) => {
      if (participant != null) {
        const { data } = await listParticipantRewards(app, who, participant);
        return data satisfies CatalogueRewardDto[];
      }
      return listRewards(app, who, input);
    },
  }),
  reward: t.field({
    type: Reward,
    nullable: true,
    description: 'One reward by id (archived ones too), or null. Any valid key.',
    authScopes: { anyKey: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getReward(app, who, String(args.id))),
  }),
}));
