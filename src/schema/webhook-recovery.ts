import { recoverDeliveries, recoverDeliveriesInput } from '../services/webhooks/recover-deliveries.ts';
import { rotateSecret, rotateSecretInput } from '../services/webhooks/rotate-secret.ts';
import type { RecoveredDto, SecretRotatedDto } from '../services/webhooks/shapes.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { inCallersNames, serviceInput } from './names.ts';
import { mirror } from './shape.ts';

// A subscription's secret rotation and the recovery of its dead deliveries
// (docs/webhooks.md#rotation, docs/webhooks.md#recover), over the services REST calls.

const canWrite = { ability: 'webhooks:write' } as const;

const RotateWebhookSecretPayload = builder
  .objectRef<SecretRotatedDto>('RotateWebhookSecretPayload')
  .implement({
    fields: mirror((t) => ({
      secret: t.exposeString('secret', {
        description: 'The new signing secret. Shown only here; it cannot be read again.',
      }),
      previousExpiresAt: t.expose('previous_expires_at', {
        type: DateTimeScalar,
        description: 'When the replaced secret stops signing (now, when graceSeconds was 0).',
      }),
    })),
  });

const RecoverWebhookDeliveriesPayload = builder
  .objectRef<RecoveredDto>('RecoverWebhookDeliveriesPayload')
  .implement({
    fields: mirror((t) => ({
      recovered: t.exposeInt('recovered', { description: 'Dead deliveries put back to PENDING.' }),
    })),
  });

const RotateWebhookSecretInput = builder
  .inputType('RotateWebhookSecretInput', {
    fields: (t) => ({
      secret: t.string({
        description:
          'The new signing secret (8 to 200 printable characters); a `whsec_…` one is generated when omitted.',
      }),
      graceSeconds: t.int({
        description:
          'How long the replaced secret keeps signing beside the new one (0 to 604800 s, default 86400: a day). ' +
          '0 stops it at once.',
      }),
    }),
  })
  .validate(serviceInput(rotateSecretInput));

const RecoverWebhookDeliveriesInput = builder
  .inputType('RecoverWebhookDeliveriesInput', {
    fields: (t) => ({
      since: t.string({
        required: true,
        description:
          'Deliveries created at or after this ISO 8601 date-time (with offset), at most 14 days ago.',
      }),
      until: t.string({
        description: 'Deliveries created at or before this ISO 8601 date-time; default: now.',
      }),
    }),
  })
  .validate(serviceInput(recoverDeliveriesInput));

builder.mutationFields((t) => ({
  rotateWebhookSecret: t.field({
    type: RotateWebhookSecretPayload,
    description:
      'Replaces a subscription’s signing secret, like POST /v1/webhook-subscriptions/{id}/rotate-secret (needs ' +
      'webhooks:write). The old one keeps signing beside the new one for graceSeconds, so a receiver can switch ' +
      'without losing a delivery; at most 5 old secrets are kept. The new secret is returned only here.',
    authScopes: canWrite,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: RotateWebhookSecretInput }),
    },
    resolve: (_root, { id, input }, { app, who }) =>
      rotateSecret(app, who, String(id), input ?? rotateSecretInput.parse({})),
  }),
  recoverWebhookDeliveries: t.field({
    type: RecoverWebhookDeliveriesPayload,
    description:
      'Puts every DEAD delivery of the subscription created in [since, until] back to PENDING, oldest first, ' +
      'its attempt count reset, like POST /v1/webhook-subscriptions/{id}/recover (needs webhooks:write). ' +
      '`since` reaches back 14 days at most (older: a validation_error on it). A paused or disabled ' +
      'subscription is invalid_state: update its status to ACTIVE first.',
    authScopes: canWrite,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: RecoverWebhookDeliveriesInput, required: true }),
    },
    resolve: (_root, { id, input }, { app, who }) =>
      recoverDeliveries(app, who, String(id), input).catch(inCallersNames('input')),
  }),
}));
