import type { z } from 'zod';
import type { PageInput } from '../lib/pagination.ts';
import {
  listPendingGrants,
  listPendingInput,
  settlePendingGrant,
} from '../services/points/pending-points.ts';
import { participantPoints } from '../services/points/points-view.ts';
import { getProgram, updateProgram } from '../services/points/program.ts';
import {
  capPeriod,
  type LotDto,
  type PendingGrantDto,
  type PointsViewDto,
  type ProgramSettings,
  pendingStatus,
  pointsExpiryShape,
  updateProgramInput,
} from '../services/points/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { serviceInput, snakeDeep } from './names.ts';
import { canReadOwn, Participant } from './participant.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

type Expiry = NonNullable<ProgramSettings['points_expiry']>;
type EarningCap = ProgramSettings['earning_caps'][number];
type Expiring = PointsViewDto['expiring'][number];

const ExpiryMode = builder.enumType('PointsExpiryMode', {
  description: '`fixed`: each credit expires `after` its credit time; `activity`: after the last credit.',
  values: pointsExpiryShape.shape.mode.options,
});
const RoundTo = builder.enumType('PointsExpiryRoundTo', {
  values: pointsExpiryShape.shape.round_to.unwrap().options,
});
const CapPeriod = builder.enumType('EarningCapPeriod', {
  description: 'A calendar period in the programme’s time zone (weeks start Monday).',
  values: capPeriod.options,
});
const PendingStatus = builder.enumType('PendingGrantStatus', { values: pendingStatus.options });

const PointsExpiry = builder.objectRef<Expiry>('PointsExpiry').implement({
  fields: mirror((t) => ({
    mode: t.field({ type: ExpiryMode, resolve: (e) => e.mode }),
    after: t.exposeString('after', { description: 'ISO 8601 duration, e.g. P12M.' }),
    roundTo: t.field({ type: RoundTo, resolve: (e) => e.round_to }),
  })),
});

const EarningCapRef = builder.objectRef<EarningCap>('EarningCap').implement({
  fields: mirror((t) => ({
    period: t.field({ type: CapPeriod, resolve: (c) => c.period }),
    maxPoints: t.expose('max_points', { type: PointsScalar }),
  })),
});

/** The programme settings (docs/points.md#programme-settings), the object REST's /v1/program answers. */
const Program = builder.objectRef<ProgramSettings>('Program').implement({
  description:
    'Time zone, points expiry, expiry notice, pending period and earning caps of a workspace and mode.',
  fields: mirror((t) => ({
    timezone: t.exposeString('timezone', { description: 'IANA name; calendar boundaries are taken in it.' }),
    pointsExpiry: t.expose('points_expiry', { type: PointsExpiry, nullable: true }),
    expiryNotice: t.exposeString('expiry_notice', {
      description: 'ISO 8601 duration before a lot’s expiry.',
    }),
    pendingFor: t.exposeString('pending_for', { nullable: true }),
    earningCaps: t.expose('earning_caps', { type: [EarningCapRef] }),
  })),
});

const PointLot = builder.objectRef<LotDto>('PointLot').implement({
  description: 'Points a credit brought that are neither spent nor expired.',
  fields: mirror((t) => ({
    entryId: t.exposeID('entry_id', { description: 'The ledger entry that opened it.' }),
    points: t.expose('points', { type: PointsScalar }),
    remaining: t.expose('remaining', { type: PointsScalar }),
    expiresAt: t.expose('expires_at', { type: DateTimeScalar, nullable: true }),
  })),
});

const ExpiringPoints = builder.objectRef<Expiring>('ExpiringPoints').implement({
  fields: mirror((t) => ({
    expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
    points: t.expose('points', { type: PointsScalar }),
  })),
});

const ParticipantPoints = builder.objectRef<PointsViewDto>('ParticipantPoints').implement({
  description: 'Balance, pending points and open lots (the REST `…/points`). Balance = Σ remaining.',
  fields: mirror((t) => ({
    balance: t.expose('balance', { type: PointsScalar }),
    pendingPoints: t.expose('pending_points', { type: PointsScalar }),
    lots: t.expose('lots', { type: [PointLot], description: 'Soonest expiry first, never-expiring last.' }),
    expiring: t.expose('expiring', { type: [ExpiringPoints], description: 'The next 12 expiry instants.' }),
  })),
});

