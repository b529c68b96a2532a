import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Flow = inferRouterOutputs<AppRouter>['flows']['get'];
export type FlowTrigger = NonNullable<Flow['trigger']>;

/** What runs a flow: an event of one type, or a participant's inactivity (docs/engagement.md#inactivity). */
export type TriggerKind = 'event' | 'inactivity';

/** The "When" part of the flow form. */
export interface TriggerDraft {
  kind: TriggerKind;
  eventType: string;
  after: string;
  /** The event types that count as activity; empty: any event. */
  activityTypes: string[];
}

export const triggerDraftOf = (f?: Pick<Flow, 'event_type' | 'trigger'>): TriggerDraft => ({
  kind: f?.trigger ? 'inactivity' : 'event',
  eventType: f?.event_type ?? '',
  after: f?.trigger?.after ?? '',
  activityTypes: f?.trigger?.event_types ? [...f.trigger.event_types] : [],
});

/**
 * The draft as the flows procedures take it: `event_type`, or `trigger` (the one the form
 * shows; the other is left out, which on a change turns one kind of flow into the other).
 */
export function triggerBody(
  d: TriggerDraft,
): { event_type: string } | { trigger: { type: 'inactivity'; after: string; event_types?: string[] } } {
  if (d.kind === 'event') return { event_type: d.eventType };
  return {
    trigger: {
      type: 'inactivity',
      after: d.after.trim(),
      ...(d.activityTypes.length ? { event_types: d.activityTypes } : {}),
    },
  };
}

/** The form's own check: the one required input of the chosen kind, by the service's field names. */
export function triggerErrors(d: TriggerDraft): Record<string, string> {
  if (d.kind === 'event') return d.eventType.trim() ? {} : { event_type: 'Required' };
  return d.after.trim() ? {} : { 'trigger.after': 'Required' };
}

/** What runs the flow, in words: "order.completed events", "30 days without any event", "P2W without order.completed or visit". */
export function describeTrigger(f: Pick<Flow, 'event_type' | 'trigger'>): string {
  if (!f.trigger) return `${f.event_type ?? '?'} events`;
  const types = f.trigger.event_types;
  return `${f.trigger.after} without ${types?.length ? types.join(' or ') : 'any event'}`;
}

/**
 * The service's field errors by the input that shows them: `trigger.after` and
 * `trigger.event_types(.n)` on their own inputs, anything else under `trigger` on the choice.
 */
export function triggerFieldOf(field: string): string | null {
  if (field === 'trigger.after') return 'trigger.after';
  if (field === 'trigger.event_types' || field.startsWith('trigger.event_types.'))
    return 'trigger.event_types';
  if (field === 'trigger' || field.startsWith('trigger.')) return 'trigger';
  return null;
}
