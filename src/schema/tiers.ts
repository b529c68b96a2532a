import type { PageInput } from '../lib/pagination.ts';
import { externalIdParam } from '../lib/primitives.ts';
import { setParticipantTier, tierHistory, tierHistoryInput } from '../services/tiers/participant-tier.ts';
import { deleteTiers, getTiers, previewTiers, putTiers } from '../services/tiers/programme.ts';
import {
  downgradePolicy,
  setTierInput,
  type TierLevel,
  type TierPreviewDto,
  type TierProgramme,
  tierPeriod,
  tierProgrammeShape,
  tierWindow,
} from '../services/tiers/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { serviceInput, snakeDeep } from './names.ts';
import { canReadOwn, Participant } from './participant.ts';
import { ParticipantTier, TierMove } from './participant-tier.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

// The tier programme, its preview, and a participant's history and manual level: the REST doors of
// src/rest/tiers.ts over the same services and abilities (docs/tiers.md).

const TierWindow = builder.enumType('TierWindow', {
  description:
    '`lifetime`: every qualifying point ever. `rolling`: those of the last `duration`. `calendar`: those of the ' +
    'current `period` in the programme’s time zone.',
  values: tierWindow.options,
});
const TierPeriod = builder.enumType('TierPeriod', { values: tierPeriod.options });
const TierDowngradePolicy = builder.enumType('TierDowngradePolicy', {
  description:
    '`none`: never. `one_down`: one level per evaluation. `to_qualified`: to the level the window supports.',
  values: downgradePolicy.options,
});

type Qualification = TierProgramme['qualification'];
type Downgrade = TierProgramme['downgrade'];

const TierQualification = builder.objectRef<Qualification>('TierQualification').implement({
  fields: mirror((t) => ({
    window: t.field({ type: TierWindow, resolve: (q) => q.window }),
    duration: t.string({
      nullable: true,
      description: '`rolling` only: the window’s length, ISO 8601 (e.g. P12M).',
      resolve: (q) => q.duration ?? null,
    }),
    period: t.field({
      type: TierPeriod,
      nullable: true,
      description: '`calendar` only.',
      resolve: (q) => q.period ?? null,
    }),
  })),
});

const TierDowngrade = builder.objectRef<Downgrade>('TierDowngrade').implement({
  fields: mirror((t) => ({
    policy: t.field({ type: TierDowngradePolicy, resolve: (d) => d.policy }),
    grace: t.string({
      nullable: true,
      description: 'How long a participant below their level’s threshold keeps it (ISO 8601); null: none.',
      resolve: (d) => d.grace ?? null,
    }),
  })),
});

const TierLevelRef = builder.objectRef<TierLevel>('TierLevel').implement({
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    threshold: t.expose('threshold', {
      type: PointsScalar,
      description: 'Qualifying points that reach the level; the first level’s is 0.',
    }),
    earnMultiplier: t.exposeFloat('earn_multiplier', {
      description: 'Multiplies flow awards while at this level (rounded down).',
    }),
    description: t.exposeString('description', { nullable: true }),
  })),
});

/** The programme as `GET /v1/tiers` answers it. */
const TierProgrammeRef = builder.objectRef<TierProgramme>('TierProgramme').implement({
  description: 'The levels, the qualification window and the downgrade policy of a workspace and mode.',
  fields: mirror((t) => ({
    qualification: t.expose('qualification', { type: TierQualification }),
    downgrade: t.expose('downgrade', { type: TierDowngrade }),
    levels: t.expose('levels', { type: [TierLevelRef], description: 'Ordered by threshold.' }),
  })),
});

/** REST's `{ <key>: count }` objects as typed lists, in the programme's level order. */
interface LevelCount {
  key: string;
  count: number;
}
const counts = (byKey: Record<string, number>): LevelCount[] =>
  Object.entries(byKey).map(([key, count]) => ({ key, count }));

const TierLevelCount = builder.objectRef<LevelCount>('TierLevelCount').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    count: t.exposeInt('count'),
  }),
});

const TierPreviewMove = builder.objectRef<TierPreviewDto['moves'][number]>('TierPreviewMove').implement({
  fields: mirror((t) => ({
    from: t.exposeString('from', { nullable: true, description: 'A level key; null: no level.' }),
    to: t.exposeString('to', { nullable: true }),
    count: t.exposeInt('count'),
  })),
});

const TierPreview = builder.objectRef<TierPreviewDto>('TierPreview').implement({
  description: 'Who would be where under a proposed programme; nothing is changed.',
  fields: mirror((t) => ({
    current: t.field({
      type: [TierLevelCount],
      description: 'Participants per level now.',
      resolve: (p) => counts(p.current),
    }),
    proposed: t.field({
      type: [TierLevelCount],
      description: 'Participants per level once the change is applied and evaluated.',
      resolve: (p) => counts(p.proposed),
    }),
    moves: t.expose('moves', { type: [TierPreviewMove], description: 'Who would move, most first.' }),
  })),
});

