import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';
import { eventBody } from '../events/event-input.ts';
import { createFlowInput } from '../flows/flow-schemas.ts';

/** `POST /v1/events/simulate` (docs/api.md#simulation). */
export const simulateInput = z
  .strictObject({
    event: eventBody.meta({
      description:
        'The event, as `POST /v1/events` takes it (shorthand included). Its `idempotency_key` is ignored: ' +
        'nothing is stored, so a simulation is never a duplicate.',
    }),
    flow: createFlowInput.optional().meta({
      description:
        'An unsaved flow, as `POST /v1/flows` takes it, evaluated as if saved and active (after the saved ' +
        "flows of the event's type); its `event_type` must be the event's.",
    }),
  })
  .meta({ id: 'SimulateEventInput' });
export type SimulateInput = z.output<typeof simulateInput>;

const points = (description: string) => z.int().min(0).meta({ description });

/** What one action of a flow would do. */
export const simulatedActionShape = z
  .object({
    type: z.enum(['award_points', 'award_badge', 'send_message']),
    status: z.enum(['completed', 'skipped', 'capped', 'failed', 'not_run']).meta({
      description:
        'As the flow run would record the step (`capped`: an earning cap left nothing); `not_run`: an earlier ' +
        'step failed.',
    }),
    points: points(
      'award_points: the points credited, or held pending, after multipliers and caps (0 when skipped or capped).',
    ).optional(),
    capped_points: points('award_points: the part an earning cap cut (0 when none did).').optional(),
    pending: z
      .boolean()
      .optional()
      .meta({ description: 'award_points: the points would wait in a pending grant, not be spendable yet.' }),
    available_at: timestamp('award_points, pending: when the grant would become spendable.').optional(),
    badge: z.string().optional().meta({ description: 'award_badge: the badge key.' }),
    tier: z.string().nullable().optional().meta({ description: 'award_badge: the badge tier, or null.' }),
    template: z
      .string()
      .optional()
      .meta({ description: 'send_message: the template key (the message is rendered, never sent).' }),
    error: z.string().optional().meta({ description: 'Why the step would fail.' }),
  })
  .meta({ id: 'SimulatedAction' });
export type SimulatedAction = z.output<typeof simulatedActionShape>;

/** What one flow of the event's type would do. */
export const simulatedFlowShape = z
  .object({
    flow_id: z
      .string()
      .nullable()
      .meta({ format: 'uuid', description: 'The saved flow; null for the unsaved `flow` of the request.' }),
    name: z.string(),
    matched: z.boolean().meta({
      description:
        'Whether the flow would run: false when its conditions do not hold or its ' +
        '`max_runs_per_participant` is reached (then `actions` is empty).',
    }),
    actions: z.array(simulatedActionShape),
    error: z.string().optional().meta({ description: "Why the flow's conditions could not be evaluated." }),
  })
  .meta({ id: 'SimulatedFlow' });
export type SimulatedFlow = z.output<typeof simulatedFlowShape>;

/** The answer of `POST /v1/events/simulate`. */
export const simulationShape = z
  .object({
    status: z.enum(['processed', 'failed']).meta({
      description:
        'What processing would end in: `failed` when a step fails (the engine would retry the event, then ' +
        'store it as `failed`).',
    }),
    error: z.string().nullable().meta({ description: 'The failure, as the event would record it; null.' }),
    participant: z.object({
      external_id: z.string(),
      exists: z.boolean().meta({ description: 'False: the event would create the participant.' }),
    }),
    flows: z.array(simulatedFlowShape).meta({
      description: "Every active flow of the event's type in the order they run, then the unsaved `flow`.",
    }),
    badges: z.array(z.object({ key: z.string(), tier: z.string().nullable() })).meta({
      description:
        "Every badge the participant would receive: flows' awards, achievements reached, a referral's friend actions.",
    }),
    streaks: z
      .array(z.object({ key: z.string(), length: z.int().min(0) }))
      .meta({ description: "The participant's running streaks after the event, by key." }),
    tier: z
      .object({ from: z.string().nullable(), to: z.string().nullable() })
      .meta({ description: 'Level keys before and after the event; null without a tier programme.' }),
    balance: z
      .object({ before: z.int(), after: z.int() })
      .meta({ description: 'Spendable points before and after the event (pending points excluded).' }),
  })
  .meta({ id: 'Simulation' });
export type SimulationDto = z.output<typeof simulationShape>;
