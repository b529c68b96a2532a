import { z } from 'zod';
import { text } from '../../lib/primitives.ts';
import { timestamp } from '../../lib/shapes.ts';
import { isoDuration } from '../points/shapes.ts';

// The tier programme and what it shows (docs/tiers.md). Every input is strict: an unknown key is a
// 422 naming it, nested ones included.

export const tierWindow = z.enum(['lifetime', 'rolling', 'calendar']);
export type TierWindow = z.output<typeof tierWindow>;
export const tierPeriod = z.enum(['month', 'quarter', 'year']);
export type TierPeriod = z.output<typeof tierPeriod>;
export const downgradePolicy = z.enum(['none', 'one_down', 'to_qualified']);
export const tierReason = z.enum(['qualified', 'downgrade', 'manual', 'programme_change']);
export type TierReason = z.output<typeof tierReason>;

export const tierKey = text(64, { min: 1 }).regex(
  /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/,
  'letters, digits and . _ : - only, e.g. "gold"',
);

export const tierLevelShape = z
  .strictObject({
    key: tierKey,
    name: text(200).trim().min(1),
    threshold: z
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .meta({ description: 'Qualifying points that reach the level; the first level’s is 0.' }),
    earn_multiplier: z.number().min(1).max(10).multipleOf(0.01).default(1).meta({
      description: 'Multiplies flow awards while at this level (1–10, two decimals; rounded down).',
    }),
    description: text(2000).nullable().default(null),
  })
  .meta({ id: 'TierLevel' });
export type TierLevel = z.output<typeof tierLevelShape>;

const qualificationShape = z
  .strictObject({
    window: tierWindow.meta({
      description:
        '`lifetime`: every qualifying point ever. `rolling`: those of the last `duration`. `calendar`: those of ' +
        'the current `period` in the programme’s time zone.',
    }),
    duration: isoDuration.optional().meta({ description: '`rolling` only: the window’s length, e.g. P12M.' }),
    period: tierPeriod.optional().meta({ description: '`calendar` only.' }),
  })
  .superRefine((q, ctx) => {
    const extra = (field: 'duration' | 'period') =>
      ctx.addIssue({ code: 'custom', path: [field], message: `not allowed with window "${q.window}"` });
    const missing = (field: 'duration' | 'period') =>
      ctx.addIssue({ code: 'custom', path: [field], message: `required with window "${q.window}"` });
    if (q.window === 'rolling' && !q.duration) missing('duration');
    if (q.window === 'calendar' && !q.period) missing('period');
    if (q.window !== 'rolling' && q.duration) extra('duration');
    if (q.window !== 'calendar' && q.period) extra('period');
  });

const downgradeShape = z.strictObject({
  policy: downgradePolicy.meta({
    description:
      '`none`: never. `one_down`: one level per evaluation. `to_qualified`: to the level the window supports.',
  }),
  grace: isoDuration
    .optional()
    .meta({ description: 'How long a participant below their level’s threshold keeps it. Default: none.' }),
});

/** `PUT /v1/tiers` and `POST /v1/tiers/preview`. */
export const tierProgrammeShape = z
  .strictObject({
    qualification: qualificationShape,
    downgrade: downgradeShape,
    levels: z
      .array(tierLevelShape)
      .min(1)
      .max(20)
      .superRefine((levels, ctx) => {
        if (levels[0] && levels[0].threshold !== 0)
          ctx.addIssue({
            code: 'custom',
            path: [0, 'threshold'],
            message: 'the first level’s threshold is 0',
          });
        const keys = new Set<string>();
        levels.forEach((l, i) => {
          if (keys.has(l.key))
            ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `"${l.key}" is repeated` });
          keys.add(l.key);
          if (i > 0 && l.threshold <= levels[i - 1]!.threshold)
            ctx.addIssue({
              code: 'custom',
              path: [i, 'threshold'],
              message: 'thresholds strictly increase, level by level',
            });
        });
      })
      .meta({ description: 'Ordered by threshold; everyone starts at the first.' }),
  })
  .meta({ id: 'TierProgramme' });
export type TierProgramme = z.output<typeof tierProgrammeShape>;

const levelRef = z.object({ key: z.string(), name: z.string() }).meta({ id: 'TierRef' });

/** A participant's `tier` (docs/tiers.md#reads). */
export const participantTierShape = z
  .object({
    key: z.string(),
    name: z.string(),
    since: timestamp('When they reached this level.'),
    qualifying_points: z.int().min(0).meta({ description: 'Qualifying points in the current window.' }),
    next: z
      .object({
        key: z.string(),
        name: z.string(),
        points_needed: z.int().min(0).meta({
          description: '0 when their qualifying points already reach it (a level set by hand below them).',
        }),
      })
      .nullable()
      .meta({ description: 'The level above and the qualifying points it still needs; null at the top.' }),
    retain: z
      .object({
        points_needed: z.int().min(0),
        by: timestamp('When the level is next evaluated for a downgrade.'),
      })
      .nullable()
      .meta({
        description:
          'What keeping this level needs by its next evaluation; null when it cannot be lost (the first level, ' +
          'a `lifetime` window, policy `none`).',
      }),
  })
  .meta({ id: 'ParticipantTier' });
export type ParticipantTierDto = z.output<typeof participantTierShape>;

/** One move of `GET /v1/participants/{external_id}/tier-history`. */
export const tierMoveShape = z
  .object({
    id: z.string(),
    from: levelRef.nullable(),
    to: levelRef.nullable(),
    reason: tierReason,
    note: z.string().nullable().meta({ description: 'The operator’s note of a manual move.' }),
    qualifying_points: z.int().min(0),
    at: timestamp('When it happened.'),
  })
  .meta({ id: 'TierMove' });
export type TierMoveDto = z.output<typeof tierMoveShape>;

/** The `data` of a `tier.changed` result. */
export const tierChangedShape = z
  .object({
    participant: z.object({ external_id: z.string() }),
    from: levelRef.nullable(),
    to: levelRef.nullable(),
    reason: tierReason,
    qualifying_points: z.int().min(0),
  })
  .meta({ id: 'TierChanged' });
export type TierChangedData = z.output<typeof tierChangedShape>;

/** `PUT /v1/participants/{external_id}/tier`. */
export const setTierInput = z
  .strictObject({
    key: tierKey,
    reason: text(500).trim().min(1).meta({ description: 'The operator’s note, kept in the history.' }),
  })
  .meta({ id: 'TierAssignment' });

/** `POST /v1/tiers/preview`. */
export const tierPreviewShape = z
  .object({
    current: z.record(z.string(), z.int().min(0)).meta({ description: 'Participants per level now.' }),
    proposed: z
      .record(z.string(), z.int().min(0))
      .meta({ description: 'Participants per level once the change is applied and evaluated.' }),
    moves: z
      .array(z.object({ from: z.string().nullable(), to: z.string().nullable(), count: z.int().min(1) }))
      .meta({ description: 'Who would move, by level keys.' }),
  })
  .meta({ id: 'TierPreview' });
export type TierPreviewDto = z.output<typeof tierPreviewShape>;

/** `GET /v1/tiers`: the programme, or null when there is none. */
export const tierProgrammeViewShape = tierProgrammeShape.nullable();
