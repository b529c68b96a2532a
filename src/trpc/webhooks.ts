import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import type { CatalogueType } from '../services/outbox/result-shapes.ts';
import { catalogueSummary, webhookEventTypes } from '../services/webhooks/catalogue.ts';
import { createSubscription, createSubscriptionInput } from '../services/webhooks/create-subscription.ts';
import { deleteSubscription } from '../services/webhooks/delete-subscription.ts';
import { getDelivery, listDeliveries, listDeliveriesInput } from '../services/webhooks/list-deliveries.ts';
import { getSubscription, listSubscriptions } from '../services/webhooks/list-subscriptions.ts';
import { recoverDeliveries, recoverDeliveriesInput } from '../services/webhooks/recover-deliveries.ts';
import { replayDelivery } from '../services/webhooks/replay-delivery.ts';
import { rotateSecret, rotateSecretInput } from '../services/webhooks/rotate-secret.ts';
import { testSubscription } from '../services/webhooks/test-subscription.ts';
import { updateSubscription, updateSubscriptionInput } from '../services/webhooks/update-subscription.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const idInput = z.strictObject({ id: z.string().min(1).max(64) });

/**
 * The dashboard's webhooks page (docs/dashboard.md#webhooks-and-settings-pages): subscriptions
 * (re-enabled by `update` with `status: 'active'`), secret rotation, recover, the delivery log
 * with attempts, replay, send test, and the event catalogue.
 */
export const webhooksRouter = router({
  subscriptions: router({
    list: sessionProcedure
      .input(withMode(pageInput))
      .query(({ ctx, input: { mode, ...input } }) => listSubscriptions(ctx.app, ctx.as(mode), input)),
    get: sessionProcedure
      .input(withMode(idInput))
      .query(({ ctx, input: { mode, id } }) => getSubscription(ctx.app, ctx.as(mode), id)),
    create: sessionProcedure
      .input(withMode(createSubscriptionInput))
      .mutation(({ ctx, input: { mode, ...input } }) => createSubscription(ctx.app, ctx.as(mode), input)),
    update: sessionProcedure
      .input(withMode(updateSubscriptionInput.extend(idInput.shape)))
      .mutation(({ ctx, input: { mode, id, ...input } }) =>
        updateSubscription(ctx.app, ctx.as(mode), id, input),
      ),
    delete: sessionProcedure
      .input(withMode(idInput))
      .mutation(({ ctx, input: { mode, id } }) => deleteSubscription(ctx.app, ctx.as(mode), id)),
    sendTest: sessionProcedure
      .input(withMode(idInput))
      .mutation(({ ctx, input: { mode, id } }) => testSubscription(ctx.app, ctx.as(mode), id)),
    rotateSecret: sessionProcedure
      .input(withMode(rotateSecretInput.extend(idInput.shape)))
      .mutation(({ ctx, input: { mode, id, ...input } }) => rotateSecret(ctx.app, ctx.as(mode), id, input)),
    recover: sessionProcedure
      .input(withMode(recoverDeliveriesInput.extend(idInput.shape)))
      .mutation(({ ctx, input: { mode, id, ...input } }) =>
        recoverDeliveries(ctx.app, ctx.as(mode), id, input),
      ),
  }),
  /** The result types a subscription can receive (the event catalogue), each with a summary, its description and an example `data`. */
  eventTypes: sessionProcedure.query(() =>
    webhookEventTypes().data.map(({ type, description, example }) => ({
      type,
      summary: catalogueSummary(type as CatalogueType),
      description,
      example,
    })),
  ),
  deliveries: router({
    list: sessionProcedure
      .input(withMode(listDeliveriesInput))
      .query(({ ctx, input: { mode, ...input } }) => listDeliveries(ctx.app, ctx.as(mode), input)),
    get: sessionProcedure
      .input(withMode(idInput))
      .query(({ ctx, input: { mode, id } }) => getDelivery(ctx.app, ctx.as(mode), id)),
    replay: sessionProcedure
      .input(withMode(idInput))
      .mutation(({ ctx, input: { mode, id } }) => replayDelivery(ctx.app, ctx.as(mode), id)),
  }),
});
