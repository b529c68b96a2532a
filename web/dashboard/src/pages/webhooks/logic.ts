import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>['webhooks'];
export type Subscription = Outputs['subscriptions']['list']['data'][number];
export type Delivery = Outputs['deliveries']['list']['data'][number];
export type DeliveryDetail = Outputs['deliveries']['get'];
export type Attempt = DeliveryDetail['attempts'][number];
export type TestResult = Outputs['subscriptions']['sendTest'];
export type SecretRotated = Outputs['subscriptions']['rotateSecret'];
export type SubscriptionStatus = Subscription['status'];
export type DisabledReason = NonNullable<Subscription['disabled_reason']>;
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

/** Badge colours by subscription status: a status the service adds fails to compile here. */
export const SUBSCRIPTION_STATUS_COLOR: Record<SubscriptionStatus, string> = {
  active: 'teal',
  paused: 'gray',
  disabled: 'red',
};

/** Why the service disabled an endpoint, in a sentence (docs/webhooks.md#auto-disable). */
export const DISABLED_REASON_TEXT: Record<DisabledReason, string> = {
  failing: 'It kept failing: no delivery succeeded for days after a failed one.',
  gone: 'It answered 410 Gone, which asks senders to stop.',
};

/** What the endpoint's pause/resume button does in its status: a disabled one is re-enabled. */
export function toggleOf(status: SubscriptionStatus): { label: string; to: 'active' | 'paused' } {
  if (status === 'active') return { label: 'Pause', to: 'paused' };
  return { label: status === 'disabled' ? 'Re-enable' : 'Resume', to: 'active' };
}

/** How far back a recover reaches (the service refuses older: docs/webhooks.md#recover). */
export const RECOVER_MAX_DAYS = 14;
/** The longest grace an old secret gets, in hours (a week: docs/webhooks.md#rotation). */
export const MAX_GRACE_HOURS = 168;

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a `datetime-local` value in the browser's time zone. */
export function toLocalInput(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The recover form's values as the service's body: `datetime-local` values (browser time zone) as
 * ISO timestamps, `until` left out when empty. A missing or unreadable `since` is a field error
 * here; the service names the others (older than 14 days, `until` before `since`).
 */
export function recoverBody(
  since: string,
  until: string,
): { body: { since: string; until?: string } } | { errors: Record<string, string> } {
  const iso = (v: string) => {
    const d = new Date(v);
    return v && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
  };
  const s = iso(since);
  if (!s) return { errors: { since: 'Pick the time to recover from' } };
  if (!until) return { body: { since: s } };
  const u = iso(until);
  return u
    ? { body: { since: s, until: u } }
    : { errors: { until: 'Pick a time, or leave it empty for now' } };
}

/** The rotate form's grace in hours as the service's `grace_seconds`, or a field error. */
export function graceSecondsOf(hours: number | string): { grace_seconds: number } | { error: string } {
  const h = typeof hours === 'number' ? hours : Number(hours);
  if (hours === '' || !Number.isFinite(h) || h < 0 || h > MAX_GRACE_HOURS)
    return { error: `From 0 to ${MAX_GRACE_HOURS} hours (a week)` };
  return { grace_seconds: Math.round(h * 3600) };
}

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
