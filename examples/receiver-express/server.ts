/**
 * A webhook receiver for svc in Express that verifies every delivery with the `standardwebhooks`
 * library (docs/webhooks.md#verifying-a-delivery) before it trusts a byte of it: 204 once a
 * delivery is verified and handled, 400 when its signature (or timestamp) does not verify.
 *
 *   SVC_WEBHOOK_SECRET=whsec_… PORT=4000 node examples/receiver-express/server.ts
 *
 * then subscribe `https://<this host>/webhooks/svc`. test/receiver-example.test.ts runs it
 * against the service.
 */
import express from 'express';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from '../../clients/typescript/index.ts';

/** What `POST /v1/webhook-subscriptions/{id}/test` sends: signed like a delivery, not a result. */
export interface TestPing {
  id: string;
  type: 'webhook.test';
  tenant: string;
  created_at: string;
  data: { subscription_id: string; message: string };
}

export type Delivery = WebhookEvent | TestPing;

/**
 * The secret as the subscription answered it. A generated one (`whsec_` + base64) is what the
 * library expects as is; a secret you chose yourself is used as its raw bytes.
 */
export function verifierFor(secret: string): Webhook {
  return /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)
    ? new Webhook(secret)
    : new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
}

export function receiver(opts: {
  secret: string;
  /** Called once per delivery id; throw to answer 500 and have svc retry it later. */
  onDelivery: (delivery: Delivery) => void | Promise<void>;
}): express.Express {
  const webhook = verifierFor(opts.secret);
  // Deliveries are at least once (a retry, a replay, a recover): handle each id once. In
  // production this is a unique key in your database, written with what the delivery changes.
  const handled = new Set<string>();
  const app = express();

  // The raw bytes: the signature covers the body exactly as sent, so parse only after verifying.
  app.post('/webhooks/svc', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    let delivery: Delivery;
    try {
      delivery = webhook.verify(Buffer.isBuffer(req.body) ? req.body : '', {
        'webhook-id': req.get('webhook-id') ?? '',
        'webhook-timestamp': req.get('webhook-timestamp') ?? '',
        'webhook-signature': req.get('webhook-signature') ?? '',
      }) as Delivery;
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.status(400).json({ error: err.message });
      return;
    }
    if (!handled.has(delivery.id)) {
      await opts.onDelivery(delivery);
      handled.add(delivery.id);
    }
    res.status(204).end();
  });
  return app;
}

if (import.meta.main) {
  const secret = process.env.SVC_WEBHOOK_SECRET;
  if (!secret) throw new Error('set SVC_WEBHOOK_SECRET to the subscription’s secret');
  const port = Number(process.env.PORT ?? 4000);
  const app = receiver({
    secret,
    onDelivery(delivery) {
      if (delivery.type === 'points.changed')
        console.log(`${delivery.data.participant.external_id} now has ${delivery.data.balance} points`);
      else console.log(`${delivery.type} ${delivery.id}`);
    },
  });
  app.listen(port, () => console.log(`listening on http://localhost:${port}/webhooks/svc`));
}
