import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import type { Mode } from '../keys/principal.ts';
import type { ResultType } from '../outbox/emit.ts';
import type {
  AttemptDto,
  DeliveryDto,
  DeliveryStatus,
  DisabledReason,
  SubscriptionDto,
  SubscriptionStatus,
} from './shapes.ts';

export interface SubscriptionRow {
  id: string;
  mode: string;
  url: string;
  event_types: string[];
  headers: Record<string, string>;
  description: string | null;
  status: SubscriptionStatus;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const presentSubscription = (s: SubscriptionRow): SubscriptionDto => ({
  id: s.id,
  url: s.url,
  event_types: s.event_types as SubscriptionDto['event_types'],
  headers: s.headers,
  description: s.description,
  status: s.status,
  disabled_reason: s.status === 'disabled' ? s.disabled_reason : null,
  disabled_at: s.status === 'disabled' ? isoTimeOrNull(s.disabled_at) : null,
  mode: s.mode as Mode,
  created_at: isoTime(s.created_at),
  updated_at: isoTime(s.updated_at),
});

export interface DeliveryRow {
  id: string;
  subscription_id: string;
  outbox_id: string;
  type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export const presentDelivery = (d: DeliveryRow): DeliveryDto => ({
  id: d.id,
  subscription_id: d.subscription_id,
  result_id: d.outbox_id,
  type: d.type as ResultType,
  status: d.status,
  attempt_count: d.attempt_count,
  next_attempt_at: d.status === 'pending' ? isoTimeOrNull(d.next_attempt_at) : null,
  last_attempt_at: isoTimeOrNull(d.last_attempt_at),
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  created_at: isoTime(d.created_at),
  updated_at: isoTime(d.updated_at),
});

export interface AttemptRow {
  number: number;
  attempted_at: Date;
  status_code: number | null;
  response_snippet: string | null;
  duration_ms: number;
  error: string | null;
}

export const presentAttempt = (a: AttemptRow): AttemptDto => ({
  number: a.number,
  attempted_at: isoTime(a.attempted_at),
  status_code: a.status_code,
  response_snippet: a.response_snippet,
  duration_ms: a.duration_ms,
  error: a.error,
});
