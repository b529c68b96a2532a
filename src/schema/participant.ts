import { z } from 'zod';
import type { PageInput } from '../lib/pagination.ts';
import { externalIdParam } from '../lib/primitives.ts';
import { type Adjustment, adjustPoints, adjustPointsInput } from '../services/participants/adjust-points.ts';
import { badgesOfMany, ledgersOfMany, summariesOfMany } from '../services/participants/batch-reads.ts';
import { eraseParticipant } from '../services/participants/erase-participant.ts';
import { EXPORT_SECTION_LIMIT, exportParticipant } from '../services/participants/export-participant.ts';
import {
  type ListParticipantsInput,
  listParticipants,
  listParticipantsInput,
} from '../services/participants/list-participants.ts';
import { mintParticipantToken, mintTokenInput } from '../services/participants/mint-token.ts';
import { participantLedgerInput } from '../services/participants/participant-ledger.ts';
import { reverseEntry, reverseEntryInput } from '../services/participants/reverse-entry.ts';
import type {
  ParticipantBadgeDto,
  ParticipantDto,
  ParticipantSummary,
  ParticipantTokenDto,
} from '../services/participants/shapes.ts';
import { showParticipant } from '../services/participants/show-participant.ts';
import { updateParticipant, updateParticipantInput } from '../services/participants/update-participant.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { LedgerEntry } from './ledger-entry.ts';
import { requestLoader } from './loaders.ts';
import { patchArgs, serviceArgs, serviceInput } from './names.ts';
import { NextExpiry } from './next-expiry.ts';
import { ParticipantTier } from './participant-tier.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

const ParticipantBadge = builder.objectRef<ParticipantBadgeDto>('ParticipantBadge').implement({
  description: 'A badge (key + tier) a participant holds.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    tier: t.exposeString('tier', { nullable: true, description: 'Null for a badge without tiers.' }),
    name: t.exposeString('name'),
    awardedAt: t.expose('awarded_at', { type: DateTimeScalar }),
    flowRunId: t.exposeID('flow_run_id', { nullable: true }),
  })),
});

type ActiveMultiplier = NonNullable<ParticipantSummary['active_multiplier']>;

const Multiplier = builder.objectRef<ActiveMultiplier>('ActiveMultiplier').implement({
  fields: mirror((t) => ({
    factor: t.exposeFloat('factor'),
    expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
  })),
});

const Summary = builder.objectRef<ParticipantSummary>('ParticipantSummary').implement({
  description: 'Totals for a participant (the REST `…/summary`).',
  // The participant's own fields are on Participant, which holds this summary.
  fields: mirror(['external_id', 'balance', 'lifetime_points', 'pending_points', 'next_expiry'], (t) => ({
    badgesCount: t.exposeInt('badges_count'),
    redemptionsCount: t.exposeInt('redemptions_count'),
    eventsCount: t.exposeInt('events_count'),
    rank: t.exposeInt('rank', { description: 'Competition rank on the all-time `points` leaderboard.' }),
    activeMultiplier: t.expose('active_multiplier', { type: Multiplier, nullable: true }),
    tier: t.expose('tier', {
      type: ParticipantTier,
      nullable: true,
      description: 'Their level (as on Participant.tier); null when no tier programme runs.',
    }),
  })),
});

const canRead = { ability: 'participants:read' } as const;
/** participants:read, or a participant token reading its own participant. */
export const canReadOwn = (externalId: string) =>
  ({ $any: { ability: 'participants:read', participant: externalId } }) as const;

/** One page of many participants' ledgers per request and per page arguments (`first`, `after`, …). */
const ledgerPages = requestLoader((externalIds, { app, who }, args) =>
  ledgersOfMany(app, who, externalIds, JSON.parse(args) as PageInput),
);

/**
 * A participant. Nested reads need participants:read like the root fields. Its
 * nested lists are batched per request: a list of participants costs one service call (and
 * one statement, two for `summary`) per nested field, whatever its length (batch-reads.ts).
 */
