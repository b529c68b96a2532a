import { defineEntity, p } from '@mikro-orm/core';
import { OutboxEvent } from '../outbox/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import type { DeliveryStatus, DisabledReason, SubscriptionStatus } from './shapes.ts';
import type { PreviousSecret } from './signing-secrets.ts';

/**
 * Where results are POSTed (docs/api.md#webhooks). Deleting one only marks it deleted: its
 * deliveries (and their attempts) stay readable in the delivery log.
 */
const WebhookSubscriptionSchema = defineEntity({
  name: 'WebhookSubscription',
  tableName: 'webhook_subscriptions',
  indexes: [{ name: 'webhook_subscriptions_list_idx', properties: ['workspace', 'mode', 'id'] }],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    url: p.text(),
    /** Result types (docs/api.md#webhooks), or `['*']` for all of them. */
    eventTypes: p.json<string[]>(),
    /** Custom headers sent with every delivery; ours always win over them. */
    headers: p.json<Record<string, string>>().default('{}'),
    description: p.string().length(500).nullable(),
    /** AES-256-GCM under SVC_SECRET: needed in plaintext to sign, so not hashed. */
    secretEnc: p.text(),
    /**
     * Secrets replaced by a rotation that still sign during their grace (docs/webhooks.md#rotation),
     * newest first, at most 5: `[{ secret_enc, expires_at }]`, encrypted like `secret_enc`, dropped
     * once expired.
     */
    previousSecrets: p.json<PreviousSecret[]>().default('[]'),
    status: p.string().length(16).$type<SubscriptionStatus>().default('active'),
    /** Why it was disabled (`failing` | `gone`), and when (docs/webhooks.md#auto-disable). */
    disabledReason: p.string().length(16).$type<DisabledReason>().nullable(),
    disabledAt: p.datetime().nullable(),
    /** The first failed attempt since the last success (or since creation); null after a success. */
    failingSince: p.datetime().nullable(),
    lastSuccessAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    deletedAt: p.datetime().nullable(),
  },
});
export class WebhookSubscription extends WebhookSubscriptionSchema.class {}
WebhookSubscriptionSchema.setClass(WebhookSubscription);

/**
 * One result for one subscription. `body` holds the exact bytes that are signed and sent, fixed
 * when the delivery is created, so every retry (and replay) sends the same bytes.
 */
const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  uniques: [{ name: 'webhook_deliveries_result_unique', properties: ['subscription', 'outbox'] }],
  indexes: [
    { name: 'webhook_deliveries_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'webhook_deliveries_subscription_idx', properties: ['subscription', 'id'] },
    // The outbox foreign key's cascade when the lifecycle deletes old outbox rows, and the
    // subject-access export's deliveries of one participant's results.
    { name: 'webhook_deliveries_outbox_idx', properties: ['outbox'] },
    // The dispatcher's claim: due pending deliveries, oldest due first (FOR UPDATE SKIP LOCKED).
    { name: 'webhook_deliveries_due_idx', properties: ['nextAttemptAt'], where: "status = 'pending'" },
  ],
  properties: {
    /** UUIDv7; also the body's `id` and the `X-Svc-Delivery-Id` header. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    subscription: () => p.manyToOne(WebhookSubscription).deleteRule('cascade'),
    outbox: () => p.manyToOne(OutboxEvent).deleteRule('cascade'),
    type: p.string().length(64),
    body: p.text(),
    /** `simulated`: test mode, never POSTed. */
    status: p.string().length(16).$type<DeliveryStatus>(),
    /** Attempts since creation or the last replay. */
    attemptCount: p.integer().default(0),
    /** When pending: when the next attempt is due (or, while one is in flight, when its lease ends). */
    nextAttemptAt: p.datetime().nullable(),
    /** Set while a dispatcher holds the delivery; only that claim may record the attempt's outcome. */
    claimToken: p.uuid().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);

/** One POST of a delivery and what came back (a delivery's `attempts`). */
const WebhookAttemptSchema = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  indexes: [{ name: 'webhook_attempts_delivery_idx', properties: ['delivery', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    delivery: () => p.manyToOne(WebhookDelivery).deleteRule('cascade'),
    /** 1-based within the delivery's current run (a replay starts again at 1). */
    number: p.integer(),
    attemptedAt: p.datetime(),
    statusCode: p.integer().nullable(),
    durationMs: p.integer(),
    /** At most the first 1 KiB of the response body. */
    responseSnippet: p.text().nullable(),
    error: p.text().nullable(),
  },
});
export class WebhookAttempt extends WebhookAttemptSchema.class {}
WebhookAttemptSchema.setClass(WebhookAttempt);
