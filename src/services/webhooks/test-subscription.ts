import type { AppContext } from '../../context.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Principal } from '../keys/principal.ts';
import type { WebhookTestData } from '../outbox/result-shapes.ts';
import { findSubscription } from './repository.ts';
import { sendDelivery } from './send.ts';
import type { TestSendResult } from './shapes.ts';
import { SigningSecrets } from './signing-secrets.ts';

/**
 * Sends one real signed `webhook.test` POST to the subscription's URL now, through the egress
 * guard, with its custom headers and the same signature headers as a delivery (every secret in
 * its grace included) — in either mode, paused or disabled or not: it is an explicit check of
 * the receiver, not a result (results of test mode are never POSTed). Nothing is stored.
 */
export async function testSubscription(ctx: AppContext, who: Principal, id: string): Promise<TestSendResult> {
  const sub = await findSubscription(ctx.orm, who, id, { withSecret: true });
  const deliveryId = uuidv7();
  const body = JSON.stringify({
    id: deliveryId,
    type: 'webhook.test',
    tenant: who.workspaceSlug,
    created_at: new Date().toISOString(),
    data: {
      subscription_id: sub.id,
      message: 'A test delivery from svc: the signature verifies with your secret.',
    } satisfies WebhookTestData,
  });
  const outcome = await sendDelivery(
    {
      id: deliveryId,
      type: 'webhook.test',
      url: sub.url,
      secrets: new SigningSecrets(sub.secret_enc!, sub.previous_secrets!, ctx.config.secret).signing(),
      body,
      customHeaders: sub.headers,
    },
    { timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS, allowCidrs: ctx.config.EGRESS_ALLOW_CIDRS },
  );
  return {
    ok: outcome.ok,
    status_code: outcome.statusCode,
    response_snippet: outcome.responseSnippet,
    duration_ms: outcome.durationMs,
    error: outcome.error,
  };
}
