import { z } from 'zod';
import { storableJson, TEXT_LIMITS, text } from '../../lib/primitives.ts';
import { BADGE_KEY_LENGTH, TIER_LENGTH } from '../badges/manage-badges.ts';
import { LIMITS } from '../events/event-input.ts';
import { inactivityTrigger } from '../inactivity/shapes.ts';
import { TEMPLATE_KEY_LENGTH } from '../messages/template-input.ts';
import { earningCapShape, isoDuration } from '../points/shapes.ts';
import { logicProblem } from './logic.ts';

/** A JSON Logic expression: an object with one known operation (nested values checked too), storable as jsonb. */
const logic = storableJson(z.record(z.string(), z.unknown()))
  .superRefine((v, ctx) => {
    const problem = logicProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      'A JSON Logic expression (https://jsonlogic.com), plus `{"event_count": "<type>"}` or `[type, window]`, ' +
      '`{"event_sum": [type, path, window?]}` and `{"streak": "<key>"}` (docs/engagement.md#time-windows).',
  });

export const awardPointsAction = z.strictObject({
  type: z.literal('award_points'),
  /** A constant, or JSON Logic over the flow context (floored; ≤ 0 skips the step). */
  points: z.union([z.number().int().positive().max(1_000_000_000), logic]),
  reason: text(500).optional(),
  /** Overrides the programme's `pending_for` for this award (docs/points.md#pending-points). */
  pending_for: isoDuration.optional(),
  /** A cap of this action's own, counted per participant (docs/points.md#earning-caps). */
  cap: earningCapShape.optional(),
});

export const awardBadgeAction = z.strictObject({
  type: z.literal('award_badge'),
  badge: text(BADGE_KEY_LENGTH, { min: 1 }),
  tier: text(TIER_LENGTH, { min: 1 }).optional(),
});

export const sendMessageAction = z.strictObject({
  type: z.literal('send_message'),
  template: text(TEMPLATE_KEY_LENGTH, { min: 1 }),
});

export const flowAction = z.discriminatedUnion('type', [
  awardPointsAction,
  awardBadgeAction,
  sendMessageAction,
]);
export type FlowAction = z.infer<typeof flowAction>;

const flowFields = {
  name: text(TEXT_LIMITS.name).trim().min(1),
  /** The event type that runs it; an inactivity flow has `trigger` instead. */
  event_type: text(LIMITS.eventTypeLength).trim().min(1),
  /** An inactivity flow's trigger (docs/engagement.md#inactivity), instead of `event_type`. */
  trigger: inactivityTrigger,
  /** JSON Logic over `{ event, payload, participant }`; null or absent = always. */
  conditions: logic.nullable().optional(),
  actions: z.array(flowAction).min(1).max(20),
  active: z.boolean().optional(),
  max_runs_per_participant: z.number().int().positive().nullable().optional(),
};

const ONE_TRIGGER = 'send exactly one of event_type and trigger';
const BOTH = 'send either event_type or trigger, not both';

export const createFlowInput = z
  .strictObject({
    ...flowFields,
    event_type: flowFields.event_type.optional(),
    trigger: flowFields.trigger.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.event_type === undefined && v.trigger === undefined)
      ctx.addIssue({ code: 'custom', path: ['event_type'], message: ONE_TRIGGER });
    else if (v.event_type !== undefined && v.trigger !== undefined)
      ctx.addIssue({ code: 'custom', path: ['trigger'], message: BOTH });
  })
  .meta({ id: 'FlowInput' });
export type CreateFlowInput = z.output<typeof createFlowInput>;

/** A change: giving `event_type` makes an inactivity flow an event flow, giving `trigger` the reverse. */
export const updateFlowInput = z
  .strictObject({
    name: flowFields.name.optional(),
    event_type: flowFields.event_type.optional(),
    trigger: flowFields.trigger.optional(),
    conditions: flowFields.conditions,
    actions: flowFields.actions.optional(),
    active: flowFields.active,
    max_runs_per_participant: flowFields.max_runs_per_participant,
  })
  .superRefine((v, ctx) => {
    if (v.event_type !== undefined && v.trigger !== undefined)
      ctx.addIssue({ code: 'custom', path: ['trigger'], message: BOTH });
  })
  .meta({ id: 'FlowUpdate' });
export type UpdateFlowInput = z.output<typeof updateFlowInput>;
