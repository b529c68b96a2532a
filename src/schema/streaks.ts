import { keyParam } from '../lib/primitives.ts';
import {
  archiveStreak,
  createStreak,
  getStreak,
  listStreaks,
  updateStreak,
} from '../services/streaks/definitions.ts';
import { streaksOfMany } from '../services/streaks/participant-streaks.ts';
import {
  type CreateStreakInput,
  createStreakInput,
  frequencyShape,
  type ParticipantStreakDto,
  periodStatusShape,
  type StreakDto,
  type UpdateStreakInput,
  updateStreakInput,
} from '../services/streaks/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { serviceInput, snakeDeep } from './names.ts';
import { canReadOwn, Participant } from './participant.ts';
import { mirror } from './shape.ts';

// Streak definitions and a participant's streaks: the REST doors of src/rest/streaks.ts over the
// same services and abilities (docs/engagement.md#streaks). The live `streakChanged` is in live.ts.

export const StreakFrequency = builder.enumType('StreakFrequency', {
  description: 'A calendar day, an ISO week (Monday first) or a month, in the participant’s time zone.',
  values: frequencyShape.options,
});

const StreakPeriodStatus = builder.enumType('StreakPeriodStatus', {
  description: '`extended`: an event extended it. `frozen`: a freeze covered it. `missed`: neither.',
  values: periodStatusShape.options,
});

const StreakFreezes = builder.objectRef<StreakDto['freezes']>('StreakFreezes').implement({
  fields: mirror((t) => ({
    initial: t.exposeInt('initial', { description: 'Freezes a participant starts with.' }),
    max: t.exposeInt('max', { description: 'The most they can hold.' }),
    earnEvery: t.exposeInt('earn_every', {
      nullable: true,
      description: 'A freeze is earned every this many extended periods, up to `max`; null: never.',
    }),
  })),
});

