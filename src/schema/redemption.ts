import { cancelRedemption, fulfilRedemption } from '../services/rewards/change-redemption.ts';
import {
  getRedemption,
  type ListRedemptionsInput,
  listRedemptions,
  listRedemptionsInput,
} from '../services/rewards/list-redemptions.ts';
import { type RedeemResult, redeemInput, redeemReward } from '../services/rewards/redeem-reward.ts';
import { REDEMPTION_STATUSES, type RedemptionDto } from '../services/rewards/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { serviceInput, snakeArgs } from './names.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

const RedemptionStatus = builder.enumType('RedemptionStatus', {
  description: '`pending` (physical, or external while its call runs) → `fulfilled` or `cancelled`.',
  values: REDEMPTION_STATUSES,
});

const RedemptionParticipant = builder
  .objectRef<RedemptionDto['participant']>('RedemptionParticipant')
  .implement({
    fields: mirror((t) => ({ externalId: t.exposeString('external_id') })),
  });

/** A redemption, the same object the REST API returns. */
export const Redemption = builder.objectRef<RedemptionDto>('Redemption').implement({
  description: 'Points spent on a reward, and what was handed out.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    rewardId: t.exposeID('reward_id'),
    participant: t.expose('participant', { type: RedemptionParticipant }),
    status: t.field({ type: RedemptionStatus, resolve: (r) => r.status }),
    fulfilment: t.expose('fulfilment', {
      type: JSONScalar,
      description: '`{ type, code?, url?, multiplier?: { factor, expires_at } }`.',
    }),
    costPoints: t.expose('cost_points', { type: PointsScalar }),
    idempotencyKey: t.exposeString('idempotency_key', { nullable: true }),
    isSandbox: t.exposeBoolean('is_sandbox'),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

/** A GraphQL ID as the service's integer id; an ID that is no integer is one no reward has. */
const rewardIdOf = (id: unknown) =>
  id == null ? undefined : Number.isSafeInteger(Number(id)) ? Number(id) : -1;

const RedeemInput = builder
  .inputType('RedeemInput', {
    fields: (t) => ({
      participant: t.string({ required: true, description: "The participant's external id." }),
      rewardId: t.id({ description: 'One of rewardId or reward.' }),
      reward: t.string({ description: 'The reward by name.' }),
      idempotencyKey: t.string({
        description: 'A retry with the same key returns the original redemption and never charges twice.',
      }),
    }),
  })
  // The resolver gets the service's parsed input.
  .validate(
    serviceInput(redeemInput, (input: Record<string, unknown>) => ({
      ...snakeArgs(input),
      reward_id: rewardIdOf(input.rewardId),
    })),
  );

const RedeemPayload = builder.objectRef<RedeemResult>('RedeemPayload').implement({
  fields: mirror((t) => ({
    redemption: t.expose('redemption', { type: Redemption }),
    replayed: t.exposeBoolean('replayed', {
      description: 'True when idempotencyKey matched an earlier redemption: nothing was charged again.',
    }),
  })),
});

builder.mutationFields((t) => ({
  redeem: t.field({
    type: RedeemPayload,
    description:
      'Redeems a reward, like POST /v1/redemptions (needs redemptions:write). Business refusals come back as ' +
      'errors with extensions.code not_found, reward_unavailable, tier_required (with min_tier), out_of_stock, ' +
      'insufficient_points (with balance and cost_points), external_fulfilment_failed or idempotency_conflict.',
    args: { input: t.arg({ type: RedeemInput, required: true }) },
    authScopes: { ability: 'redemptions:write' },
    resolve: (_root, { input }, { app, who }) => redeemReward(app, who, input),
  }),
}));

builder.queryFields((t) => ({
  redemption: t.field({
    type: Redemption,
    nullable: true,
    description: 'One redemption, or null. Needs participants:read.',
    authScopes: { ability: 'participants:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getRedemption(app, who, String(args.id))),
  }),
  redemptions: t.connection(
    {
      type: Redemption,
      description: `Redemptions of the key's workspace and mode (needs participants:read). ${CONNECTION_DESCRIPTION}`,
      args: {
        participant: t.arg.string({ description: "A participant's external id." }),
        status: t.arg({ type: RedemptionStatus }),
        rewardId: t.arg.id(),
      },
      authScopes: { ability: 'participants:read' },
      validate: serviceInput(listRedemptionsInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listRedemptions(app, who, args as unknown as ListRedemptionsInput)),
    },
    { name: 'RedemptionConnection' },
    { name: 'RedemptionEdge' },
  ),
}));

builder.mutationFields((t) => ({
  fulfilRedemption: t.field({
    type: Redemption,
    description:
      'Marks a pending physical redemption fulfilled (needs rewards:write); any other move is invalid_state.',
    authScopes: { ability: 'rewards:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => fulfilRedemption(app, who, String(id)),
  }),
  cancelRedemption: t.field({
    type: Redemption,
    description:
      'Cancels a pending physical redemption (needs rewards:write): points come back by a reversal, the stock ' +
      'unit is restored; any other move is invalid_state.',
    authScopes: { ability: 'rewards:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => cancelRedemption(app, who, String(id)),
  }),
}));
