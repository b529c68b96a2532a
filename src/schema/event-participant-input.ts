import { builder } from './builder.ts';

/** SPEC 2.6 `participant`: who the event happened to, with PII that only fills empty fields. */
export const EventParticipantInput = builder.inputType('EventParticipantInput', {
  description: 'Who the event happened to. email, phone and name only fill fields that are still empty.',
  fields: (t) => ({
    externalId: t.string({ description: "The caller's identifier; an event without one is quarantined." }),
    email: t.string(),
    phone: t.string(),
    name: t.string(),
  }),
});
