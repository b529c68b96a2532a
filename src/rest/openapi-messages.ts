import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { listMessagesInput } from '../services/messages/list-messages.ts';
import {
  createTemplateInput,
  templateKey,
  updateTemplateInput,
} from '../services/messages/template-input.ts';
import type { OperationDoc } from './openapi.ts';
import { paginated } from './openapi-schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });

const TAG = 'Messages';

export const messageTemplate = z
  .object({
    id: z.int(),
    key: z
      .string()
      .meta({ description: 'What a flow’s `send_message` action names.', examples: ['welcome'] }),
    channel: z.enum(['email', 'sms']),
    subject: z.string().nullable().meta({ description: 'E-mail only.' }),
    body: z.string(),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'MessageTemplate' });

export const messageStatus = listMessagesInput.shape.status.unwrap().meta({
  id: 'MessageStatus',
  description:
    '`pending` (live, waiting for its send), `sent` (the transport accepted it), `simulated` (test mode: ' +
    'rendered and stored, never sent), `skipped` (no address for the channel), `failed` (see `error`; ' +
    'includes "send outcome unknown" when a worker died mid-send: never re-sent).',
});

export const message = z
  .object({
    id: z.string().meta({ format: 'uuid', description: 'Message id (UUIDv7, time-ordered).' }),
    template: z.string().meta({ description: 'The template key it was rendered from.' }),
    channel: z.enum(['email', 'sms']),
    participant: z.object({ external_id: z.string() }).nullable(),
    to: z.string().nullable().meta({ description: 'E-mail address or phone number; null when skipped.' }),
    status: messageStatus,
    subject: z.string().nullable(),
    body: z.string().meta({ description: 'As rendered when the message was queued.' }),
    error: z.string().nullable(),
    is_sandbox: z.boolean().meta({ description: 'True in test mode (never sent).' }),
    attempts: z.int().min(0).meta({ description: 'Transport attempts made.' }),
    sent_at: timestamp('When the transport accepted it.').nullable(),
    created_at: timestamp('When it was queued.'),
  })
  .meta({ id: 'Message' });

const keyParam = z.object({
  key: templateKey.meta({ param: { description: 'The template key. An unknown key is a 404.' } }),
});

const idParam = z.object({
  id: z.uuid().meta({ param: { description: 'The message id. An unknown or malformed id is a 404.' } }),
});

const TOKENS =
  'Tokens: `{{participant.external_id}}`, `{{participant.email}}`, `{{participant.phone}}`, ' +
  '`{{participant.name}}`, `{{participant.balance}}`, `{{participant.lifetime_points}}`, ' +
  '`{{payload.<path>}}` (dots walk objects and arrays), `{{event.type}}`. Substitution is plain text in ' +
  'one pass (a token inside a value is not expanded), never evaluated; values are HTML-escaped in e-mail ' +
  'bodies; the subject loses CR/LF; unknown tokens render empty.';

export const messagesOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v1/message-templates',
    operationId: 'createMessageTemplate',
    tag: TAG,
    summary: 'Create a message template',
    description: `\`key\` is unique per workspace and mode (a duplicate is a 422 on \`key\`); SMS templates have no subject. ${TOKENS}`,
    auth: 'flows:write',
    body: { schema: createTemplateInput },
    success: { status: '201', description: 'Created.', schema: messageTemplate },
  },
  {
    method: 'get',
    path: '/v1/message-templates',
    operationId: 'listMessageTemplates',
    tag: TAG,
    summary: 'List message templates',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of templates.',
      schema: paginated(messageTemplate, 'MessageTemplate'),
    },
  },
  {
    method: 'get',
    path: '/v1/message-templates/{key}',
    operationId: 'getMessageTemplate',
    tag: TAG,
    summary: 'Show a message template',
    auth: 'flows:read',
    params: { path: keyParam },
    success: { status: '200', description: 'The template.', schema: messageTemplate },
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/message-templates/{key}',
    operationId: 'updateMessageTemplate',
    tag: TAG,
    summary: 'Change a message template',
    description:
      'Replaces the given fields (`subject: null` clears it); the key cannot change. Messages already queued keep the text they were rendered with.',
    auth: 'flows:write',
    params: { path: keyParam },
    body: { schema: updateTemplateInput },
    success: { status: '200', description: 'The template.', schema: messageTemplate },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/message-templates/{key}',
    operationId: 'deleteMessageTemplate',
    tag: TAG,
    summary: 'Delete a message template',
    description:
      'Recorded messages keep their rendered text; a flow step naming the key fails from now on with a clear error.',
    auth: 'flows:write',
    params: { path: keyParam },
    success: {
      status: '200',
      description: 'Deleted.',
      schema: z.object({ key: z.string(), deleted: z.literal(true) }).meta({ id: 'MessageTemplateDeleted' }),
    },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/messages',
    operationId: 'listMessages',
    tag: TAG,
    summary: 'The messages log',
    description:
      'Messages queued by flows’ `send_message` steps, newest first; filter by `status`, `template` (key) and `participant` (external id).',
    auth: 'flows:read',
    params: { query: listMessagesInput },
    success: { status: '200', description: 'A page of messages.', schema: paginated(message, 'Message') },
  },
  {
    method: 'get',
    path: '/v1/messages/{id}',
    operationId: 'getMessage',
    tag: TAG,
    summary: 'Show a message',
    auth: 'flows:read',
    params: { path: idParam },
    success: { status: '200', description: 'The message.', schema: message },
    errors: ['not_found'],
  },
];
