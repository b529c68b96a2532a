import { builder } from './builder.ts';
import { mirror } from './shape.ts';

/** What a delete answers, as on REST: `{ id, deleted: true }`. */
export const DeletePayload = builder.objectRef<{ id: string; deleted: true }>('DeletePayload').implement({
  description: 'The id of what was deleted; `deleted` is always true.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted'),
  })),
});

/** A participant named by an object that belongs to it (a flow run, a message). */
export const ParticipantRef = builder.objectRef<{ external_id: string }>('ParticipantRef').implement({
  description: 'The participant an object belongs to, by external id.',
  fields: mirror((t) => ({ externalId: t.exposeString('external_id') })),
});