export const Participant = builder.objectRef<ParticipantDto>('Participant').implement({
  description: 'A person, identified by the caller’s external id, with a points balance, ledger and badges.',
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id'),
    email: t.exposeString('email', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    timezone: t.exposeString('timezone', {
      nullable: true,
      description: 'IANA time zone of their streak periods; null: the programme’s.',
    }),
    balance: t.expose('balance', {
      type: PointsScalar,
      description: 'Spendable points; never negative.',
    }),
    lifetimePoints: t.expose('lifetime_points', { type: PointsScalar }),
    pendingPoints: t.expose('pending_points', {
      type: PointsScalar,
      description: 'Flow-awarded points waiting to become spendable.',
    }),
    nextExpiry: t.expose('next_expiry', { type: NextExpiry, nullable: true }),
    tier: t.expose('tier', {
      type: ParticipantTier,
      nullable: true,
      description: 'Their level in the tier programme; null when no programme runs.',
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
    summary: t.loadable({
      type: Summary,
      authScopes: (p) => canReadOwn(p.external_id),
      load: (externalIds: string[], { app, who }) => summariesOfMany(app, who, externalIds),
      resolve: (p) => p.external_id,
    }),
    badges: t.loadableList({
      type: ParticipantBadge,
      authScopes: (p) => canReadOwn(p.external_id),
      load: (externalIds: string[], { app, who }) => badgesOfMany(app, who, externalIds),
      resolve: (p) => p.external_id,
    }),
    ledger: t.connection(
      {
        type: LedgerEntry,
        description: `The participant's points ledger. ${CONNECTION_DESCRIPTION}`,
        authScopes: (p) => canReadOwn(p.external_id),
        validate: serviceInput(participantLedgerInput),
        resolve: async (p, args, ctx) =>
          connectionFrom(await ledgerPages(ctx, JSON.stringify(args)).load(p.external_id)),
      },
      { name: 'LedgerEntryConnection' },
      { name: 'LedgerEntryEdge' },
    ),
  })),
});

