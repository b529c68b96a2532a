import { z } from 'zod';
import { defineBadgeInput } from '../services/badges/manage-badges.ts';
import { createFlowInput, updateFlowInput } from '../services/flows/flow-schemas.ts';
import { listFlowRunsInput } from '../services/flows/list-flow-runs.ts';
import { listFlowsInput } from '../services/flows/manage-flows.ts';
import type { OperationDoc } from './openapi.ts';
import { deleted, paginated } from './openapi-schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });

const TAG = 'Flows';

export const flow = z
  .object({
    id: z.string().meta({ format: 'uuid', description: 'Flow id (UUIDv7).' }),
    name: z.string(),
    event_type: z.string().meta({ examples: ['order.completed'] }),
    conditions: z.record(z.string(), z.unknown()).nullable().meta({
      description: 'JSON Logic over `{ event, payload, participant }` plus `event_count`; null = always.',
    }),
    actions: createFlowInput.shape.actions,
    active: z.boolean(),
    max_runs_per_participant: z.int().nullable(),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Flow' });

export const flowRun = z
  .object({
    id: z
      .string()
      .meta({ format: 'uuid', description: 'Flow run id (UUIDv7); the `reference` of its ledger entries.' }),
    flow_id: z.string().meta({ format: 'uuid' }),
    event_id: z.string().meta({ format: 'uuid' }),
    participant: z.object({ external_id: z.string() }),
    status: listFlowRunsInput.shape.status.unwrap().meta({
      id: 'FlowRunStatus',
      description:
        '`completed`; `skipped` (every step skipped: points ≤ 0, badge already held, no address); `failed` ' +
        '(a step failed: retried with the event, resumed at that step; final once the event is `failed`).',
    }),
    steps: z.array(
      z.object({
        action: z.string().meta({
          description:
            '`award_points`, `award_badge`, `send_message` (or `conditions` when they could not be evaluated).',
        }),
        status: z
          .enum(['completed', 'skipped', 'failed', 'pending'])
          .meta({ description: '`pending`: not reached (an earlier step failed).' }),
        result: z.record(z.string(), z.unknown()).nullable().meta({
          description:
            '`{ points, multiplier, entry_id }`, `{ badge, tier, already_held? }` or `{ message_id, status }`.',
        }),
        error: z.string().nullable(),
      }),
    ),
    started_at: timestamp('When the run was first recorded.'),
    finished_at: timestamp(
      'When it reached its final status; null while a failed run may still be retried.',
    ).nullable(),
  })
  .meta({ id: 'FlowRun' });

export const badge = z
  .object({
    key: z.string().meta({ examples: ['vip'] }),
    name: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    tiers: z.array(z.string()),
  })
  .meta({ id: 'Badge' });

const idParam = (what: string) =>
  z.object({
    id: z.uuid().meta({ param: { description: `The ${what} id. An unknown or malformed id is a 404.` } }),
  });

const FLOW_DESCRIPTION =
  'Actions run in order: `award_points` (`points`: a positive integer or JSON Logic over the context, floored; ' +
  '≤ 0 skips the step; the active points multiplier applies), `award_badge` (`badge` key, optional `tier`; an ' +
  'undefined key is created; a key+tier is held once), `send_message` (`template` key). Conditions: JSON Logic ' +
  '(https://jsonlogic.com) over `{ event: { type, occurred_at }, payload, participant: { external_id, email, name, ' +
  'balance, lifetime_points } }`, plus `{"event_count": "<event type>"}` (events of that type processed for the ' +
  'participant, this one included). The `method` operation is not available. An unknown operation is a 422.';

export const flowsOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v1/flows',
    operationId: 'createFlow',
    tag: TAG,
    summary: 'Create a flow',
    description: FLOW_DESCRIPTION,
    auth: 'flows:write',
    body: { schema: createFlowInput },
    success: { status: '201', description: 'Created.', schema: flow },
  },
  {
    method: 'get',
    path: '/v1/flows',
    operationId: 'listFlows',
    tag: TAG,
    summary: 'List flows',
    auth: 'flows:read',
    params: { query: listFlowsInput },
    success: {
      status: '200',
      description: 'A page of flows, newest first.',
      schema: paginated(flow, 'Flow'),
    },
  },
  {
    method: 'get',
    path: '/v1/flows/{id}',
    operationId: 'getFlow',
    tag: TAG,
    summary: 'Show a flow',
    auth: 'flows:read',
    params: { path: idParam('flow') },
    success: { status: '200', description: 'The flow.', schema: flow },
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/flows/{id}',
    operationId: 'updateFlow',
    tag: TAG,
    summary: 'Change a flow',
    description:
      'Replaces the given fields. Events processed later use the new definition; recorded runs keep their steps.',
    auth: 'flows:write',
    params: { path: idParam('flow') },
    body: { schema: updateFlowInput },
    success: { status: '200', description: 'The flow.', schema: flow },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/flows/{id}',
    operationId: 'deleteFlow',
    tag: TAG,
    summary: 'Delete a flow',
    description: 'It stops matching at once; its runs stay readable.',
    auth: 'flows:write',
    params: { path: idParam('flow') },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/flow-runs',
    operationId: 'listFlowRuns',
    tag: TAG,
    summary: 'List flow runs',
    description: 'Newest first; filter by `flow_id`, `participant` (external id), `event_id` and `status`.',
    auth: 'flows:read',
    params: { query: listFlowRunsInput },
    success: { status: '200', description: 'A page of flow runs.', schema: paginated(flowRun, 'FlowRun') },
  },
  {
    method: 'get',
    path: '/v1/flow-runs/{id}',
    operationId: 'getFlowRun',
    tag: TAG,
    summary: 'Show a flow run',
    auth: 'flows:read',
    params: { path: idParam('flow run') },
    success: { status: '200', description: 'The flow run with its steps.', schema: flowRun },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/badges',
    operationId: 'listBadges',
    tag: TAG,
    summary: 'The badge catalogue',
    description: 'Any valid key. Badges defined here or created by a flow’s first award, by key.',
    auth: 'key',
    success: {
      status: '200',
      description: 'Every badge of the workspace and mode.',
      schema: z.object({ data: z.array(badge) }).meta({ id: 'BadgeList' }),
    },
  },
  {
    method: 'post',
    path: '/v1/badges',
    operationId: 'defineBadge',
    tag: TAG,
    summary: 'Define a badge',
    description:
      'Creates the badge (201), or redefines an existing key (200: name, description, image and tiers replaced).',
    auth: 'flows:write',
    body: { schema: defineBadgeInput },
    success: { status: '201', description: 'Defined.', schema: badge },
  },
];
