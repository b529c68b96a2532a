import { type BadgeDto, listBadges } from '../services/badges/manage-badges.ts';
import { builder } from './builder.ts';
import { mirror } from './shape.ts';

/** A badge of the catalogue (CONTRACT 7). */
export const Badge = builder.objectRef<BadgeDto>('Badge').implement({
  description: 'A badge definition: defined by POST /v1/badges or created by a flow’s first award.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    imageUrl: t.exposeString('image_url', { nullable: true }),
    tiers: t.exposeStringList('tiers', { description: 'Tier names; a participant holds a key+tier once.' }),
  })),
});

builder.queryFields((t) => ({
  badges: t.field({
    type: [Badge],
    description: "The badge catalogue of the key's workspace and mode, by key (any valid key).",
    authScopes: { anyKey: true },
    resolve: (_root, _args, { app, who }) => listBadges(app, who),
  }),
}));
