import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { createSubscription } from '../services/webhooks/create-subscription.ts';
import { deleteSubscription } from '../services/webhooks/delete-subscription.ts';
import { getDelivery, listDeliveries } from '../services/webhooks/list-deliveries.ts';
import { getSubscription, listSubscriptions } from '../services/webhooks/list-subscriptions.ts';
import { replayDelivery } from '../services/webhooks/replay-delivery.ts';
import { testSubscription } from '../services/webhooks/test-subscription.ts';
import { updateSubscription } from '../services/webhooks/update-subscription.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** CONTRACT 10: webhook subscriptions and the delivery log; abilities `webhooks:read` / `webhooks:write`. */
export function webhooksRouter(ctx: AppContext): Router {
  const r = Router();
  const read = requireKey(ctx, 'webhooks:read');
  const write = requireKey(ctx, 'webhooks:write');
  const id = (p: unknown) => String(p);

  r.post(
    '/webhook-subscriptions',
    write,
    route(async (req, res) =>
      res.status(201).json(await createSubscription(ctx, principal(req), req.body ?? {})),
    ),
  );
  r.get(
    '/webhook-subscriptions',
    read,
    route(async (req, res) =>
      res.json(presentPage(req, await listSubscriptions(ctx, principal(req), req.query))),
    ),
  );
  r.get(
    '/webhook-subscriptions/:id',
    read,
    route(async (req, res) => res.json(await getSubscription(ctx, principal(req), id(req.params.id)))),
  );
  r.patch(
    '/webhook-subscriptions/:id',
    write,
    route(async (req, res) =>
      res.json(await updateSubscription(ctx, principal(req), id(req.params.id), req.body ?? {})),
    ),
  );
  r.delete(
    '/webhook-subscriptions/:id',
    write,
    route(async (req, res) => res.json(await deleteSubscription(ctx, principal(req), id(req.params.id)))),
  );
  r.post(
    '/webhook-subscriptions/:id/test',
    write,
    route(async (req, res) => res.json(await testSubscription(ctx, principal(req), id(req.params.id)))),
  );

  r.get(
    '/webhook-deliveries',
    read,
    route(async (req, res) => {
      const page = await listDeliveries(ctx, principal(req), req.query);
      const { subscription_id, status, type } = req.query;
      res.json(presentPage(req, page, { subscription_id, status, type }));
    }),
  );
  r.get(
    '/webhook-deliveries/:id',
    read,
    route(async (req, res) => res.json(await getDelivery(ctx, principal(req), id(req.params.id)))),
  );
  r.post(
    '/webhook-deliveries/:id/replay',
    write,
    route(async (req, res) => res.json(await replayDelivery(ctx, principal(req), id(req.params.id)))),
  );

  return r;
}
