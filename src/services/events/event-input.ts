import { z } from 'zod';
import { findUnstorable } from '../../lib/json-guard.ts';
import { timezoneShape } from '../participants/timezone.ts';
import { parseInput } from '../validation.ts';

/** Documented ingest limits (docs/api.md#event-ingest-rules); anything longer is a 422, never truncated. */
export const LIMITS = {
  eventTypeLength: 128,
  externalIdLength: 255,
  idempotencyKeyLength: 255,
  emailLength: 320,
  phoneLength: 64,
  nameLength: 200,
  referralCodeLength: 64,
} as const;

export const EVENT_TYPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export const eventType = z
  .string()
  .max(LIMITS.eventTypeLength)
  .refine(
    (s) => s === '' || EVENT_TYPE_PATTERN.test(s),
    'letters, digits and . _ : - only, e.g. "order.completed"',
  );

const participantObject = z.strictObject({
  external_id: z.string().max(LIMITS.externalIdLength).nullish(),
  email: z.string().max(LIMITS.emailLength).nullish(),
  phone: z.string().max(LIMITS.phoneLength).nullish(),
  name: z.string().max(LIMITS.nameLength).nullish(),
  timezone: timezoneShape.nullish(),
  /** An advocate's code: attributes this participant to them when this event creates them (docs/referrals.md#attribution). */
  referral_code: z.string().max(LIMITS.referralCodeLength).nullish(),
});

/** The event body, with its shorthand (`type`, string `participant`): docs/api.md#event-ingest-rules. */
export const eventBody = z
  .strictObject({
    event_type: eventType.nullish(),
    type: eventType.nullish(),
    participant: z.union([z.string().max(LIMITS.externalIdLength), participantObject]).nullish(),
    payload: z.record(z.string(), z.unknown()).nullish(),
    occurred_at: z.unknown().optional().meta({
      description: 'ISO 8601 timestamp; defaults to now, and an unparseable value falls back to now.',
    }),
    idempotency_key: z.string().min(1).max(LIMITS.idempotencyKeyLength).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.event_type && body.type && body.event_type !== body.type) {
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: 'conflicts with event_type; send one of them',
      });
    }
    const problem = findUnstorable(body);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
  });

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z.string().min(1).max(LIMITS.idempotencyKeyLength),
});

export type EventBody = z.output<typeof eventBody>;

/**
 * The REST ingest doors' request, validated: their body reaches them unparsed (`POST /v1/events`
 * is served on bare node:http, and a signed body is checked only after its signature), so it is
 * parsed here, header first, with the same schemas the OpenAPI document declares.
 */
export function parseEventRequest(
  body: unknown,
  headerKey: string | undefined,
): { body: EventBody; headerKey: string | null } {
  const key =
    headerKey == null
      ? null
      : parseInput(idempotencyKeyHeader, { 'Idempotency-Key': headerKey })['Idempotency-Key'];
  return { body: parseInput(eventBody, body), headerKey: key };
}

export interface NormalisedEvent {
  eventType: string | null;
  externalId: string | null;
  email: string | null;
  phone: string | null;
  name: string | null;
  /** The participant's IANA time zone when the event names one (it replaces theirs). */
  timezone: string | null;
  /** The advocate's referral code the participant object carried (docs/referrals.md#attribution). */
  referralCode: string | null;
  payload: Record<string, unknown>;
  occurredAt: Date;
  idempotencyKey: string | null;
}

/** Applies the shorthand, the endpoint's default type and the "unparseable occurred_at → now" rule. */
export function normaliseEvent(
  body: EventBody,
  opts: { defaultEventType?: string | null; headerKey?: string | null },
): NormalisedEvent {
  const participant =
    typeof body.participant === 'string' ? { external_id: body.participant } : (body.participant ?? {});
  const blank = (s: string | null | undefined) =>
    s === undefined || s === null || s.trim() === '' ? null : s;
  return {
    eventType: blank(body.event_type) ?? blank(body.type) ?? opts.defaultEventType ?? null,
    externalId: blank(participant.external_id),
    email: blank('email' in participant ? participant.email : null),
    phone: blank('phone' in participant ? participant.phone : null),
    name: blank('name' in participant ? participant.name : null),
    timezone: blank('timezone' in participant ? participant.timezone : null),
    referralCode:
      blank('referral_code' in participant ? participant.referral_code : null)
        ?.trim()
        .toUpperCase() ?? null,
    payload: body.payload ?? {},
    occurredAt: parseTimestamp(body.occurred_at) ?? new Date(),
    idempotencyKey: opts.headerKey ?? body.idempotency_key ?? null,
  };
}

function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const d = new Date(value);
  const t = d.getTime();
  // Postgres timestamptz covers 4713 BC .. 294276 AD; stay well inside it.
  return Number.isFinite(t) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999 ? d : null;
}

/** Why an event is kept but never processed (docs/api.md#event-ingest-rules), or null for a normal event. */
export function quarantineReason(e: NormalisedEvent): string | null {
  if (!e.eventType) return 'missing event_type (and the ingest endpoint has no default event type)';
  if (!e.externalId) return 'missing participant.external_id';
  return null;
}
