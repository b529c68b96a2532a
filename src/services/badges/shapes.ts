import { z } from 'zod';
import { criteriaShape } from '../achievements/criteria.ts';

/** A badge of the catalogue. */
export const badgeShape = z
  .object({
    key: z.string().meta({ examples: ['vip'] }),
    name: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    tiers: z.array(z.string()),
    criteria: criteriaShape.nullable().meta({
      description: 'What awards it as an achievement (docs/engagement.md#achievements); null: flows only.',
    }),
  })
  .meta({ id: 'Badge' });
export type BadgeDto = z.output<typeof badgeShape>;

/** A badge as the catalogue lists it: with its rarity. */
export const badgeListItemShape = badgeShape
  .extend({
    holders_count: z.int().min(0).meta({ description: 'Participants holding it (any tier).' }),
    holders_percent: z
      .number()
      .min(0)
      .max(100)
      .meta({
        description:
          'Its rarity: holders as a percentage of the workspace’s participants in this mode, to 2 decimals ' +
          '(0 with no participants).',
      }),
  })
  .meta({ id: 'BadgeListItem' });
export type BadgeListItem = z.output<typeof badgeListItemShape>;

export const badgeListShape = z.object({ data: z.array(badgeListItemShape) }).meta({ id: 'BadgeList' });
