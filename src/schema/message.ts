import { type PageInput, pageInput } from '../lib/pagination.ts';
import { keyParam } from '../lib/primitives.ts';
import { createTemplate } from '../services/messages/create-template.ts';
import { deleteTemplate } from '../services/messages/delete-template.ts';
import { getTemplate, listTemplates } from '../services/messages/get-template.ts';
import {
  getMessage,
  type ListMessagesInput,
  listMessages,
  listMessagesInput,
} from '../services/messages/list-messages.ts';
import {
  CHANNELS,
  MESSAGE_STATUSES,
  type MessageDto,
  type MessageTemplateDto,
} from '../services/messages/shapes.ts';
import {
  createTemplateInput,
  TEMPLATE_KEY_LENGTH,
  updateTemplateInput,
} from '../services/messages/template-input.ts';
import { updateTemplate } from '../services/messages/update-template.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { patchArgs, serviceInput } from './names.ts';
import { ParticipantRef } from './payloads.ts';
import { mirror } from './shape.ts';

const canRead = { ability: 'flows:read' } as const;
const canWrite = { ability: 'flows:write' } as const;
/** A template key the caller names: NUL, a lone surrogate or an over-long key is a validation_error. */
const templateKey = keyParam('The template key.', TEMPLATE_KEY_LENGTH);

const MessageChannel = builder.enumType('MessageChannel', { values: CHANNELS });

const MessageStatus = builder.enumType('MessageStatus', {
  description:
    '`pending` (live, waiting for its send), `sent`, `simulated` (test mode: never sent), `skipped` (no address), `failed` (see `error`).',
  values: MESSAGE_STATUSES,
});

/** A message template (docs/api.md#messages), as REST's /v1/message-templates answers it. */
export const MessageTemplate = builder.objectRef<MessageTemplateDto>('MessageTemplate').implement({
  description: 'Text a flow’s `send_message` step renders, with `{{participant.name}}`-style tokens.',
  fields: mirror((t) => ({
    id: t.exposeInt('id'),
    key: t.exposeString('key', { description: 'What a flow’s `send_message` action names.' }),
    channel: t.field({ type: MessageChannel, resolve: (m) => m.channel }),
    subject: t.exposeString('subject', { nullable: true, description: 'E-mail only.' }),
    body: t.exposeString('body'),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

/** A message of the log (docs/api.md#messages). */
export const Message = builder.objectRef<MessageDto>('Message').implement({
  description: 'A message queued by a flow’s `send_message` step, as rendered.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'UUIDv7.' }),
    template: t.exposeString('template', { description: 'The template key it was rendered from.' }),
    channel: t.field({ type: MessageChannel, resolve: (m) => m.channel }),
    participant: t.expose('participant', { type: ParticipantRef, nullable: true }),
    to: t.exposeString('to', {
      nullable: true,
      description: 'E-mail address or phone number; null when skipped.',
    }),
    status: t.field({ type: MessageStatus, resolve: (m) => m.status }),
    subject: t.exposeString('subject', { nullable: true }),
    body: t.exposeString('body'),
    error: t.exposeString('error', { nullable: true }),
    isSandbox: t.exposeBoolean('is_sandbox'),
    attempts: t.exposeInt('attempts'),
    sentAt: t.expose('sent_at', { type: DateTimeScalar, nullable: true }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
  })),
});

const MessageTemplateDeletePayload = builder
  .objectRef<{ key: string; deleted: true }>('MessageTemplateDeletePayload')
  .implement({
    fields: mirror((t) => ({ key: t.exposeString('key'), deleted: t.exposeBoolean('deleted') })),
  });

builder.queryFields((t) => ({
  messageTemplate: t.field({
    type: MessageTemplate,
    nullable: true,
    description: 'One message template by key, or null. Needs flows:read.',
    authScopes: canRead,
    args: { key: t.arg.string({ required: true, validate: templateKey }) },
    resolve: (_root, args, { app, who }) => orNull(getTemplate(app, who, args.key)),
  }),
  messageTemplates: t.connection(
    {
      type: MessageTemplate,
      description: `Message templates (needs flows:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      validate: serviceInput(pageInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listTemplates(app, who, args as unknown as PageInput)),
    },
    { name: 'MessageTemplateConnection' },
    { name: 'MessageTemplateEdge' },
  ),
  message: t.field({
    type: Message,
    nullable: true,
    description: 'One message of the log, or null. Needs flows:read.',
    authScopes: canRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getMessage(app, who, String(args.id))),
  }),
  messages: t.connection(
    {
      type: Message,
      description: `The messages log (needs flows:read), filtered by status, template key and participant. ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      args: {
        status: t.arg({ type: MessageStatus }),
        template: t.arg.string({ description: 'A template key.' }),
        participant: t.arg.string({ description: "A participant's external id." }),
      },
      validate: serviceInput(listMessagesInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listMessages(app, who, args as unknown as ListMessagesInput)),
    },
    { name: 'MessageConnection' },
    { name: 'MessageEdge' },
  ),
}));

const CreateMessageTemplateInput = builder
  .inputType('CreateMessageTemplateInput', {
    fields: (t) => ({
      key: t.string({ required: true, description: 'Unique per workspace and mode.' }),
      channel: t.field({ type: MessageChannel, required: true }),
      subject: t.string({ description: 'E-mail only; SMS templates have none.' }),
      body: t.string({ required: true }),
    }),
  })
  .validate(serviceInput(createTemplateInput));

const UpdateMessageTemplateInput = builder
  .inputType('UpdateMessageTemplateInput', {
    description: 'The fields to replace; `subject: null` clears it. The key cannot change.',
    fields: (t) => ({
      channel: t.field({ type: MessageChannel }),
      subject: t.string(),
      body: t.string(),
    }),
  })
  .validate(serviceInput(updateTemplateInput, patchArgs));

builder.mutationFields((t) => ({
  createMessageTemplate: t.field({
    type: MessageTemplate,
    description:
      'Creates a message template (needs flows:write); a taken key is a validation_error on `key`.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateMessageTemplateInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createTemplate(app, who, input),
  }),
  updateMessageTemplate: t.field({
    type: MessageTemplate,
    description: 'Replaces the given fields of a template (needs flows:write).',
    authScopes: canWrite,
    args: {
      key: t.arg.string({ required: true, validate: templateKey }),
      input: t.arg({ type: UpdateMessageTemplateInput, required: true }),
    },
    resolve: (_root, { key, input }, { app, who }) => updateTemplate(app, who, key, input),
  }),
  deleteMessageTemplate: t.field({
    type: MessageTemplateDeletePayload,
    description: 'Deletes a template (needs flows:write); recorded messages keep their text.',
    authScopes: canWrite,
    args: { key: t.arg.string({ required: true, validate: templateKey }) },
    resolve: (_root, { key }, { app, who }) => deleteTemplate(app, who, key),
  }),
}));