const PendingGrant = builder.objectRef<PendingGrantDto>('PendingGrant').implement({
  description: 'Flow-awarded points waiting for `availableAt` before they can be spent.',
  fields: mirror(['participant'], (t) => ({
    id: t.exposeID('id'),
    points: t.expose('points', { type: PointsScalar }),
    availableAt: t.expose('available_at', { type: DateTimeScalar }),
    status: t.field({ type: PendingStatus, resolve: (g) => g.status }),
    eventId: t.exposeID('event_id', { nullable: true }),
    flowRunId: t.exposeID('flow_run_id', { nullable: true }),
    entryId: t.exposeID('entry_id', { nullable: true, description: 'The credit its activation posted.' }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
  })),
});

builder.objectFields(Participant, (t) => ({
  points: t.field({
    type: ParticipantPoints,
    description: 'Open lots with their expiry, and pending points.',
    authScopes: (p) => canReadOwn(p.external_id),
    resolve: (p, _args, { app, who }) => participantPoints(app, who, p.external_id),
  }),
  pendingGrants: t.connection(
    {
      type: PendingGrant,
      description: `Pending grants, newest first. ${CONNECTION_DESCRIPTION}`,
      authScopes: (p) => canReadOwn(p.external_id),
      validate: serviceInput(listPendingInput),
      resolve: async (p, args, { app, who }) =>
        connectionFrom(await listPendingGrants(app, who, p.external_id, args as unknown as PageInput)),
    },
    { name: 'PendingGrantConnection' },
    { name: 'PendingGrantEdge' },
  ),
}));

builder.queryFields((t) => ({
  program: t.field({
    type: Program,
    description:
      'The programme settings of the key’s workspace and mode (any key; a participant token reads its own programme).',
    authScopes: { anyKey: true },
    resolve: (_root, _args, { app, who }) => getProgram(app, who),
  }),
}));

const PointsExpiryInput = builder.inputType('PointsExpiryInput', {
  fields: (t) => ({
    mode: t.field({ type: ExpiryMode, required: true }),
    after: t.string({ required: true, description: 'ISO 8601 duration, e.g. P12M.' }),
    roundTo: t.field({ type: RoundTo }),
  }),
});
const EarningCapInput = builder.inputType('EarningCapInput', {
  fields: (t) => ({
    period: t.field({ type: CapPeriod, required: true }),
    maxPoints: t.field({ type: PointsScalar, required: true }),
  }),
});

const UpdateProgramInput = builder
  .inputType('UpdateProgramInput', {
    description: 'The fields to replace; `null` clears `pointsExpiry` or `pendingFor`.',
    fields: (t) => ({
      timezone: t.string(),
      pointsExpiry: t.field({ type: PointsExpiryInput }),
      expiryNotice: t.string(),
      pendingFor: t.string(),
      earningCaps: t.field({ type: [EarningCapInput] }),
    }),
  })
  .validate(serviceInput(updateProgramInput, (args) => snakeDeep(args, 'keep')));

builder.mutationFields((t) => ({
  updateProgram: t.field({
    type: Program,
    description:
      'Changes the programme settings (needs flows:write); applies to credits and awards made after it.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: UpdateProgramInput, required: true }) },
    resolve: (_root, { input }, { app, who }) =>
      updateProgram(app, who, input as unknown as z.output<typeof updateProgramInput>),
  }),
  activatePendingPoints: t.field({
    type: PendingGrant,
    description:
      'A pending grant becomes spendable now (needs points:adjust); any other move is invalid_state.',
    authScopes: { ability: 'points:adjust' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => settlePendingGrant(app, who, String(id), 'activated'),
  }),
  cancelPendingPoints: t.field({
    type: PendingGrant,
    description: 'Cancels a pending grant before it was ever spendable (needs points:adjust).',
    authScopes: { ability: 'points:adjust' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => settlePendingGrant(app, who, String(id), 'cancelled'),
  }),
}));
