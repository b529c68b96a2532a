import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { assertEgressAllowed, EgressError } from '../../lib/egress.ts';
import { storableUrl, TEXT_LIMITS, text } from '../../lib/primitives.ts';
import { RESULT_TYPES } from '../outbox/emit.ts';
import { RESERVED_HEADERS } from './send.ts';
import { settableSubscriptionStatus, subscribedType } from './shapes.ts';

export const MAX_CUSTOM_HEADERS = 20;

const subscriptionUrl = storableUrl(TEXT_LIMITS.url, undefined, {
  description:
    'Public http/https destination. Checked by the egress guard now (a private, loopback, link-local or ' +
    'metadata address is a 422 on `url`, and it is never called) and again at every send.',
  examples: ['https://example.com/hooks/svc'],
});

/** Result types (docs/api.md#webhooks) or `*`; duplicates dropped, and `*` alone stands for all of them. */
const eventTypes = z
  .array(subscribedType)
  .min(1)
  .max(RESULT_TYPES.length + 1)
  .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)]))
  .meta({
    description: `Result types to receive (${RESULT_TYPES.join(', ')}), or \`["*"]\` for all.`,
    examples: [['points.changed', 'badge.awarded'], ['*']],
  });

const headerName = text(100)
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be an HTTP header name (token characters, ≤ 100)')
  .refine(
    (name) => !RESERVED_HEADERS.has(name.toLowerCase()) && !name.toLowerCase().startsWith('x-svc-'),
    'is set by the service on every delivery and cannot be overridden',
  );

const headers = z
  .record(headerName, text(1000).regex(/^[\t\x20-\x7E]*$/, 'printable ASCII, ≤ 1000 characters'))
  .refine((h) => Object.keys(h).length <= MAX_CUSTOM_HEADERS, `at most ${MAX_CUSTOM_HEADERS} headers`)
  .meta({
    description:
      'Custom headers sent with every delivery. Content-Type, User-Agent, Host, hop-by-hop headers, ' +
      '`X-Svc-*` and `webhook-id` / `webhook-timestamp` / `webhook-signature` are set by the service and ' +
      'refused here.',
    examples: [{ 'X-Team': 'growth' }],
  });

const description = text(500).nullable();

/** A caller-chosen signing secret (docs/webhooks.md#verifying-a-delivery for how each form is keyed). */
export const signingSecret = text(200)
  .regex(/^[\x21-\x7E]{8,200}$/, '8 to 200 printable characters, no spaces')
  .meta({
    description:
      'Signing secret. `whsec_<standard base64>` is keyed by its decoded bytes for `webhook-signature` ' +
      '(Standard Webhooks libraries take it as is); any other is keyed by its UTF-8 bytes (their raw-key ' +
      'option). `X-Svc-Signature` is keyed by the whole string. Omitted: a `whsec_…` one of 32 random bytes ' +
      'is generated.',
  });

export const createSubscriptionInput = z.strictObject({
  url: subscriptionUrl,
  event_types: eventTypes,
  secret: signingSecret.optional(),
  headers: headers.optional(),
  description: description.optional(),
});

export type CreateSubscriptionInput = z.output<typeof createSubscriptionInput>;

export const updateSubscriptionInput = z.strictObject({
  url: subscriptionUrl.optional(),
  event_types: eventTypes.optional(),
  headers: headers.optional(),
  description: description.optional(),
  status: settableSubscriptionStatus.optional().meta({
    description:
      'Pausing makes the pending deliveries `dead` at once; `active` resumes a paused subscription or ' +
      're-enables a disabled one (docs/webhooks.md#auto-disable) and sends new results again.',
  }),
});

export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionInput>;

/** The egress guard at subscription time; its refusal is a field error on `url`. */
export async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  try {
    await assertEgressAllowed(url, { allowCidrs: ctx.config.EGRESS_ALLOW_CIDRS });
  } catch (err) {
    if (err instanceof EgressError) throw validationError([{ field: 'url', message: err.message }]);
    throw err;
  }
}
