import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { keyParam, uuidId } from '../lib/primitives.ts';
import { createTemplate } from '../services/messages/create-template.ts';
import { deleteTemplate } from '../services/messages/delete-template.ts';
import { getTemplate, listTemplates } from '../services/messages/get-template.ts';
import { getMessage, listMessages, listMessagesInput } from '../services/messages/list-messages.ts';
import {
  messageShape,
  messageTemplateDeletedShape,
  messageTemplateShape,
} from '../services/messages/shapes.ts';
import {
  createTemplateInput,
  TEMPLATE_KEY_LENGTH,
  updateTemplateInput,
} from '../services/messages/template-input.ts';
import { updateTemplate } from '../services/messages/update-template.ts';
import { paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';

const byTemplateKey = z.object({
  key: keyParam('The template key. An unknown key is a 404.', TEMPLATE_KEY_LENGTH),
});
const byMessageId = z.object({ id: uuidId('The message id.') });

const TOKENS =
  'Tokens: `{{participant.external_id}}`, `{{participant.email}}`, `{{participant.phone}}`, ' +
  '`{{participant.name}}`, `{{participant.balance}}`, `{{participant.lifetime_points}}`, ' +
  '`{{payload.<path>}}` (dots walk objects and arrays), `{{event.type}}`. Substitution is plain text in ' +
  'one pass (a token inside a value is not expanded), never evaluated; values are HTML-escaped in e-mail ' +
  'bodies; the subject loses CR/LF; unknown tokens render empty.';

const M = 'Messages';

/** Message templates and the messages log (docs/api.md#messages); ability `flows:*`. */
export const messagesOperations: Operation[] = [
  operation({
    method: 'post',
    path: '/v1/message-templates',
    operationId: 'createMessageTemplate',
    tag: M,
    summary: 'Create a message template',
    description: `\`key\` is unique per workspace and mode (a duplicate is a 422 on \`key\`); SMS templates have no subject. ${TOKENS}`,
    auth: 'flows:write',
    body: { schema: createTemplateInput },
    success: { status: '201', description: 'Created.', schema: messageTemplateShape },
    handle: ({ ctx, who, body }) => createTemplate(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/message-templates',
    operationId: 'listMessageTemplates',
    tag: M,
    summary: 'List message templates',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of templates.',
      schema: paginated(messageTemplateShape, 'MessageTemplate'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listTemplates(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/message-templates/{key}',
    operationId: 'getMessageTemplate',
    tag: M,
    summary: 'Show a message template',
    auth: 'flows:read',
    params: { path: byTemplateKey },
    success: { status: '200', description: 'The template.', schema: messageTemplateShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getTemplate(ctx, who, params.key),
  }),
  operation({
    method: 'patch',
    path: '/v1/message-templates/{key}',
    operationId: 'updateMessageTemplate',
    tag: M,
    summary: 'Change a message template',
    description:
      'Replaces the given fields (`subject: null` clears it); the key cannot change. Messages already queued keep the text they were rendered with.',
    auth: 'flows:write',
    params: { path: byTemplateKey },
    body: { schema: updateTemplateInput },
    success: { status: '200', description: 'The template.', schema: messageTemplateShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateTemplate(ctx, who, params.key, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/message-templates/{key}',
    operationId: 'deleteMessageTemplate',
    tag: M,
    summary: 'Delete a message template',
    description:
      'Recorded messages keep their rendered text; a flow step naming the key fails from now on with a clear error.',
    auth: 'flows:write',
    params: { path: byTemplateKey },
    success: { status: '200', description: 'Deleted.', schema: messageTemplateDeletedShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => deleteTemplate(ctx, who, params.key),
  }),
  operation({
    method: 'get',
    path: '/v1/messages',
    operationId: 'listMessages',
    tag: M,
    summary: 'The messages log',
    description:
      'Messages queued by flows’ `send_message` steps, newest first; filter by `status`, `template` (key) and `participant` (external id).',
    auth: 'flows:read',
    params: { query: listMessagesInput },
    success: {
      status: '200',
      description: 'A page of messages.',
      schema: paginated(messageShape, 'Message'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listMessages(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/messages/{id}',
    operationId: 'getMessage',
    tag: M,
    summary: 'Show a message',
    auth: 'flows:read',
    params: { path: byMessageId },
    success: { status: '200', description: 'The message.', schema: messageShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getMessage(ctx, who, params.id),
  }),
];
