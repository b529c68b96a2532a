import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>['webhooks'];
export type Subscription = Outputs['subscriptions']['list']['data'][number];
export type Delivery = Outputs['deliveries']['list']['data'][number];
export type DeliveryDetail = Outputs['deliveries']['get'];
export type Attempt = DeliveryDetail['attempts'][number];
export type TestResult = Outputs['subscriptions']['sendTest'];
export type DeliveryStatus = Delivery['status'];
export type SubscribedType =
  inferRouterInputs<AppRouter>['webhooks']['subscriptions']['create']['event_types'][number];
export type ResultType = Exclude<SubscribedType, '*'>;

/**
 * What each result type means, for the subscription form. A `Record` over the router's own type,
 * so a result type added to the service fails to compile here until it is described.
 */
export const RESULT_TYPE_HELP: Record<ResultType, string> = {
  'points.changed': 'A ledger entry was written (award, adjustment, redemption, reversal, expiry)',
  'points.expiring': 'A lot of points expires soon (once per lot, the programme’s notice before)',
  'badge.awarded': 'A participant earned a badge (of any badge tier)',
  'tier.changed': 'A participant moved up or down the tier programme’s levels',
  'streak.extended': 'A participant extended a streak (once per period)',
  'streak.broken': 'A participant’s streak could no longer be saved',
  'referral.qualified':
    'A referred friend’s qualifying event: the friend is rewarded, the advocate’s points wait out the hold',
  'referral.rewarded': 'A referral’s hold ended: the advocate’s points became spendable',
  'reward.redeemed': 'A reward was redeemed',
  'flow.completed': 'A flow run finished',
  'message.sent': 'An e-mail or SMS was sent (or simulated in test mode)',
  'webhook.disabled': 'Another webhook subscription of this workspace was disabled (failing, or 410 Gone)',
};

export const RESULT_TYPES = Object.keys(RESULT_TYPE_HELP) as ResultType[];

/**
 * Badge colours by delivery status, a `Record` over the router's type: a status the service adds
 * fails to compile here. (The service's list itself lives in src/services/webhooks/shapes.ts,
 * which imports the outbox's server-only code, so the values cannot be imported from there.)
 */
export const DELIVERY_STATUS_COLOR: Record<DeliveryStatus, string> = {
  pending: 'yellow',
  succeeded: 'teal',
  dead: 'red',
  simulated: 'gray',
};

export const DELIVERY_STATUSES = Object.keys(DELIVERY_STATUS_COLOR) as DeliveryStatus[];

/** A status from the URL that the service's filter takes. */
export const isDeliveryStatus = (s: string | null): s is DeliveryStatus =>
  s !== null && Object.hasOwn(DELIVERY_STATUS_COLOR, s);

/** A dead or succeeded delivery can be sent again; pending and simulated ones cannot (docs/api.md#webhooks). */
export const canReplay = (status: DeliveryStatus) => status === 'dead' || status === 'succeeded';

/** The event types a form's checkboxes stand for: every type ticked, or "all", is `*`. */
export function eventTypesToSend(all: boolean, picked: readonly string[]): SubscribedType[] | null {
  if (all) return ['*'];
  const known = RESULT_TYPES.filter((t) => picked.includes(t));
  if (!known.length) return null;
  return known.length === RESULT_TYPES.length ? ['*'] : known;
}

/** `87 ms`, `1.2 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** An HTTP outcome in a few words: `200 OK`-style when a status came back, else the error. */
export function describeOutcome(statusCode: number | null, error: string | null): string {
  if (statusCode !== null) return error ? `HTTP ${statusCode}: ${error}` : `HTTP ${statusCode}`;
  return error ?? 'No response';
}
