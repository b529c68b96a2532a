import { z } from 'zod';

/** A badge of the catalogue. */
export const badgeShape = z
  .object({
    key: z.string().meta({ examples: ['vip'] }),
    name: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    tiers: z.array(z.string()),
  })
  .meta({ id: 'Badge' });
export type BadgeDto = z.output<typeof badgeShape>;

export const badgeListShape = z.object({ data: z.array(badgeShape) }).meta({ id: 'BadgeList' });
