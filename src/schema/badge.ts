import { defineBadge, defineBadgeInput, listBadges } from '../services/badges/manage-badges.ts';
import type { BadgeDto, BadgeListItem } from '../services/badges/shapes.ts';
import { builder } from './builder.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

/** A badge of the catalogue. */
export const Badge = builder.objectRef<BadgeDto & Partial<BadgeListItem>>('Badge').implement({
  description: 'A badge definition: defined by POST /v1/badges or created by a flow’s first award.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    imageUrl: t.exposeString('image_url', { nullable: true }),
    tiers: t.exposeStringList('tiers', { description: 'Tier names; a participant holds a key+tier once.' }),
    criteria: t.field({
      type: JSONScalar,
      nullable: true,
      description:
        'An achievement’s criteria, as REST shows them (`{ event_type, aggregate, field, window, target, where, tier }`); null: awarded by flows only.',
      resolve: (b) => b.criteria,
    }),
    holdersCount: t.int({
      nullable: true,
      description: 'Participants holding it (any tier); in the catalogue only.',
      resolve: (b) => b.holders_count ?? null,
    }),
    holdersPercent: t.float({
      nullable: true,
      description:
        'Its rarity: holders as a percentage (0–100) of the mode’s participants; in the catalogue only.',
      resolve: (b) => b.holders_percent ?? null,
    }),
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

const DefineBadgeInput = builder
  .inputType('DefineBadgeInput', {
    fields: (t) => ({
      key: t.string({ required: true }),
      name: t.string({ required: true }),
      description: t.string(),
      imageUrl: t.string({ description: 'An http(s) URL.' }),
      tiers: t.stringList({ description: 'Tier names (at most 50).' }),
      criteria: t.field({
        type: JSONScalar,
        description:
          'An achievement’s criteria, as REST takes them (`{ event_type, aggregate, field?, window, target, where?, tier? }`, docs/engagement.md#criteria).',
      }),
    }),
  })
  .validate(serviceInput(defineBadgeInput));

const DefineBadgePayload = builder
  .objectRef<Awaited<ReturnType<typeof defineBadge>>>('DefineBadgePayload')
  .implement({
    fields: mirror((t) => ({
      badge: t.expose('badge', { type: Badge }),
      created: t.exposeBoolean('created', {
        description: 'False when the key existed and was redefined (REST answers 200 instead of 201).',
      }),
    })),
  });

builder.mutationFields((t) => ({
  defineBadge: t.field({
    type: DefineBadgePayload,
    description:
      'Defines a badge, or redefines an existing key (name, description, image and tiers replaced). Needs flows:write.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: DefineBadgeInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => defineBadge(app, who, input),
  }),
}));