builder.queryFields((t) => ({
  participantExport: t.field({
    type: JSONScalar,
    description:
      'The subject-access export (GET /v1/participants/{external_id}/export): everything held about one ' +
      'participant (profile with its tier, ledger, open point lots, pending grants, badges, achievements, ' +
      'streaks, tier history, referrals as advocate or friend, referral code if one was made, redemptions with ' +
      'codes, events, messages, webhook deliveries naming it) as one JSON document in the REST shapes ' +
      `(snake_case keys), each list section ${EXPORT_SECTION_LIMIT} items at most (\`truncated\` names those cut). ` +
      'A document rather than a graph, so that every door hands out the same bytes. Needs participants:read; an unknown or erased id is not_found.',
    authScopes: canRead,
    args: { externalId: t.arg.string({ required: true, validate: externalIdParam() }) },
    resolve: (_root, args, { app, who }) => exportParticipant(app, who, args.externalId),
  }),
  participant: t.field({
    type: Participant,
    nullable: true,
    description:
      'One participant by external id, or null. Needs participants:read, or a participant token for this participant.',
    authScopes: (_root, args) => canReadOwn(args.externalId),
    args: { externalId: t.arg.string({ required: true, validate: externalIdParam() }) },
    resolve: (_root, args, { app, who }) => orNull(showParticipant(app, who, args.externalId)),
  }),
  participants: t.connection(
    {
      type: Participant,
      description: `Participants (needs participants:read); \`search\` matches external id, e-mail or name. ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      args: { search: t.arg.string() },
      validate: serviceInput(listParticipantsInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listParticipants(app, who, args as unknown as ListParticipantsInput)),
    },
    { name: 'ParticipantConnection' },
    { name: 'ParticipantEdge' },
  ),
}));

const AdjustPointsPayload = builder.objectRef<Adjustment>('AdjustPointsPayload').implement({
  fields: mirror((t) => ({
    entry: t.expose('entry', { type: LedgerEntry }),
    replayed: t.exposeBoolean('replayed', {
      description: 'True when the idempotency key was seen before: the original entry, nothing written.',
    }),
  })),
});

builder.mutationFields((t) => ({
  adjustPoints: t.field({
    type: AdjustPointsPayload,
    description:
      'Credits (positive) or debits (negative) points; creates an unknown participant. Needs points:adjust. ' +
      'Idempotent on `idempotencyKey` (a different request under a used key is idempotency_conflict).',
    authScopes: { ability: 'points:adjust' },
    args: t.validate(
      {
        externalId: t.arg.string({ required: true }),
        points: t.arg({ type: PointsScalar, required: true }),
        reason: t.arg.string({ required: true }),
        idempotencyKey: t.arg.string(),
      },
      serviceArgs(adjustPointsInput, { externalId: externalIdParam() }),
    ),
    resolve: (_root, { externalId, input }, { app, who }) => adjustPoints(app, who, externalId, input),
  }),
  reverseLedgerEntry: t.field({
    type: LedgerEntry,
    description: 'Reverses a ledger entry once (already_reversed otherwise). Needs points:adjust.',
    authScopes: { ability: 'points:adjust' },
    args: t.validate(
      {
        externalId: t.arg.string({ required: true }),
        entryId: t.arg.id({ required: true }),
        reason: t.arg.string(),
      },
      serviceArgs(reverseEntryInput, { externalId: externalIdParam(), entryId: z.coerce.string() }),
    ),
    resolve: (_root, { externalId, entryId, input }, { app, who }) =>
      reverseEntry(app, who, externalId, entryId, input),
  }),
}));

const UpdateParticipantInput = builder
  .inputType('UpdateParticipantInput', {
    description: 'Each given field replaces the stored value; `null` clears it; absent fields stay.',
    fields: (t) => ({
      email: t.string(),
      phone: t.string(),
      name: t.string(),
      timezone: t.string({
        description: 'IANA time zone of their streak periods (e.g. Europe/Paris); `null`: the programme’s.',
      }),
    }),
  })
  .validate(serviceInput(updateParticipantInput, patchArgs));

const ParticipantToken = builder.objectRef<ParticipantTokenDto>('ParticipantToken').implement({
  description: 'A short-lived participant token, shown once.',
  fields: mirror((t) => ({
    token: t.exposeString('token', {
      description:
        'Send as `Authorization: Bearer <token>` to /graphql, or in graphql-ws `connectionParams`.',
    }),
    expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
  })),
});

const EraseParticipantPayload = builder
  .objectRef<{ externalId: string; erased: true }>('EraseParticipantPayload')
  .implement({
    fields: (t) => ({
      externalId: t.exposeString('externalId', {
        description: 'The id that was erased (it now answers null).',
      }),
      erased: t.exposeBoolean('erased'),
    }),
  });

builder.mutationFields((t) => ({
  updateParticipant: t.field({
    type: Participant,
    description:
      'Replaces a participant’s PII and time zone (needs participants:write); an unknown participant is not_found.',
    authScopes: { ability: 'participants:write' },
    args: {
      externalId: t.arg.string({ required: true, validate: externalIdParam() }),
      input: t.arg({ type: UpdateParticipantInput, required: true }),
    },
    resolve: (_root, { externalId, input }, { app, who }) => updateParticipant(app, who, externalId, input),
  }),
  eraseParticipant: t.field({
    type: EraseParticipantPayload,
    description:
      'Erases a participant (needs participants:erase): PII cleared, the external id replaced by a pseudonym; ' +
      'ledger amounts, badges and redemptions kept.',
    authScopes: { ability: 'participants:erase' },
    args: { externalId: t.arg.string({ required: true, validate: externalIdParam() }) },
    resolve: async (_root, { externalId }, { app, who }) => ({
      externalId,
      ...(await eraseParticipant(app, who, externalId)),
    }),
  }),
  mintParticipantToken: t.field({
    type: ParticipantToken,
    description:
      'Mints a short-lived token a browser widget may hold instead of an API key (needs participants:write).',
    authScopes: { ability: 'participants:write' },
    args: t.validate(
      {
        externalId: t.arg.string({ required: true }),
        ttlSeconds: t.arg.int({ description: 'Lifetime in seconds: 60 to 86400, default 3600.' }),
      },
      serviceArgs(mintTokenInput, { externalId: externalIdParam() }),
    ),
    resolve: (_root, { externalId, input }, { app, who }) =>
      mintParticipantToken(app, who, externalId, input),
  }),
}));
