import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { createTemplate } from '../services/messages/create-template.ts';
import { deleteTemplate } from '../services/messages/delete-template.ts';
import { getTemplate, listTemplates } from '../services/messages/get-template.ts';
import { getMessage, listMessages } from '../services/messages/list-messages.ts';
import { updateTemplate } from '../services/messages/update-template.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** Message templates and the messages log (CONTRACT 9); ability `flows:*`. */
export function messagesRouter(ctx: AppContext): Router {
  const r = Router();
  const read = requireKey(ctx, 'flows:read');
  const write = requireKey(ctx, 'flows:write');

  r.post(
    '/message-templates',
    write,
    route(async (req, res) =>
      res.status(201).json(await createTemplate(ctx, principal(req), req.body ?? {})),
    ),
  );
  r.get(
    '/message-templates',
    read,
    route(async (req, res) =>
      res.json(presentPage(req, await listTemplates(ctx, principal(req), req.query))),
    ),
  );
  r.get(
    '/message-templates/:key',
    read,
    route(async (req, res) => res.json(await getTemplate(ctx, principal(req), String(req.params.key)))),
  );
  r.patch(
    '/message-templates/:key',
    write,
    route(async (req, res) =>
      res.json(await updateTemplate(ctx, principal(req), String(req.params.key), req.body ?? {})),
    ),
  );
  r.delete(
    '/message-templates/:key',
    write,
    route(async (req, res) => res.json(await deleteTemplate(ctx, principal(req), String(req.params.key)))),
  );

  r.get(
    '/messages',
    read,
    route(async (req, res) => {
      const page = await listMessages(ctx, principal(req), req.query);
      const { status, template, participant } = req.query;
      res.json(presentPage(req, page, { status, template, participant }));
    }),
  );
  r.get(
    '/messages/:id',
    read,
    route(async (req, res) => res.json(await getMessage(ctx, principal(req), String(req.params.id)))),
  );
  return r;
}
