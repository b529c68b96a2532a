import { z } from 'zod';
import { uuidId } from '../lib/primitives.ts';
import { defineBadge, defineBadgeInput, listBadges } from '../services/badges/manage-badges.ts';
import { badgeListShape, badgeShape } from '../services/badges/shapes.ts';
import { createFlowInput, updateFlowInput } from '../services/flows/flow-schemas.ts';
import { getFlowRun, listFlowRuns, listFlowRunsInput } from '../services/flows/list-flow-runs.ts';
import {
  createFlow,
  deleteFlow,
  getFlow,
  listFlows,
  listFlowsInput,
  updateFlow,
} from '../services/flows/manage-flows.ts';
import { flowRunShape, flowShape } from '../services/flows/shapes.ts';
import { deleted, paginated } from './openapi-schemas.ts';
import { type Operation, operation, Reply } from './operation.ts';

const byFlowId = z.object({ id: uuidId('The flow id.') });
const byRunId = z.object({ id: uuidId('The flow run id.') });

const FLOW_DESCRIPTION =
  'Actions run in order: `award_points` (`points`: a positive integer or JSON Logic over the context, floored; ' +
  '≤ 0 skips the step; the active points multiplier applies), `award_badge` (`badge` key, optional `tier`; an ' +
  'undefined key is created; a key+tier is held once), `send_message` (`template` key). Conditions: JSON Logic ' +
  '(https://jsonlogic.com) over `{ event: { type, occurred_at }, payload, participant: { external_id, email, name, ' +
  'balance, lifetime_points } }`, plus `{"event_count": "<event type>"}` (events of that type processed for the ' +
  'participant, this one included). The `method` operation is not available. An unknown operation is a 422. ' +
  'Exactly one of `event_type` and `trigger`: `trigger: { type: "inactivity", after: <ISO 8601 duration>, ' +
  'event_types?: [..] }` runs the flow once for each participant with no event (of those types) for `after`, and ' +
  'again only after a new such event; its conditions see `event: { type: "inactivity", occurred_at: <end of the ' +
  'idle spell> }` and an empty payload (docs/engagement.md#inactivity).';

const F = 'Flows';

/** Flows and flow runs, and the badge catalogue (docs/api.md#flows). */
export const flowsOperations: Operation[] = [
  operation({
    method: 'post',
    path: '/v1/flows',
    operationId: 'createFlow',
    tag: F,
    summary: 'Create a flow',
    description: FLOW_DESCRIPTION,
    auth: 'flows:write',
    body: { schema: createFlowInput },
    success: { status: '201', description: 'Created.', schema: flowShape },
    handle: ({ ctx, who, body }) => createFlow(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/flows',
    operationId: 'listFlows',
    tag: F,
    summary: 'List flows',
    auth: 'flows:read',
    params: { query: listFlowsInput },
    success: {
      status: '200',
      description: 'A page of flows, newest first.',
      schema: paginated(flowShape, 'Flow'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listFlows(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/flows/{id}',
    operationId: 'getFlow',
    tag: F,
    summary: 'Show a flow',
    auth: 'flows:read',
    params: { path: byFlowId },
    success: { status: '200', description: 'The flow.', schema: flowShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getFlow(ctx, who, params.id),
  }),
  operation({
    method: 'patch',
    path: '/v1/flows/{id}',
    operationId: 'updateFlow',
    tag: F,
    summary: 'Change a flow',
    description:
      'Replaces the given fields. Events processed later use the new definition; recorded runs keep their steps.',
    auth: 'flows:write',
    params: { path: byFlowId },
    body: { schema: updateFlowInput },
    success: { status: '200', description: 'The flow.', schema: flowShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateFlow(ctx, who, params.id, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/flows/{id}',
    operationId: 'deleteFlow',
    tag: F,
    summary: 'Delete a flow',
    description: 'It stops matching at once; its runs stay readable.',
    auth: 'flows:write',
    params: { path: byFlowId },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => deleteFlow(ctx, who, params.id),
  }),
  operation({
    method: 'get',
    path: '/v1/flow-runs',
    operationId: 'listFlowRuns',
    tag: F,
    summary: 'List flow runs',
    description:
      'Newest first; filter by `flow_id`, `participant` (external id), `event_id` and `status`. An inactivity run has `event_id` null.',
    auth: 'flows:read',
    params: { query: listFlowRunsInput },
    success: {
      status: '200',
      description: 'A page of flow runs.',
      schema: paginated(flowRunShape, 'FlowRun'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listFlowRuns(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/flow-runs/{id}',
    operationId: 'getFlowRun',
    tag: F,
    summary: 'Show a flow run',
    auth: 'flows:read',
    params: { path: byRunId },
    success: { status: '200', description: 'The flow run with its steps.', schema: flowRunShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getFlowRun(ctx, who, params.id),
  }),
  operation({
    method: 'get',
    path: '/v1/badges',
    operationId: 'listBadges',
    tag: F,
    summary: 'The badge catalogue',
    description: 'Any valid key. Badges defined here or created by a flow’s first award, by key.',
    auth: 'key',
    success: {
      status: '200',
      description: 'Every badge of the workspace and mode.',
      schema: badgeListShape,
    },
    handle: async ({ ctx, who }) => ({ data: await listBadges(ctx, who) }),
  }),
  operation({
    method: 'post',
    path: '/v1/badges',
    operationId: 'defineBadge',
    tag: F,
    summary: 'Define a badge',
    description:
      'Creates the badge (201), or redefines an existing key (200: name, description, image and tiers replaced).',
    auth: 'flows:write',
    body: { schema: defineBadgeInput },
    success: { status: '201', description: 'Defined.', schema: badgeShape },
    otherSuccess: { '200': { description: 'Redefined: the key existed.', schema: badgeShape } },
    handle: async ({ ctx, who, body }) => {
      const { badge, created } = await defineBadge(ctx, who, body);
      return created ? badge : new Reply(200, badge);
    },
  }),
];
