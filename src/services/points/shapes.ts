import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';
import { isTimeZone, parseDuration } from './rules.ts';

/** An ISO 8601 duration (`P12M`, `P30D`, `P2W`, `PT30S`), positive. */
export const isoDuration = z
  .string()
  .max(64)
  .refine((s) => parseDuration(s) !== null, 'must be a positive ISO 8601 duration, e.g. P12M, P30D or PT30S')
  .meta({ examples: ['P12M'] });

export const timeZoneName = z
  .string()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone name, e.g. Europe/Paris')
  .meta({ examples: ['Europe/Paris'] });

export const capPeriod = z.enum(['day', 'week', 'month', 'year']);

export const pointsExpiryShape = z
  .strictObject({
    mode: z.enum(['fixed', 'activity']).meta({
      description:
        '`fixed`: each credit expires `after` its credit time, rounded up by `round_to`. `activity`: all ' +
        'unspent points expire `after` the last credit from a flow or a positive adjustment.',
    }),
    after: isoDuration,
    round_to: z
      .enum(['none', 'day', 'month', 'quarter', 'year'])
      .default('none')
      .meta({ description: 'Rounds a `fixed` expiry up to the end of its day, month, quarter or year.' }),
  })
  .meta({ id: 'PointsExpiry' });

export const earningCapShape = z
  .strictObject({
    period: capPeriod.meta({
      description: 'A calendar period in the programme’s time zone; weeks start Monday.',
    }),
    max_points: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  })
  .meta({ id: 'EarningCap' });

const uniquePeriods = (caps: { period: string }[]) => new Set(caps.map((c) => c.period)).size === caps.length;

/** The programme settings as stored and shown (docs/points.md#programme-settings). */
export const programShape = z
  .object({
    timezone: timeZoneName.meta({ description: 'Calendar boundaries (rounding, caps) are taken in it.' }),
    points_expiry: pointsExpiryShape.nullable().meta({ description: 'Null: points never expire.' }),
    expiry_notice: isoDuration.meta({
      description: 'How long before a lot expires `points.expiring` fires.',
    }),
    pending_for: isoDuration
      .nullable()
      .meta({ description: 'How long flow-awarded points wait before they can be spent; null: at once.' }),
    earning_caps: z
      .array(earningCapShape)
      .max(4)
      .refine(uniquePeriods, 'one cap per period')
      .meta({ description: 'The most a participant can earn from flows per calendar period.' }),
  })
  .meta({ id: 'Program' });
export type ProgramSettings = z.output<typeof programShape>;

export const DEFAULT_PROGRAM: ProgramSettings = {
  timezone: 'UTC',
  points_expiry: null,
  expiry_notice: 'P14D',
  pending_for: null,
  earning_caps: [],
};

/** `PATCH /v1/program`: the fields to replace (null clears the nullable ones). */
export const updateProgramInput = programShape.partial().strict().meta({ id: 'ProgramUpdate' });

/** An open lot: points a credit brought that are not spent or expired yet. */
export const lotShape = z
  .object({
    entry_id: z.int().meta({ description: 'The ledger entry that opened it.' }),
    points: z.int().min(1).meta({ description: 'What it opened with.' }),
    remaining: z.int().min(0),
    expires_at: timestamp('When what remains expires; null: never.').nullable(),
  })
  .meta({ id: 'PointLot' });
export type LotDto = z.output<typeof lotShape>;

export const nextExpiryShape = z
  .object({ points: z.int().min(1), expires_at: timestamp('The soonest expiry of open points.') })
  .meta({ id: 'NextExpiry' });
export type NextExpiryDto = z.output<typeof nextExpiryShape>;

/** `GET /v1/participants/{external_id}/points`. */
export const pointsViewShape = z
  .object({
    balance: z.int().min(0),
    pending_points: z.int().min(0),
    lots: z.array(lotShape).meta({ description: 'Open lots, soonest expiry first (never-expiring last).' }),
    expiring: z
      .array(z.object({ expires_at: timestamp('An expiry instant.'), points: z.int().min(1) }))
      .meta({ description: 'Open points grouped by expiry instant, the next 12.' }),
  })
  .meta({ id: 'ParticipantPoints' });
export type PointsViewDto = z.output<typeof pointsViewShape>;

export const pendingStatus = z.enum(['pending', 'activated', 'cancelled']);
export type PendingStatus = z.output<typeof pendingStatus>;

/** Flow-awarded points waiting for `available_at` before they can be spent. */
export const pendingGrantShape = z
  .object({
    id: uuidV7('The grant’s id.'),
    participant: z.object({ external_id: z.string() }),
    points: z.int().min(1),
    available_at: timestamp('When it becomes spendable.'),
    status: pendingStatus,
    event_id: z.string().nullable(),
    flow_run_id: z.string().nullable(),
    entry_id: z.int().nullable().meta({ description: 'The credit its activation posted.' }),
    created_at: timestamp('When it was granted.'),
  })
  .meta({ id: 'PendingGrant' });
export type PendingGrantDto = z.output<typeof pendingGrantShape>;

/** The `data` of a `points.expiring` result. */
export const pointsExpiringShape = z.object({
  participant: z.object({ external_id: z.string() }),
  points: z.int().min(1),
  expires_at: z.string(),
  balance: z.int().min(0),
});
export type PointsExpiringData = z.output<typeof pointsExpiringShape>;
