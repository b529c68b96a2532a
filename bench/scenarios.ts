import type { Request } from 'autocannon';
import type pg from 'pg';

/**
 * `service`: the API-role process (ingest alone); `all`: the default single-process deployment
 * (`svc serve`, role all), which also processes every event it accepts; `baseline`: the bare
 * insert server (bench/baseline.ts).
 */
export type TargetName = 'service' | 'all' | 'baseline';

export interface ScenarioContext {
  runId: string;
  /** A full-access test key of the bench workspace (the baseline ignores it). */
  apiKey: string;
}

export interface Scenario {
  name: string;
  /** Driven in this order; a `baseline` entry gives the service line its ratio. */
  targets: TargetName[];
  /** The request sequence each connection loops over; build bodies per request in `setupRequest`. */
  requests: (target: TargetName, ctx: ScenarioContext) => Request[];
  /** Rows the target has stored so far: after the run, the increase must cover every 2xx. */
  stored?: (target: TargetName, db: pg.Client) => Promise<number>;
  /** Work the target still owes once the load stops (events not yet processed); waited out and timed. */
  backlog?: (target: TargetName, db: pg.Client) => Promise<number>;
}

const EVENT_TYPES = ['order.completed', 'page.viewed', 'review.posted', 'referral.sent'];
const PARTICIPANTS = 1000;
let sequence = 0;

/**
 * A realistic ingest body; `i` is unique per request in the whole run. `type` and `prefix` name the
 * event type and the participants' ids (`<prefix>_<n>`, e-mail `<prefix>_<n>@example.com`, n below
 * `participants`).
 */
export function orderLikeBody(i: number, type: string, prefix: string, participants = PARTICIPANTS) {
  // 7919 is prime to 1000, so consecutive requests walk all participants in a scattered order.
  const p = (i * 7919) % participants;
  return {
    event_type: type,
    participant: { external_id: `${prefix}_${p}`, email: `${prefix}_${p}@example.com` },
    payload: {
      order_id: `ord_${i}`,
      amount_cents: 1000 + ((i * 37) % 9000),
      currency: 'EUR',
      items: 1 + (i % 5),
      channel: i % 3 === 0 ? 'app' : 'web',
    },
    occurred_at: new Date().toISOString(),
  };
}

const eventBody = (i: number) => orderLikeBody(i, EVENT_TYPES[i % EVENT_TYPES.length]!, 'user');

/**
 * `POST /v1/events` requests for autocannon: the i-th request of the run carries `body(i)` and
 * the idempotency key `<keyPrefix>-<i>`, unique per request, so every one is a first delivery.
 */
export const eventRequests = (apiKey: string, keyPrefix: string, body: (i: number) => unknown): Request[] => [
  {
    method: 'POST',
    path: '/v1/events',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    setupRequest: (req) => {
      const i = sequence++;
      return {
        ...req,
        headers: { ...req.headers, 'idempotency-key': `${keyPrefix}-${i}` },
        body: JSON.stringify(body(i)),
      };
    },
  },
];

const postEvents = (target: TargetName, ctx: ScenarioContext): Request[] =>
  eventRequests(ctx.apiKey, `bench-${ctx.runId}-${target}`, eventBody);

const storedEvents = async (target: TargetName, db: pg.Client) => {
  const table = target === 'baseline' ? 'baseline.events' : 'public.events';
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return rows[0]!.n;
};

export const scenarios: Scenario[] = [
  {
    name: 'events.post',
    targets: ['baseline', 'service'],
    requests: postEvents,
    stored: storedEvents,
  },
  {
    // The default deployment: one process (role all) ingests at 64 connections while its own
    // workers process every event it accepts (none of these types has a flow in the bench
    // workspace); the backlog must be gone within 2 s of the load stopping.
    name: 'events.post.all',
    targets: ['baseline', 'all'],
    requests: postEvents,
    stored: storedEvents,
    backlog: async (_target, db) => {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'events.process' and state < 'completed'`,
      );
      return rows[0]!.n;
    },
  },
];
