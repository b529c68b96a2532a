import { z } from 'zod';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';
import { isoDuration } from '../points/shapes.ts';

/** The event type an inactivity run's context names (`event.type`): there is no event. */
export const INACTIVITY = 'inactivity';

/**
 * An inactivity flow's trigger (docs/engagement.md#inactivity): the flow runs once for each
 * participant who has had no event (of `event_types`, or of any type) for `after`, and again
 * only after a new such event.
 */
export const inactivityTrigger = z
  .strictObject({
    type: z.literal(INACTIVITY),
    after: isoDuration.meta({
      description: 'How long without an event before the flow runs, e.g. P30D or PT12H.',
      examples: ['P30D'],
    }),
    event_types: z
      .array(text(LIMITS.eventTypeLength).trim().min(1))
      .min(1)
      .max(50)
      .optional()
      .meta({ description: 'The event types that count as activity; absent: every type.' }),
  })
  .meta({ id: 'InactivityTrigger' });
export type InactivityTrigger = z.output<typeof inactivityTrigger>;

/** The trigger as a flow shows it: `event_types` null when every type counts. */
export const inactivityTriggerShape = z
  .object({
    type: z.literal(INACTIVITY),
    after: z.string().meta({ examples: ['P30D'] }),
    event_types: z.array(z.string()).nullable(),
  })
  .meta({
    id: 'FlowTrigger',
    description:
      'An inactivity flow: it runs once for each participant with no event (of `event_types`; null: any) for `after`.',
  });
export type InactivityTriggerDto = z.output<typeof inactivityTriggerShape>;

/** A stored trigger (`flows.trigger`) as the flow shows it; null for an event flow. */
export function presentTrigger(
  stored: Record<string, unknown> | null | undefined,
): InactivityTriggerDto | null {
  if (!stored) return null;
  const types = stored.event_types;
  return {
    type: INACTIVITY,
    after: String(stored.after),
    event_types: Array.isArray(types) ? types.map(String) : null,
  };
}
