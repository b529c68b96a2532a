import { DomainError } from '../errors.ts';
import { adjustPoints } from '../services/participants/adjust-points.ts';
import { listParticipants } from '../services/participants/list-participants.ts';
import { type ParticipantBadgeDto, participantBadges } from '../services/participants/participant-badges.ts';
import { participantLedger } from '../services/participants/participant-ledger.ts';
import { type ParticipantSummary, participantSummary } from '../services/participants/participant-summary.ts';
import type { ParticipantDto } from '../services/participants/presenters.ts';
import { reverseEntry } from '../services/participants/reverse-entry.ts';
import { showParticipant } from '../services/participants/show-participant.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom, pageArgName, pageInputFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { camelPath, withArgNames } from './errors.ts';
import { LedgerEntry } from './ledger-entry.ts';
import { PointsScalar } from './points.ts';

const ParticipantBadge = builder.objectRef<ParticipantBadgeDto>('ParticipantBadge').implement({
  description: 'A badge (key + tier) a participant holds.',
  fields: (t) => ({
    key: t.exposeString('key'),
    tier: t.exposeString('tier', { nullable: true, description: 'Null for a badge without tiers.' }),
    name: t.exposeString('name'),
    awardedAt: t.expose('awarded_at', { type: DateTimeScalar }),
    flowRunId: t.exposeID('flow_run_id', { nullable: true }),
  }),
});

const Multiplier = builder
  .objectRef<NonNullable<ParticipantSummary['active_multiplier']>>('ActiveMultiplier')
  .implement({
    fields: (t) => ({
      factor: t.exposeFloat('factor'),
      expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
    }),
  });

const Summary = builder.objectRef<ParticipantSummary>('ParticipantSummary').implement({
  description: 'Totals for a participant (the REST `…/summary`).',
  fields: (t) => ({
    badgesCount: t.exposeInt('badges_count'),
    redemptionsCount: t.exposeInt('redemptions_count'),
    eventsCount: t.exposeInt('events_count'),
    rank: t.exposeInt('rank', { description: 'Competition rank on the all-time `points` leaderboard.' }),
    activeMultiplier: t.expose('active_multiplier', { type: Multiplier, nullable: true }),
  }),
});

/** A participant (CONTRACT 7). Nested reads need participants:read like the root fields. */
export const Participant = builder.objectRef<ParticipantDto>('Participant').implement({
  description: 'A person, identified by the caller’s external id, with a points balance, ledger and badges.',
  fields: (t) => ({
    externalId: t.exposeString('external_id'),
    email: t.exposeString('email', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    balance: t.expose('balance', {
      type: PointsScalar,
      description: 'Spendable points; never negative.',
    }),
    lifetimePoints: t.expose('lifetime_points', { type: PointsScalar }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
    summary: t.field({
      type: Summary,
      resolve: async (p, _args, { app, principal }) =>
        participantSummary(app, await principal('participants:read'), p.external_id),
    }),
    badges: t.field({
      type: [ParticipantBadge],
      resolve: async (p, _args, { app, principal }) =>
        (await participantBadges(app, await principal('participants:read'), p.external_id)).data,
    }),
    ledger: t.connection(
      {
        type: LedgerEntry,
        description: `The participant's points ledger. ${CONNECTION_DESCRIPTION}`,
        resolve: async (p, args, { app, principal }) => {
          const who = await principal('participants:read');
          const pageArg = pageArgName(args);
          const page = await withArgNames(
            (field) => camelPath(pageArg(field)),
            () => participantLedger(app, who, p.external_id, pageInputFrom(args)),
          );
          return connectionFrom(page);
        },
      },
      { name: 'LedgerEntryConnection' },
      { name: 'LedgerEntryEdge' },
    ),
  }),
});

builder.queryFields((t) => ({
  participant: t.field({
    type: Participant,
    nullable: true,
    description: 'One participant by external id, or null. Needs participants:read.',
    args: { externalId: t.arg.string({ required: true }) },
    resolve: async (_root, args, { app, principal }) => {
      const who = await principal('participants:read');
      try {
        return await showParticipant(app, who, args.externalId);
      } catch (err) {
        if (err instanceof DomainError && err.type === 'not_found') return null;
        throw err;
      }
    },
  }),
  participants: t.connection(
    {
      type: Participant,
      description: `Participants (needs participants:read); \`search\` matches external id, e-mail or name. ${CONNECTION_DESCRIPTION}`,
      args: { search: t.arg.string() },
      resolve: async (_root, args, { app, principal }) => {
        const who = await principal('participants:read');
        const pageArg = pageArgName(args);
        const page = await withArgNames(
          (field) => camelPath(pageArg(field)),
          () => listParticipants(app, who, { ...pageInputFrom(args), search: args.search ?? undefined }),
        );
        return connectionFrom(page);
      },
    },
    { name: 'ParticipantConnection' },
    { name: 'ParticipantEdge' },
  ),
}));

const AdjustPointsPayload = builder
  .objectRef<{ entry: Awaited<ReturnType<typeof adjustPoints>>['entry']; replayed: boolean }>(
    'AdjustPointsPayload',
  )
  .implement({
    fields: (t) => ({
      entry: t.expose('entry', { type: LedgerEntry }),
      replayed: t.exposeBoolean('replayed', {
        description: 'True when the idempotency key was seen before: the original entry, nothing written.',
      }),
    }),
  });

builder.mutationFields((t) => ({
  adjustPoints: t.field({
    type: AdjustPointsPayload,
    description:
      'Credits (positive) or debits (negative) points; creates an unknown participant. Needs points:adjust. ' +
      'Idempotent on `idempotencyKey` (a different request under a used key is idempotency_conflict).',
    args: {
      externalId: t.arg.string({ required: true }),
      points: t.arg({ type: PointsScalar, required: true }),
      reason: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (_root, args, { app, principal }) => {
      const who = await principal('points:adjust');
      return withArgNames(camelPath, () =>
        adjustPoints(app, who, args.externalId, {
          points: args.points,
          reason: args.reason,
          idempotency_key: args.idempotencyKey ?? undefined,
        }),
      );
    },
  }),
  reverseLedgerEntry: t.field({
    type: LedgerEntry,
    description: 'Reverses a ledger entry once (already_reversed otherwise). Needs points:adjust.',
    args: {
      externalId: t.arg.string({ required: true }),
      entryId: t.arg.id({ required: true }),
      reason: t.arg.string(),
    },
    resolve: async (_root, args, { app, principal }) => {
      const who = await principal('points:adjust');
      return withArgNames(camelPath, () =>
        reverseEntry(app, who, args.externalId, String(args.entryId), { reason: args.reason ?? undefined }),
      );
    },
  }),
}));
