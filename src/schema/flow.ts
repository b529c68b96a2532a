import { createFlowInput, updateFlowInput } from '../services/flows/flow-schemas.ts';
import {
  getFlowRun,
  type ListFlowRunsInput,
  listFlowRuns,
  listFlowRunsInput,
} from '../services/flows/list-flow-runs.ts';
import {
  createFlow,
  deleteFlow,
  getFlow,
  type ListFlowsInput,
  listFlows,
  listFlowsInput,
  updateFlow,
} from '../services/flows/manage-flows.ts';
import { FLOW_RUN_STATUSES, type FlowDto, type FlowRunDto, STEP_STATUSES } from '../services/flows/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { patchArgs, serviceInput, snakeArgs, snakeDeep } from './names.ts';
import { DeletePayload, ParticipantRef } from './payloads.ts';
import { mirror } from './shape.ts';

const canRead = { ability: 'flows:read' } as const;
const canWrite = { ability: 'flows:write' } as const;

const FlowRunStatus = builder.enumType('FlowRunStatus', {
  description:
    '`completed`; `skipped` (every step skipped); `failed` (a step failed: retried with the event, resumed at that step).',
  values: FLOW_RUN_STATUSES,
});

const FlowStepStatus = builder.enumType('FlowStepStatus', {
  description:
    "A run's statuses, plus `pending` for steps not reached (an earlier step failed) and `capped` for an award an earning cap cut to nothing.",
  values: STEP_STATUSES,
});

type Trigger = NonNullable<FlowDto['trigger']>;

/** An inactivity flow's trigger (docs/engagement.md#inactivity). */
const FlowTrigger = builder.objectRef<Trigger>('FlowTrigger').implement({
  description:
    'An inactivity flow: it runs once for each participant with no event (of `eventTypes`; null: any) for `after`, and again only after a new such event.',
  fields: mirror((t) => ({
    type: t.exposeString('type', { description: '`inactivity`.' }),
    after: t.exposeString('after', { description: 'An ISO 8601 duration, e.g. P30D.' }),
    eventTypes: t.exposeStringList('event_types', { nullable: true }),
  })),
});

/** A flow (docs/api.md#flows), the object REST's /v1/flows answers. */
export const Flow = builder.objectRef<FlowDto>('Flow').implement({
  description:
    'When an event of `eventType` meets `conditions` (or, for an inactivity flow, when a participant has been idle as its `trigger` says), its actions run in order.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'UUIDv7.' }),
    name: t.exposeString('name'),
    eventType: t.exposeString('event_type', {
      nullable: true,
      description: 'The event type that runs it; null for an inactivity flow.',
    }),
    trigger: t.expose('trigger', {
      type: FlowTrigger,
      nullable: true,
      description: 'An inactivity flow’s trigger; null for an event flow.',
    }),
    conditions: t.expose('conditions', {
      type: JSONScalar,
      nullable: true,
      description: 'JSON Logic over `{ event, payload, participant }` plus `event_count`; null = always.',
    }),
    actions: t.field({
      type: [JSONScalar],
      description:
        '`{ type: "award_points", points, reason? }`, `{ type: "award_badge", badge, tier? }` or `{ type: "send_message", template }`.',
      resolve: (f) => f.actions,
    }),
    active: t.exposeBoolean('active'),
    maxRunsPerParticipant: t.exposeInt('max_runs_per_participant', { nullable: true }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

type Step = FlowRunDto['steps'][number];

const FlowRunStep = builder.objectRef<Step>('FlowRunStep').implement({
  fields: mirror((t) => ({
    action: t.exposeString('action', {
      description:
        '`award_points`, `award_badge`, `send_message` (or `conditions` when they could not be evaluated).',
    }),
    status: t.field({ type: FlowStepStatus, resolve: (s) => s.status }),
    result: t.expose('result', {
      type: JSONScalar,
      nullable: true,
      description:
        '`{ points, multiplier, entry_id }`, `{ badge, tier, already_held? }` or `{ message_id, status }`.',
    }),
    error: t.exposeString('error', { nullable: true }),
  })),
});

/** One run of a flow on one event or idle spell, with its steps (GET /v1/flow-runs). */
export const FlowRun = builder.objectRef<FlowRunDto>('FlowRun').implement({
  description: 'One run of a flow on one event (or, for an inactivity flow, one idle spell), with its steps.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'UUIDv7; the `reference` of its ledger entries.' }),
    flowId: t.exposeID('flow_id'),
    eventId: t.exposeID('event_id', { nullable: true, description: 'Null for an inactivity run.' }),
    participant: t.expose('participant', { type: ParticipantRef }),
    status: t.field({ type: FlowRunStatus, resolve: (r) => r.status }),
    steps: t.expose('steps', { type: [FlowRunStep] }),
    startedAt: t.expose('started_at', { type: DateTimeScalar }),
    finishedAt: t.expose('finished_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'Null while a failed run may still be retried.',
    }),
  })),
});

