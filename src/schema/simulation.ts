import {
  type SimulatedAction as SimulatedActionDto,
  type SimulatedFlow as SimulatedFlowDto,
  type SimulationDto,
  simulatedActionShape,
  simulationShape,
} from '../services/simulate/shapes.ts';
import { simulateEvent } from '../services/simulate/simulate-event.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { CreateFlowInput } from './flow.ts';
import { IngestEventInput } from './ingest-event-input.ts';
import { inCallersNames } from './names.ts';
import { mirror } from './shape.ts';

const SimulatedActionType = builder.enumType('SimulatedActionType', {
  values: simulatedActionShape.shape.type.options,
});

const SimulatedStepStatus = builder.enumType('SimulatedStepStatus', {
  description:
    'As the flow run would record the step (`capped`: an earning cap left nothing); `not_run`: an earlier step failed.',
  values: simulatedActionShape.shape.status.options,
});

const SimulationStatus = builder.enumType('SimulationStatus', {
  description:
    'What processing would end in: `failed` when a step fails (the engine would retry the event, then store it as `failed`).',
  values: simulationShape.shape.status.options,
});

const SimulatedAction = builder.objectRef<SimulatedActionDto>('SimulatedAction').implement({
  description: 'What one action of a flow would do.',
  fields: mirror((t) => ({
    type: t.field({ type: SimulatedActionType, resolve: (a) => a.type }),
    status: t.field({ type: SimulatedStepStatus, resolve: (a) => a.status }),
    points: t.exposeInt('points', {
      nullable: true,
      description:
        'award_points: the points credited, or held pending, after multipliers and caps (0 when skipped or capped).',
    }),
    cappedPoints: t.exposeInt('capped_points', {
      nullable: true,
      description: 'award_points: the part an earning cap cut (0 when none did).',
    }),
    pending: t.exposeBoolean('pending', {
      nullable: true,
      description: 'award_points: the points would wait in a pending grant, not be spendable yet.',
    }),
    availableAt: t.expose('available_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'award_points, pending: when the grant would become spendable.',
    }),
    badge: t.exposeString('badge', { nullable: true, description: 'award_badge: the badge key.' }),
    tier: t.exposeString('tier', { nullable: true, description: 'award_badge: the badge tier.' }),
    template: t.exposeString('template', {
      nullable: true,
      description: 'send_message: the template key (the message is rendered, never sent).',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why the step would fail.' }),
  })),
});

const SimulatedFlow = builder.objectRef<SimulatedFlowDto>('SimulatedFlow').implement({
  description: "What one flow of the event's type would do.",
  fields: mirror((t) => ({
    flowId: t.exposeID('flow_id', {
      nullable: true,
      description: 'The saved flow; null for the unsaved `flow` of the input.',
    }),
    name: t.exposeString('name'),
    matched: t.exposeBoolean('matched', {
      description:
        'Whether the flow would run: false when its conditions do not hold or its maxRunsPerParticipant is ' +
        'reached (then `actions` is empty).',
    }),
    actions: t.expose('actions', { type: [SimulatedAction] }),
    error: t.exposeString('error', {
      nullable: true,
      description: "Why the flow's conditions could not be evaluated.",
    }),
  })),
});

type Part<K extends keyof SimulationDto> = SimulationDto[K];

const SimulatedParticipant = builder.objectRef<Part<'participant'>>('SimulatedParticipant').implement({
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id'),
    exists: t.exposeBoolean('exists', { description: 'False: the event would create the participant.' }),
  })),
});

const SimulatedBadge = builder.objectRef<Part<'badges'>[number]>('SimulatedBadge').implement({
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    tier: t.exposeString('tier', { nullable: true }),
  })),
});

const SimulatedStreak = builder.objectRef<Part<'streaks'>[number]>('SimulatedStreak').implement({
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    length: t.exposeInt('length'),
  })),
});

const SimulatedTierChange = builder.objectRef<Part<'tier'>>('SimulatedTierChange').implement({
  description: 'Level keys before and after the event; null without a tier programme.',
  fields: mirror((t) => ({
    from: t.exposeString('from', { nullable: true }),
    to: t.exposeString('to', { nullable: true }),
  })),
});

const SimulatedBalance = builder.objectRef<Part<'balance'>>('SimulatedBalance').implement({
  description: 'Spendable points before and after the event (pending points excluded).',
  fields: mirror((t) => ({
    before: t.exposeInt('before'),
    after: t.exposeInt('after'),
  })),
});

/** What POST /v1/events/simulate answers. */
const Simulation = builder.objectRef<SimulationDto>('Simulation').implement({
  description: 'What an event would do now, with nothing stored, sent or created.',
  fields: mirror((t) => ({
    status: t.field({ type: SimulationStatus, resolve: (s) => s.status }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'The failure, as the event would record it; null.',
    }),
    participant: t.expose('participant', { type: SimulatedParticipant }),
    flows: t.expose('flows', {
      type: [SimulatedFlow],
      description: "Every active flow of the event's type in the order they run, then the unsaved `flow`.",
    }),
    badges: t.expose('badges', {
      type: [SimulatedBadge],
      description:
        "Every badge the participant would receive: flows' awards, achievements reached, a referral's friend actions.",
    }),
    streaks: t.expose('streaks', {
      type: [SimulatedStreak],
      description: "The participant's running streaks after the event, by key.",
    }),
    tier: t.expose('tier', { type: SimulatedTierChange }),
    balance: t.expose('balance', { type: SimulatedBalance }),
  })),
});

const SimulateEventInput = builder.inputType('SimulateEventInput', {
  fields: (t) => ({
    event: t.field({
      type: IngestEventInput,
      required: true,
      description:
        'The event, as ingestEvent takes it. Its idempotencyKey is ignored: nothing is stored, so a simulation ' +
        'is never a duplicate.',
    }),
    flow: t.field({
      type: CreateFlowInput,
      description:
        "An unsaved flow, as createFlow takes it, evaluated as if saved and active (after the saved flows of the event's type); its eventType must be the event's.",
    }),
  }),
});

builder.mutationField('simulateEvent', (t) =>
  t.field({
    type: Simulation,
    description:
      'What the event would do now, like POST /v1/events/simulate (needs events:write): the flows that would ' +
      "run and each action's points (after multipliers and caps, or held pending), badges and messages, the " +
      'streaks, the level and the balance after it — evaluated by the engine itself in a transaction that is ' +
      'rolled back: nothing is stored, sent or created. An event ingestEvent would quarantine is a ' +
      'validation_error naming the field.',
    authScopes: { ability: 'events:write' },
    args: { input: t.arg({ type: SimulateEventInput, required: true }) },
    resolve: (_root, { input }, { app, who }) =>
      simulateEvent(app, who, { event: input.event, flow: input.flow ?? undefined }).catch(
        inCallersNames('input'),
      ),
  }),
);
