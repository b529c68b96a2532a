import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';
import { inactivityTriggerShape } from '../inactivity/shapes.ts';
import { createFlowInput } from './flow-schemas.ts';

/**
 * A run's final statuses (docs/api.md#flows): the response enum, the `status` filter and the
 * entity's column share them.
 */
export const flowRunStatus = z.enum(['completed', 'failed', 'skipped']).meta({
  id: 'FlowRunStatus',
  description:
    '`completed`; `skipped` (every step skipped: points ≤ 0, badge already held, no address; or, with no ' +
    'steps, an idle spell whose conditions were not met or whose participant reached the run limit); `failed` ' +
    '(a step failed: retried with the event, resumed at that step; final once the event is `failed`).',
});
export const FLOW_RUN_STATUSES = flowRunStatus.options;
export type RunStatus = z.output<typeof flowRunStatus>;

/** A step's statuses: a run's, plus `pending` for steps not reached. */
const stepStatus = z.enum([...FLOW_RUN_STATUSES, 'pending', 'capped']).meta({
  description:
    '`pending`: not reached (an earlier step failed); `capped`: an award an earning cap cut to nothing (docs/points.md#earning-caps).',
});
export const STEP_STATUSES = stepStatus.options;
export type StepStatus = z.output<typeof stepStatus>;

/** A flow (docs/api.md#flows). */
export const flowShape = z
  .object({
    id: uuidV7('Flow id (UUIDv7).'),
    name: z.string(),
    event_type: z
      .string()
      .nullable()
      .meta({
        description: 'The event type that runs it; null for an inactivity flow.',
        examples: ['order.completed'],
      }),
    trigger: inactivityTriggerShape.nullable().meta({
      description: 'An inactivity flow’s trigger (docs/engagement.md#inactivity); null for an event flow.',
    }),
    conditions: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        'JSON Logic over `{ event, payload, participant }` plus `event_count`; null = always. An inactivity run sees `event: { type: "inactivity", occurred_at: <end of the idle spell> }` and an empty payload.',
    }),
    actions: createFlowInput.shape.actions,
    active: z.boolean(),
    max_runs_per_participant: z.int().nullable(),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Flow' });
export type FlowDto = z.output<typeof flowShape>;

const stepShape = z.object({
  action: z.string().meta({
    description:
      '`award_points`, `award_badge`, `send_message` (or `conditions` when they could not be evaluated).',
  }),
  status: stepStatus,
  result: z.record(z.string(), z.unknown()).nullable().meta({
    description:
      '`{ points, multiplier, entry_id }`, `{ badge, tier, already_held? }` or `{ message_id, status }`.',
  }),
  error: z.string().nullable(),
});

/** One run of a flow on one event (or one idle spell), with its steps (docs/api.md#flows). */
export const flowRunShape = z
  .object({
    id: uuidV7('Flow run id (UUIDv7); the `reference` of its ledger entries.'),
    flow_id: z.string().meta({ format: 'uuid' }),
    event_id: z.string().nullable().meta({
      format: 'uuid',
      description: 'The event that ran it; null for an inactivity run (docs/engagement.md#inactivity).',
    }),
    participant: z.object({ external_id: z.string() }),
    status: flowRunStatus,
    steps: z.array(stepShape),
    started_at: timestamp('When the run was first recorded.'),
    finished_at: timestamp(
      'When it reached its final status; null while a failed run may still be retried.',
    ).nullable(),
  })
  .meta({ id: 'FlowRun' });
export type FlowRunDto = z.output<typeof flowRunShape>;
