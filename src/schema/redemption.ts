import { DomainError } from '../errors.ts';
import { getRedemption, listRedemptions } from '../services/rewards/list-redemptions.ts';
import { type RedeemResult, redeemReward } from '../services/rewards/redeem-reward.ts';
import { REDEMPTION_STATUSES, type RedemptionDto } from '../services/rewards/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom, pageArgName, pageInputFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { camelPath, withArgNames } from './errors.ts';
import { JSONScalar } from './json.ts';
import { PointsScalar } from './points.ts';

const RedemptionStatus = builder.enumType('RedemptionStatus', {
  description: '`pending` (physical, or external while its call runs) → `fulfilled` or `cancelled`.',
  values: REDEMPTION_STATUSES,
});

const RedemptionParticipant = builder
  .objectRef<RedemptionDto['participant']>('RedemptionParticipant')
  .implement({ fields: (t) => ({ externalId: t.exposeString('external_id') }) });

/** A redemption (SPEC 2.3), the same object the REST API returns. */
export const Redemption = builder.objectRef<RedemptionDto>('Redemption').implement({
  description: 'Points spent on a reward, and what was handed out.',
  fields: (t) => ({
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
  }),
});

const RedeemInput = builder.inputType('RedeemInput', {
  fields: (t) => ({
    participant: t.string({ required: true, description: "The participant's external id." }),
    rewardId: t.id({ description: 'One of rewardId or reward.' }),
    reward: t.string({ description: 'The reward by name.' }),
    idempotencyKey: t.string({
      description: 'A retry with the same key returns the original redemption and never charges twice.',
    }),
  }),
});

const RedeemPayload = builder.objectRef<RedeemResult>('RedeemPayload').implement({
  fields: (t) => ({
    redemption: t.expose('redemption', { type: Redemption }),
    replayed: t.exposeBoolean('replayed', {
      description: 'True when idempotencyKey matched an earlier redemption: nothing was charged again.',
    }),
  }),
});

const INPUT_FIELDS: Record<string, string> = {
  reward_id: 'input.rewardId',
  idempotency_key: 'input.idempotencyKey',
  '(body)': 'input',
};

builder.mutationFields((t) => ({
  redeem: t.field({
    type: RedeemPayload,
    description:
      'Redeems a reward, like POST /v1/redemptions (needs redemptions:write). Business refusals come back as ' +
      'errors with extensions.code not_found, reward_unavailable, out_of_stock, insufficient_points (with ' +
      'balance and cost_points), external_fulfilment_failed or idempotency_conflict.',
    args: { input: t.arg({ type: RedeemInput, required: true }) },
    resolve: async (_root, { input }, { app, principal }) => {
      const who = await principal('redemptions:write');
      const rewardId = input.rewardId == null ? undefined : Number(input.rewardId);
      return withArgNames(
        (field) => INPUT_FIELDS[field] ?? `input.${camelPath(field)}`,
        () =>
          redeemReward(app, who, {
            participant: input.participant,
            reward_id: Number.isSafeInteger(rewardId) ? rewardId : rewardId === undefined ? undefined : -1,
            reward: input.reward ?? undefined,
            idempotency_key: input.idempotencyKey ?? undefined,
          }),
      );
    },
  }),
}));

builder.queryFields((t) => ({
  redemption: t.field({
    type: Redemption,
    nullable: true,
    description: 'One redemption, or null. Needs participants:read.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, { app, principal }) => {
      const who = await principal('participants:read');
      try {
        return await getRedemption(app, who, String(args.id));
      } catch (err) {
        if (err instanceof DomainError && err.type === 'not_found') return null;
        throw err;
      }
    },
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
      resolve: async (_root, args, { app, principal }) => {
        const who = await principal('participants:read');
        const pageArg = pageArgName(args);
        const page = await withArgNames(
          (field) => (field === 'reward_id' ? 'rewardId' : camelPath(pageArg(field))),
          () =>
            listRedemptions(app, who, {
              ...pageInputFrom(args),
              participant: args.participant ?? undefined,
              status: args.status ?? undefined,
              reward_id: args.rewardId ?? undefined,
            }),
        );
        return connectionFrom(page);
      },
    },
    { name: 'RedemptionConnection' },
    { name: 'RedemptionEdge' },
  ),
}));