builder.queryFields((t) => ({
  flow: t.field({
    type: Flow,
    nullable: true,
    description: "One flow of the key's workspace and mode, or null. Needs flows:read.",
    authScopes: canRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getFlow(app, who, String(args.id))),
  }),
  flows: t.connection(
    {
      type: Flow,
      description: `Flows of the key's workspace and mode (needs flows:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      args: { eventType: t.arg.string(), active: t.arg.boolean() },
      validate: serviceInput(listFlowsInput, (args: Record<string, unknown>) => ({
        ...snakeArgs(args),
        active: args.active == null ? undefined : String(args.active),
      })),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listFlows(app, who, args as unknown as ListFlowsInput)),
    },
    { name: 'FlowConnection' },
    { name: 'FlowEdge' },
  ),
  flowRun: t.field({
    type: FlowRun,
    nullable: true,
    description: 'One flow run with its steps, or null. Needs flows:read.',
    authScopes: canRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getFlowRun(app, who, String(args.id))),
  }),
  flowRuns: t.connection(
    {
      type: FlowRun,
      description: `Flow runs (needs flows:read), filtered by flow, participant (external id), event and status. ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      args: {
        flowId: t.arg.id(),
        participant: t.arg.string({ description: "A participant's external id." }),
        eventId: t.arg.id(),
        status: t.arg({ type: FlowRunStatus }),
      },
      validate: serviceInput(listFlowRunsInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listFlowRuns(app, who, args as unknown as ListFlowRunsInput)),
    },
    { name: 'FlowRunConnection' },
    { name: 'FlowRunEdge' },
  ),
}));

/** A flow input's trigger as the service takes it: its keys snake_cased too (`eventTypes`). */
const withTrigger = (input: Record<string, unknown>): Record<string, unknown> =>
  input.trigger == null ? input : { ...input, trigger: snakeDeep(input.trigger, 'drop') };

const TRIGGER_DESCRIPTION =
  'An inactivity flow’s trigger (docs/engagement.md#inactivity), instead of `eventType`.';

const FlowTriggerInput = builder.inputType('FlowTriggerInput', {
  description: 'Runs the flow once for each participant idle for `after`, and again only after a new event.',
  fields: (t) => ({
    type: t.string({ required: true, description: '`inactivity`.' }),
    after: t.string({ required: true, description: 'A positive ISO 8601 duration, e.g. P30D.' }),
    eventTypes: t.stringList({
      description: 'The event types that count as activity (1 to 50); absent: every type.',
    }),
  }),
});

export const CreateFlowInput = builder
  .inputType('CreateFlowInput', {
    description: 'Exactly one of `eventType` and `trigger`.',
    fields: (t) => ({
      name: t.string({ required: true }),
      eventType: t.string(),
      trigger: t.field({ type: FlowTriggerInput, description: TRIGGER_DESCRIPTION }),
      conditions: t.field({ type: JSONScalar, description: 'JSON Logic; null or absent = always.' }),
      actions: t.field({
        type: [JSONScalar],
        required: true,
        description:
          '1 to 20 of `{ type: "award_points", points, reason? }`, `{ type: "award_badge", badge, tier? }`, `{ type: "send_message", template }`.',
      }),
      active: t.boolean(),
      maxRunsPerParticipant: t.int(),
    }),
  })
  .validate(serviceInput(createFlowInput, (args: Record<string, unknown>) => withTrigger(snakeArgs(args))));

const UpdateFlowInput = builder
  .inputType('UpdateFlowInput', {
    description:
      'The fields to replace; `conditions: null` and `maxRunsPerParticipant: null` clear them. Giving `eventType` makes an inactivity flow an event flow, giving `trigger` the reverse (not both).',
    fields: (t) => ({
      name: t.string(),
      eventType: t.string(),
      trigger: t.field({ type: FlowTriggerInput, description: TRIGGER_DESCRIPTION }),
      conditions: t.field({ type: JSONScalar }),
      actions: t.field({ type: [JSONScalar] }),
      active: t.boolean(),
      maxRunsPerParticipant: t.int(),
    }),
  })
  .validate(serviceInput(updateFlowInput, (args: Record<string, unknown>) => withTrigger(patchArgs(args))));

builder.mutationFields((t) => ({
  createFlow: t.field({
    type: Flow,
    description: 'Creates a flow, like POST /v1/flows (needs flows:write).',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateFlowInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createFlow(app, who, input),
  }),
  updateFlow: t.field({
    type: Flow,
    description:
      'Replaces the given fields (needs flows:write). Events processed later use the new definition; recorded runs keep their steps.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateFlowInput, required: true }) },
    resolve: (_root, { id, input }, { app, who }) => updateFlow(app, who, String(id), input),
  }),
  deleteFlow: t.field({
    type: DeletePayload,
    description: 'Deletes a flow (needs flows:write): it stops matching at once; its runs stay readable.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => deleteFlow(app, who, String(id)),
  }),
}));