/** A definition as `GET /v1/streaks/{key}` answers it. */
const Streak = builder.objectRef<StreakDto>('Streak').implement({
  description:
    'A streak definition: an event of one of `eventTypes` extends it once per period of its `occurredAt`.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    eventTypes: t.exposeStringList('event_types'),
    frequency: t.field({ type: StreakFrequency, resolve: (s) => s.frequency }),
    freezes: t.expose('freezes', { type: StreakFreezes }),
    archivedAt: t.expose('archived_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'Set once archived: events no longer extend it.',
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

const StreakPeriod = builder.objectRef<ParticipantStreakDto['history'][number]>('StreakPeriod').implement({
  fields: mirror((t) => ({
    periodStart: t.exposeString('period_start', { description: 'The period’s first day, YYYY-MM-DD.' }),
    status: t.field({ type: StreakPeriodStatus, resolve: (p) => p.status }),
  })),
});

/** One streak of a participant, as it stands now in their time zone. */
const ParticipantStreak = builder.objectRef<ParticipantStreakDto>('ParticipantStreak').implement({
  description: 'A participant’s standing in one running streak, now, in their time zone.',
  fields: mirror((t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    frequency: t.field({ type: StreakFrequency, resolve: (s) => s.frequency }),
    length: t.exposeInt('length', {
      description: 'Consecutive extended periods; 0 once it can no longer be saved.',
    }),
    longest: t.exposeInt('longest'),
    periodStart: t.expose('period_start', {
      type: DateTimeScalar,
      description: 'The current period’s start.',
    }),
    periodEnd: t.expose('period_end', { type: DateTimeScalar }),
    extendedThisPeriod: t.exposeBoolean('extended_this_period'),
    atRisk: t.exposeBoolean('at_risk', {
      description: 'It has a length, was not extended this period and no freeze is left.',
    }),
    freezes: t.exposeInt('freezes', { description: 'Freezes left.' }),
    expiresAt: t.expose('expires_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'The end of the last period that could still save it; null when there is nothing to save.',
    }),
    history: t.expose('history', {
      type: [StreakPeriod],
      description: 'The last 30 periods’ outcomes, oldest first.',
    }),
  })),
});

builder.objectFields(Participant, (t) => ({
  streaks: t.loadableList({
    type: ParticipantStreak,
    description:
      'Every running streak as it stands now in their time zone (GET /v1/participants/{external_id}/streaks). ' +
      'Needs participants:read, or a participant token for this participant.',
    authScopes: (p) => canReadOwn(p.external_id),
    load: (externalIds: string[], { app, who }) => streaksOfMany(app, who, externalIds),
    resolve: (p) => p.external_id,
  }),
  lastStreakChangeId: t.id({
    nullable: true,
    description:
      'The id of their newest streak change (null: none yet), read after every change already under way has ' +
      'committed. Read it before `streaks`, then pass it as `streakChanged(after:)`: nothing committed in ' +
      'between is missed.',
    authScopes: (p) => canReadOwn(p.external_id),
    resolve: async (p, _args, { app, who }) => {
      const id = await app.live.position('streak', who, p.external_id);
      return id ? String(id) : null;
    },
  }),
}));

const streakKey = () => keyParam('The streak key.', 64);

builder.queryFields((t) => ({
  streaks: t.field({
    type: [Streak],
    description:
      'The streak definitions by key (needs flows:read); archived ones too with `includeArchived`.',
    authScopes: { ability: 'flows:read' },
    args: { includeArchived: t.arg.boolean({ description: 'Also list archived streaks.' }) },
    resolve: async (_root, args, { app, who }) =>
      (await listStreaks(app, who, args.includeArchived ?? false)).data,
  }),
  streak: t.field({
    type: Streak,
    nullable: true,
    description: 'One streak definition by key, archived ones too, or null (needs flows:read).',
    authScopes: { ability: 'flows:read' },
    args: { key: t.arg.string({ required: true, validate: streakKey() }) },
    resolve: (_root, args, { app, who }) => orNull(getStreak(app, who, args.key)),
  }),
}));

const StreakFreezesInput = builder.inputType('StreakFreezesInput', {
  fields: (t) => ({
    initial: t.int({ required: true, description: '0–10, at most `max`.' }),
    max: t.int({ required: true, description: '0–10.' }),
    earnEvery: t.int({ description: 'Extended periods per freeze earned (1–1000); none when absent.' }),
  }),
});

/** `createStreak` takes the POST /v1/streaks body; a `null` field is one not given. */
const CreateStreakInputRef = builder
  .inputType('CreateStreakInput', {
    fields: (t) => ({
      key: t.string({
        required: true,
        description: 'Letters, digits and . _ : -, unique (archived ones too).',
      }),
      name: t.string({ required: true }),
      eventTypes: t.stringList({ required: true, description: 'The event types that extend it (1–50).' }),
      frequency: t.field({ type: StreakFrequency, required: true }),
      freezes: t.field({ type: StreakFreezesInput, description: 'Default: none.' }),
    }),
  })
  .validate(serviceInput(createStreakInput, (args) => snakeDeep(args, 'drop')));

/** `updateStreak` takes the PATCH body: given fields replace, absent (or null) ones stay. */
const UpdateStreakInputRef = builder
  .inputType('UpdateStreakInput', {
    description: 'The frequency cannot change (periods would change meaning): archive and create another.',
    fields: (t) => ({
      name: t.string(),
      eventTypes: t.stringList(),
      freezes: t.field({ type: StreakFreezesInput, description: 'Replaces all three numbers.' }),
    }),
  })
  .validate(serviceInput(updateStreakInput, (args) => snakeDeep(args, 'drop')));

builder.mutationFields((t) => ({
  createStreak: t.field({
    type: Streak,
    description:
      'Defines a streak (needs flows:write). A key already used, archived ones included, is validation_error.',
    authScopes: { ability: 'flows:write' },
    args: { input: t.arg({ type: CreateStreakInputRef, required: true }) },
    resolve: (_root, { input }, { app, who }) =>
      createStreak(app, who, input as unknown as CreateStreakInput),
  }),
  updateStreak: t.field({
    type: Streak,
    description:
      'Changes a streak’s name, event types or freezes (needs flows:write); participants keep their lengths. ' +
      'An unknown key is not_found.',
    authScopes: { ability: 'flows:write' },
    args: {
      key: t.arg.string({ required: true, validate: streakKey() }),
      input: t.arg({ type: UpdateStreakInputRef, required: true }),
    },
    resolve: (_root, { key, input }, { app, who }) =>
      updateStreak(app, who, key, input as unknown as UpdateStreakInput),
  }),
  archiveStreak: t.field({
    type: Streak,
    description:
      'Archives a streak (needs flows:write): events stop extending it and reads leave it out; participants’ ' +
      'states and history stay. An unknown key is not_found.',
    authScopes: { ability: 'flows:write' },
    args: { key: t.arg.string({ required: true, validate: streakKey() }) },
    resolve: (_root, { key }, { app, who }) => archiveStreak(app, who, key),
  }),
}));
