// Apart from shapes.ts and free of imports, so the dashboard can take the list without zod or
// other domains' shapes in its first bundle.

/**
 * The stored event statuses (docs/guarantees.md#delivery-semantics-events-at-least-once-effects-exactly-once):
 * the response enum (`eventStatus` in shapes.ts), the `status` filter, the entity's column and
 * the dashboard's filter share them.
 */
export const EVENT_STATUSES = ['received', 'processed', 'failed', 'quarantined'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
