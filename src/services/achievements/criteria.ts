import { z } from 'zod';
import { storableJson, text } from '../../lib/primitives.ts';
import { EVENT_TYPE_PATTERN, LIMITS } from '../events/event-input.ts';
import { instantOf, parseDuration, subtractDuration } from '../points/rules.ts';
import { whereProblem } from './where-sql.ts';

/** Column length of `participant_badges.tier` (badges/manage-badges.ts TIER_LENGTH). */
const TIER_LENGTH = 64;
/** The largest target: far beyond any real count, well inside numeric and a double's exact integers. */
const MAX_TARGET = 1e15;

const ALL_TIME = 'all_time';

/** `all_time`, or a positive ISO 8601 duration Temporal can subtract from any instant we store. */
const windowShape = z
  .string()
  .max(64)
  .refine(
    (w) => w === ALL_TIME || windowWorks(w),
    'must be "all_time" or a positive ISO 8601 duration, e.g. P30D',
  )
  .meta({ examples: ['all_time', 'P30D'] });

function windowWorks(w: string): boolean {
  if (!parseDuration(w)) return false;
  try {
    // A duration too long for the calendar (P999999Y) would throw on every event: refuse it now.
    return windowStart({ window: w }, new Date()) !== null;
  } catch {
    return false;
  }
}

/** A payload path for `sum`: segments split by dots, none empty (`amount`, `order.total`). */
const fieldShape = text(500, { min: 1 })
  .refine((f) => f.split('.').every((s) => s !== ''), 'a payload path such as "amount" or "order.total"')
  .meta({ examples: ['amount'] });

/**
 * An achievement's criteria (docs/engagement.md#achievements), as `POST /v1/badges` takes them:
 * `field` only and always with `sum`, an integer target for `count`, `where` in the subset
 * where-sql.ts compiles. `tier` (one of the badge's tiers) is checked with the badge.
 */
export const criteriaInput = z
  .strictObject({
    event_type: text(LIMITS.eventTypeLength, { min: 1 })
      .refine(
        (s) => s === '' || EVENT_TYPE_PATTERN.test(s),
        'letters, digits and . _ : - only, e.g. "order.completed"',
      )
      .meta({ description: 'The event type counted.', examples: ['order.completed'] }),
    aggregate: z.enum(['count', 'sum']).meta({
      description: '`count`: the events; `sum`: their numeric payload `field` (non-numbers count 0).',
    }),
    field: fieldShape.optional().meta({
      description: 'The payload path summed (`sum` only), dots splitting it: "amount", "order.total".',
    }),
    window: windowShape.meta({
      description:
        '`all_time`, or an ISO 8601 duration: only events whose `occurred_at` lies in that long a time ' +
        'ending at the event being processed (at now, for progress) count.',
    }),
    target: z
      .number()
      .positive()
      .max(MAX_TARGET)
      .meta({ description: 'The progress that completes the achievement (an integer for `count`).' }),
    where: storableJson(z.unknown())
      .optional()
      .meta({
        description:
          'JSON Logic over the event: `var` of `payload.<path>` or `event.type`, constants, `==`, `===`, `!=`, ' +
          '`!==` (exact JSON equality), `<`, `<=`, `>`, `>=` (numbers only), `and`, `or`, `!`, `in` (a list of ' +
          'constants). Only matching events count.',
      }),
    tier: text(TIER_LENGTH, { min: 1 }).optional().meta({
      description: 'The tier awarded (one of the badge’s tiers); absent: the badge without a tier.',
    }),
  })
  .superRefine((c, ctx) => {
    if (c.aggregate === 'sum' && c.field === undefined)
      ctx.addIssue({ code: 'custom', path: ['field'], message: 'required when aggregate is "sum"' });
    if (c.aggregate === 'count' && c.field !== undefined)
      ctx.addIssue({ code: 'custom', path: ['field'], message: 'only with aggregate "sum"' });
    if (c.aggregate === 'count' && !Number.isInteger(c.target))
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: 'must be an integer when aggregate is "count"',
      });
    if (c.where !== undefined) {
      const problem = whereProblem(c.where);
      if (problem)
        ctx.addIssue({ code: 'custom', path: ['where', ...problem.path], message: problem.message });
    }
  })
  .meta({ id: 'AchievementCriteriaInput' });
export type CriteriaInput = z.output<typeof criteriaInput>;

/** Criteria as stored on `badges.criteria` and shown on a badge: every key present. */
export const criteriaShape = z
  .object({
    event_type: z.string(),
    aggregate: z.enum(['count', 'sum']),
    field: z.string().nullable().meta({ description: 'The payload path summed; null for `count`.' }),
    window: z.string().meta({ description: '`all_time` or an ISO 8601 duration.' }),
    target: z.number(),
    where: z.unknown().meta({ description: 'JSON Logic over the event; null: every event of the type.' }),
    tier: z.string().nullable().meta({ description: 'The tier awarded; null: the badge without a tier.' }),
  })
  .meta({ id: 'AchievementCriteria' });
export type Criteria = z.output<typeof criteriaShape>;

/** The stored form of validated criteria. */
export const storedCriteria = (c: CriteriaInput): Criteria => ({
  event_type: c.event_type,
  aggregate: c.aggregate,
  field: c.field ?? null,
  window: c.window,
  target: c.target,
  where: c.where ?? null,
  tier: c.tier ?? null,
});

/** Criteria as read from `badges.criteria` (written by {@link storedCriteria}); null when absent. */
export function criteriaOf(stored: unknown): Criteria | null {
  if (!stored || typeof stored !== 'object') return null;
  const c = stored as Partial<Criteria>;
  return {
    event_type: String(c.event_type),
    aggregate: c.aggregate === 'sum' ? 'sum' : 'count',
    field: c.field ?? null,
    window: c.window ?? ALL_TIME,
    target: Number(c.target),
    where: c.where ?? null,
    tier: c.tier ?? null,
  };
}

/**
 * Where the window ending at `end` starts (exclusive); null for `all_time`. Counted in UTC, as
 * the windowed `event_count` of flow conditions is (docs/engagement.md#time-windows).
 */
export function windowStart(c: Pick<Criteria, 'window'>, end: Date): Date | null {
  if (c.window === ALL_TIME) return null;
  return new Date(subtractDuration(instantOf(end), c.window, 'UTC').epochMilliseconds);
}

/**
 * True when progress can only grow with time (a count over all time): its greatest value is the
 * one at the latest event, so the engine computes only that one per participant.
 */
export const growsOnly = (c: Criteria) => c.aggregate === 'count' && c.window === ALL_TIME;

/** The tier as `participant_badges` stores it ('' for none). */
export const tierOf = (c: Criteria) => c.tier ?? '';
