import { capPeriod } from '../services/points/shapes.ts';
import { referralCodesOfMany } from '../services/referrals/codes.ts';
import { getReferralProgram, putReferralProgram } from '../services/referrals/program.ts';
import {
  cancelReferral,
  type ListReferralsInput,
  listReferrals,
  listReferralsInput,
  showReferral,
} from '../services/referrals/referrals.ts';
import {
  BLOCK_REASONS,
  REFERRAL_STATUSES,
  type ReferralAction,
  type ReferralDto,
  type ReferralProgramDto,
  type ReferralProgramInput,
  referralProgramInput,
} from '../services/referrals/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { serviceInput, snakeDeep } from './names.ts';
import { canReadOwn, Participant } from './participant.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

// Referrals: the programme, the referrals and their cancel, and a participant's code and referrals,
// the REST doors of src/rest/referrals.ts over the same services and abilities (docs/referrals.md).
// A participant token reads its own code and its own referrals as advocate, without the friends.

const ReferralStatus = builder.enumType('ReferralStatus', {
  description:
    '`pending`: waiting for the friend’s qualifying event. `qualified`: the advocate’s reward is on hold. ' +
    '`rewarded`: the hold ended and the advocate was rewarded. `blocked`: refused (see `reason`). ' +
    '`expired`: not qualified in time. `clawed_back`: cancelled during the hold.',
  values: REFERRAL_STATUSES,
});

const ReferralBlockReason = builder.enumType('ReferralBlockReason', { values: BLOCK_REASONS });

const ReferralActionType = builder.enumType('ReferralActionType', {
  values: ['award_points', 'award_badge'] as const satisfies readonly ReferralAction['type'][],
});

const ReferralLimitPeriod = builder.enumType('ReferralLimitPeriod', {
  description: 'A calendar period in the programme’s time zone (weeks start Monday).',
  values: capPeriod.options,
});

/** One action as REST prints it; the fields of the other type are null. */
const ReferralActionRef = builder.objectRef<ReferralAction>('ReferralAction').implement({
  description: '`award_points` (points, reason) or `award_badge` (badge, tier).',
  fields: mirror((t) => ({
    type: t.field({ type: ReferralActionType, resolve: (a) => a.type }),
    points: t.field({
      type: PointsScalar,
      nullable: true,
      resolve: (a) => (a.type === 'award_points' ? a.points : null),
    }),
    reason: t.string({
      nullable: true,
      description: 'The ledger entry’s reason; null: the default.',
      resolve: (a) => (a.type === 'award_points' ? (a.reason ?? null) : null),
    }),
    badge: t.string({ nullable: true, resolve: (a) => (a.type === 'award_badge' ? a.badge : null) }),
    tier: t.string({
      nullable: true,
      resolve: (a) => (a.type === 'award_badge' ? (a.tier ?? null) : null),
    }),
  })),
});

type AdvocateLimit = NonNullable<ReferralProgramDto['advocate_limit']>;

const ReferralAdvocateLimit = builder.objectRef<AdvocateLimit>('ReferralAdvocateLimit').implement({
  fields: mirror((t) => ({
    period: t.field({ type: ReferralLimitPeriod, resolve: (l) => l.period }),
    max: t.exposeInt('max'),
  })),
});

