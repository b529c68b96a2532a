import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { createTemplate } from '../services/messages/create-template.ts';
import { deleteTemplate } from '../services/messages/delete-template.ts';
import { getTemplate, listTemplates } from '../services/messages/get-template.ts';
import { getMessage, listMessages, listMessagesInput } from '../services/messages/list-messages.ts';
import { previewMessage, previewMessageInput } from '../services/messages/preview-message.ts';
import {
  createTemplateInput,
  templateKey,
  updateTemplateInput,
} from '../services/messages/template-input.ts';
import { updateTemplate } from '../services/messages/update-template.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const keyInput = z.object({ key: templateKey });

/** Message templates (CRUD) and the messages log, for the dashboard's messages page (docs/dashboard.md#pages). */
export const messagesRouter = router({
  templates: router({
    list: sessionProcedure
      .input(withMode(pageInput))
      .query(({ ctx, input: { mode, ...input } }) => listTemplates(ctx.app, ctx.as(mode), input)),
    get: sessionProcedure
      .input(withMode(keyInput))
      .query(({ ctx, input: { mode, key } }) => getTemplate(ctx.app, ctx.as(mode), key)),
    create: sessionProcedure
      .input(withMode(createTemplateInput))
      .mutation(({ ctx, input: { mode, ...input } }) => createTemplate(ctx.app, ctx.as(mode), input)),
    update: sessionProcedure
      .input(withMode(keyInput.extend({ patch: updateTemplateInput })))
      .mutation(({ ctx, input: { mode, key, patch } }) => updateTemplate(ctx.app, ctx.as(mode), key, patch)),
    delete: sessionProcedure
      .input(withMode(keyInput))
      .mutation(({ ctx, input: { mode, key } }) => deleteTemplate(ctx.app, ctx.as(mode), key)),
  }),
  /** The edit form's preview, rendered by the service's own renderer with the user's sample variables. */
  // A mutation (POST) though it changes nothing: the body can be far longer than a GET URL.
  preview: sessionProcedure.input(previewMessageInput).mutation(({ input }) => previewMessage(input)),
  list: sessionProcedure
    .input(withMode(listMessagesInput))
    .query(({ ctx, input: { mode, ...input } }) => listMessages(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(z.object({ id: z.string().max(64) })))
    .query(({ ctx, input: { mode, id } }) => getMessage(ctx.app, ctx.as(mode), id)),
});
