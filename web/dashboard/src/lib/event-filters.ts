/** The events page's filter form ↔ the `events.list` input (pure; unit-tested). */
import { EVENT_STATUSES, type EventStatus } from '../../../../src/services/events/statuses.ts';

/** The service's event statuses, as the filter offers them. */
export const EVENT_STATUS_OPTIONS: readonly EventStatus[] = EVENT_STATUSES;
export type EventStatusOption = EventStatus;

export interface EventFilters {
  status: EventStatusOption | '';
  eventType: string;
  participant: string;
  /** A day (yyyy-mm-dd) from a date field, or ''. */
  since: string;
}

export const EMPTY_EVENT_FILTERS: EventFilters = { status: '', eventType: '', participant: '', since: '' };

/** Only the filters that are set, trimmed, in the service's field names. */
export function eventFiltersToInput(f: EventFilters): {
  status?: EventStatusOption;
  event_type?: string;
  participant?: string;
  since?: string;
} {
  const out: ReturnType<typeof eventFiltersToInput> = {};
  if (f.status) out.status = f.status;
  if (f.eventType.trim()) out.event_type = f.eventType.trim();
  if (f.participant.trim()) out.participant = f.participant.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(f.since.trim())) out.since = f.since.trim();
  return out;
}

/** The filters as URL search params (shareable links), and back. */
export function eventFiltersToSearch(f: EventFilters): string {
  const input = eventFiltersToInput(f);
  return new URLSearchParams(input as Record<string, string>).toString();
}

export function eventFiltersFromSearch(search: string): EventFilters {
  const p = new URLSearchParams(search);
  const status = p.get('status') ?? '';
  return {
    status: (EVENT_STATUSES as readonly string[]).includes(status) ? (status as EventStatus) : '',
    eventType: p.get('event_type') ?? '',
    participant: p.get('participant') ?? '',
    since: p.get('since') ?? '',
  };
}