/** The programme as `GET /v1/referrals/program` answers it. */
const ReferralProgram = builder.objectRef<ReferralProgramDto>('ReferralProgram').implement({
  description: 'What qualifies a referral, when, and what the friend and the advocate get.',
  fields: mirror((t) => ({
    qualifyingEventType: t.exposeString('qualifying_event_type', {
      description: 'The friend’s first event of this type within `qualifyWithin` qualifies the referral.',
    }),
    qualifyWithin: t.exposeString('qualify_within', {
      description: 'ISO 8601 duration after attribution; then a pending referral expires.',
    }),
    hold: t.exposeString('hold', {
      description: 'ISO 8601 duration the advocate’s points stay pending after qualification (PT0S: none).',
    }),
    friendActions: t.expose('friend_actions', {
      type: [ReferralActionRef],
      description: 'Run for the friend at once when the referral qualifies.',
    }),
    advocateActions: t.expose('advocate_actions', {
      type: [ReferralActionRef],
      description: 'The advocate’s reward: points pending during the hold, badges when it ends.',
    }),
    advocateLimit: t.expose('advocate_limit', {
      type: ReferralAdvocateLimit,
      nullable: true,
      description: 'The most referrals an advocate makes per period (more are `blocked`); null: no limit.',
    }),
    active: t.exposeBoolean('active', {
      description: 'False: codes attribute nothing; referrals already made go on.',
    }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

const ReferralParticipant = builder.objectRef<ReferralDto['advocate']>('ReferralParticipant').implement({
  description: 'The advocate or the friend of a referral, by external id.',
  fields: mirror((t) => ({ externalId: t.exposeString('external_id') })),
});

/** A referral as `GET /v1/referrals/{id}` answers it. */
const Referral = builder.objectRef<ReferralDto>('Referral').implement({
  description: 'A friend brought by an advocate’s code, and where their referral stands.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code', { description: 'The advocate’s code the friend’s first event carried.' }),
    advocate: t.expose('advocate', { type: ReferralParticipant }),
    friend: t.field({
      type: ReferralParticipant,
      nullable: true,
      description: 'Null for a participant token: an advocate does not see who their friends are.',
      resolve: (r, _args, { isToken }) => (isToken ? null : r.friend),
    }),
    status: t.field({ type: ReferralStatus, resolve: (r) => r.status }),
    reason: t.field({
      type: ReferralBlockReason,
      nullable: true,
      description: 'Why a `blocked` referral was refused; null otherwise.',
      resolve: (r) => r.reason,
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    expiresAt: t.expose('expires_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'When a pending referral expires unqualified.',
    }),
    qualifiedAt: t.expose('qualified_at', { type: DateTimeScalar, nullable: true }),
    rewardAvailableAt: t.expose('reward_available_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'When the hold ends and the advocate’s pending points become available.',
    }),
    rewardedAt: t.expose('rewarded_at', { type: DateTimeScalar, nullable: true }),
    clawedBackAt: t.expose('clawed_back_at', { type: DateTimeScalar, nullable: true }),
  })),
});

/** One connection type for both lists of referrals (the root one and a participant's). */
const ReferralConnection = builder.connectionObject(
  { type: Referral, name: 'ReferralConnection' },
  { name: 'ReferralEdge' },
);

builder.objectFields(Participant, (t) => ({
  referralCode: t.loadable({
    type: 'String',
    description:
      'The code a friend’s first event carries as `participant.referral_code` (GET /v1/participants/' +
      '{external_id}/referral-code): made on first read, then stable. Needs participants:read, or a ' +
      'participant token for this participant.',
    authScopes: (p) => canReadOwn(p.external_id),
    // A list of participants makes and reads its codes in one batch, not a statement each.
    load: async (externalIds: string[], { app, who }) =>
      (await referralCodesOfMany(app, who, externalIds)).map((c) => (c instanceof Error ? c : c.code)),
    resolve: (p) => p.external_id,
  }),
  referrals: t.connection(
    {
      type: Referral,
      description:
        `Their referrals as advocate (GET /v1/referrals?advocate=…). ${CONNECTION_DESCRIPTION} Needs ` +
        'participants:read, or a participant token for this participant (which sees no `friend`).',
      authScopes: (p) => canReadOwn(p.external_id),
      args: { status: t.arg({ type: ReferralStatus }) },
      validate: serviceInput(listReferralsInput),
      resolve: async (p, args, { app, who }) =>
        connectionFrom(
          await listReferrals(app, who, {
            ...(args as unknown as ListReferralsInput),
            advocate: p.external_id,
          }),
        ),
    },
    ReferralConnection,
  ),
}));

builder.queryFields((t) => ({
  referralProgram: t.field({
    type: ReferralProgram,
    nullable: true,
    description:
      'The referral programme of the key’s workspace and mode, or null when none was set (any API key).',
    authScopes: { apiKey: true },
    resolve: (_root, _args, { app, who }) => orNull(getReferralProgram(app, who)),
  }),
  referrals: t.connection(
    {
      type: Referral,
      description: `Referrals (needs participants:read), filtered by advocate (an external id) and status. ${CONNECTION_DESCRIPTION}`,
      authScopes: { ability: 'participants:read' },
      args: {
        advocate: t.arg.string({ description: 'The advocate’s external id; an unknown one lists nothing.' }),
        status: t.arg({ type: ReferralStatus }),
      },
      validate: serviceInput(listReferralsInput),
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listReferrals(app, who, args as unknown as ListReferralsInput)),
    },
    ReferralConnection,
  ),
  referral: t.field({
    type: Referral,
    nullable: true,
    description: 'One referral by id, or null (needs participants:read).',
    authScopes: { ability: 'participants:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => orNull(showReferral(app, who, String(id))),
  }),
}));

const ReferralActionInput = builder.inputType('ReferralActionInput', {
  description: '`award_points` with `points` (and `reason`), or `award_badge` with `badge` (and `tier`).',
  fields: (t) => ({
    type: t.field({ type: ReferralActionType, required: true }),
    points: t.field({ type: PointsScalar, description: '`award_points`: a whole positive number.' }),
    reason: t.string({ description: '`award_points`: the ledger entry’s reason.' }),
    badge: t.string({
      description: '`award_badge`: a badge key; one not defined yet is created, as flows do.',
    }),
    tier: t.string({ description: '`award_badge`: the tier awarded.' }),
  }),
});

const ReferralAdvocateLimitInput = builder.inputType('ReferralAdvocateLimitInput', {
  fields: (t) => ({
    period: t.field({ type: ReferralLimitPeriod, required: true }),
    max: t.int({ required: true, description: '1–1,000,000.' }),
  }),
});

/** `putReferralProgram` takes the PUT /v1/referrals/program body; a `null` field is one not given. */
const ReferralProgramInputRef = builder
  .inputType('ReferralProgramInput', {
    description: 'The whole programme: what is left out takes its default (no advocate limit, active).',
    fields: (t) => ({
      qualifyingEventType: t.string({ required: true }),
      qualifyWithin: t.string({ required: true, description: 'A positive ISO 8601 duration, e.g. P30D.' }),
      hold: t.string({ required: true, description: 'An ISO 8601 duration, e.g. P14D, or PT0S for none.' }),
      friendActions: t.field({ type: [ReferralActionInput], required: true, description: 'At most 10.' }),
      advocateActions: t.field({ type: [ReferralActionInput], required: true, description: 'At most 10.' }),
      advocateLimit: t.field({ type: ReferralAdvocateLimitInput, description: 'Default: no limit.' }),
      active: t.boolean({ description: 'Default: true.' }),
    }),
  })
  .validate(serviceInput(referralProgramInput, (args) => snakeDeep(args, 'drop')));

builder.mutationFields((t) => ({
  putReferralProgram: t.field({
    type: ReferralProgram,
    description:
      'Replaces the referral programme whole (needs flows:write), as PUT /v1/referrals/program does; a badge an ' +
      'action names that does not exist yet is created, as flows do.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: ReferralProgramInputRef, required: true }) },
    resolve: (_root, { input }, { app, who }) =>
      putReferralProgram(app, who, input as unknown as ReferralProgramInput),
  }),
  cancelReferral: t.field({
    type: Referral,
    description:
      'Cancels a qualified referral during its hold (needs points:adjust): the advocate’s pending points are ' +
      'cancelled and it is `clawed_back`. Any other status is invalid_state; an unknown id, not_found.',
    authScopes: { ability: 'points:adjust' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => cancelReferral(app, who, String(id)),
  }),
}));
