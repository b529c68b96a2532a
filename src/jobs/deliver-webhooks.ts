import type { AppContext } from '../context.ts';
import { DeliveryDispatcher } from '../services/webhooks/dispatcher.ts';

/**
 * The webhook delivery worker: not a pg-boss queue (each delivery's schedule is its own indexed
 * `next_attempt_at`, claimed with SKIP LOCKED, woken by NOTIFY) but a long-running loop started
 * with the other workers. Returns its graceful stop.
 */
export async function startWebhookDelivery(ctx: AppContext): Promise<() => Promise<void>> {
  const dispatcher = new DeliveryDispatcher(ctx);
  await dispatcher.start();
  return () => dispatcher.stop();
}