const DeleteTiersPayload = builder.objectRef<{ deleted: true }>('DeleteTiersPayload').implement({
  fields: mirror((t) => ({ deleted: t.exposeBoolean('deleted') })),
});

builder.objectFields(Participant, (t) => ({
  tierHistory: t.connection(
    {
      type: TierMove,
      description: `Every move of their level. ${CONNECTION_DESCRIPTION}`,
      authScopes: (p) => canReadOwn(p.external_id),
      validate: serviceInput(tierHistoryInput),
      resolve: async (p, args, { app, who }) =>
        connectionFrom(await tierHistory(app, who, p.external_id, args as unknown as PageInput)),
    },
    { name: 'TierMoveConnection' },
    { name: 'TierMoveEdge' },
  ),
}));

builder.queryFields((t) => ({
  tiers: t.field({
    type: TierProgrammeRef,
    nullable: true,
    description:
      'The tier programme of the key’s workspace and mode, or null when none runs (any key; a participant token ' +
      'reads its own programme).',
    authScopes: { anyKey: true },
    resolve: (_root, _args, { app, who }) => getTiers(app, who),
  }),
}));

const TierQualificationInput = builder.inputType('TierQualificationInput', {
  fields: (t) => ({
    window: t.field({ type: TierWindow, required: true }),
    duration: t.string({ description: '`rolling` only, ISO 8601, e.g. P12M.' }),
    period: t.field({ type: TierPeriod, description: '`calendar` only.' }),
  }),
});
const TierDowngradeInput = builder.inputType('TierDowngradeInput', {
  fields: (t) => ({
    policy: t.field({ type: TierDowngradePolicy, required: true }),
    grace: t.string({ description: 'ISO 8601 duration; default none.' }),
  }),
});
const TierLevelInput = builder.inputType('TierLevelInput', {
  fields: (t) => ({
    key: t.string({ required: true }),
    name: t.string({ required: true }),
    threshold: t.field({ type: PointsScalar, required: true }),
    earnMultiplier: t.float({ description: '1–10, two decimals; default 1.' }),
    description: t.string(),
  }),
});

/** `putTiers` and `previewTiers` take the PUT /v1/tiers body; a `null` field is one not given. */
const TierProgrammeInput = builder
  .inputType('TierProgrammeInput', {
    description: 'Levels ordered by threshold, the first at 0, keys unique.',
    fields: (t) => ({
      qualification: t.field({ type: TierQualificationInput, required: true }),
      downgrade: t.field({ type: TierDowngradeInput, required: true }),
      levels: t.field({ type: [TierLevelInput], required: true }),
    }),
  })
  .validate(serviceInput(tierProgrammeShape, (args) => snakeDeep(args, 'drop')));

const SetParticipantTierInput = builder
  .inputType('SetParticipantTierInput', {
    fields: (t) => ({
      key: t.string({ required: true, description: 'A level key of the programme.' }),
      reason: t.string({ required: true, description: 'The operator’s note, kept in the history.' }),
    }),
  })
  .validate(serviceInput(setTierInput));

builder.mutationFields((t) => ({
  putTiers: t.field({
    type: TierProgrammeRef,
    description:
      'Replaces the tier programme (needs flows:write). The tier job then moves every participant up at once to ' +
      'what the new levels support; a level no longer supported is evaluated at its window’s next evaluation.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: TierProgrammeInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => putTiers(app, who, input as unknown as TierProgramme),
  }),
  deleteTiers: t.field({
    type: DeleteTiersPayload,
    description:
      'Ends the tier programme (needs flows:write): the tier job moves every participant off their level ' +
      '(`programme_change`). No programme runs: not_found.',
    authScopes: { ability: 'flows:write' },
    resolve: (_root, _args, { app, who }) => deleteTiers(app, who),
  }),
  previewTiers: t.field({
    type: TierPreview,
    description:
      'Participants per level now and under a proposed programme, and the moves between them (needs ' +
      'flows:write). Nothing is changed.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: TierProgrammeInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => previewTiers(app, who, input as unknown as TierProgramme),
  }),
  setParticipantTier: t.field({
    type: ParticipantTier,
    description:
      'Sets a participant’s level by hand (needs points:adjust), recorded in their history as `manual` with the ' +
      'note; the downgrade rules then apply to it. A key the programme does not have is validation_error.',
    authScopes: { ability: 'points:adjust' },
    args: {
      externalId: t.arg.string({ required: true, validate: externalIdParam() }),
      input: t.arg({ type: SetParticipantTierInput, required: true }),
    },
    resolve: (_root, { externalId, input }, { app, who }) => setParticipantTier(app, who, externalId, input),
  }),
}));
