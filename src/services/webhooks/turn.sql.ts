// Raw SQL: the webhook dispatcher's turn (bench suite `webhooks`): due deliveries claimed `for update skip
// locked` in batches, outcomes written with `unnest`, in one statement on a connection of its own.
import pg from 'pg';
import type { Logger } from 'pino';
import { type Sql, survivePoolClientErrors } from '../../db/tx.ts';
import type { AttemptOutcome } from './send.ts';
import type { PreviousSecret } from './signing-secrets.ts';

/** A claimed delivery, with what its send needs from its subscription. */
export interface Claimed {
  id: string;
  type: string;
  body: string;
  attempt_count: number;
  status: string;
  subscription_id: string;
  url: string;
  secret_enc: string;
  /** Old secrets of a rotation, newest first; the expired ones are skipped when signing. */
  previous_secrets: PreviousSecret[];
  headers: Record<string, string>;
}

/** A row of TURN_SQL: `c` a claimed delivery, `d` a recorded one now dead, `n` the next due time. */
export interface TurnRow extends Claimed {
  k: 'c' | 'd' | 'n';
  ms: number | null;
  /** A claimed delivery's place in the claim, oldest due first (the UPDATE returns rows in any order). */
  pos: number | null;
}

/** An attempt's outcome, to be recorded by the next turn under the claim it was made with. */
export interface CompletedAttempt {
  id: string;
  subscriptionId: string;
  token: string;
  outcome: AttemptOutcome;
  attemptedAt: Date;
  /** Seconds until the next attempt, or null when this was the last rung (the delivery dies). */
  retryInS: number | null;
}

/**
 * The turn statement. $1–$9: the outcomes to record (columns of `r`); $10: how many to claim;
 * $11: the claim token; $12: the lease in ms; $13: subscriptions at their cap (not claimed).
 *
 * - `u` writes each outcome, only where the claim is still ours (`claim_token`); `a` logs the
 *   attempt with its number.
 * - `q` picks due deliveries with SKIP LOCKED, oldest due first, never one being recorded here;
 *   `c` claims them: `= any((select ids from q)::uuid[])` keeps the UPDATE on the primary key (joined to
 *   a relation instead, the planner seq-scans the whole table), and `pos` is each one's place in
 *   `q`, since the UPDATE returns rows in no set order. A delivery whose subscription is no longer
 *   active dies.
 * - `n`, only when the claim came back short: milliseconds until the next pending delivery is due.
 *   The statement sees the rows as they were before it, so just-claimed ones are excluded and
 *   retries scheduled by `u` are added by the caller.
 */
const TURN_SQL = `
with r as (
  select * from unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::int[], $5::int[], $6::text[],
                       $7::text[], $8::timestamptz[], $9::int[])
    as r(id, token, ok, status_code, duration_ms, snippet, error, attempted_at, retry_in_s)
), u as (
  update webhook_deliveries d set
    attempt_count = d.attempt_count + 1,
    status = case when r.ok then 'succeeded' when d.status <> 'pending' then d.status
                  when r.retry_in_s is null then 'dead' else 'pending' end,
    next_attempt_at = case when not r.ok and d.status = 'pending' and r.retry_in_s is not null
                           then now() + make_interval(secs => r.retry_in_s) end,
    claim_token = null,
    last_attempt_at = r.attempted_at,
    last_status_code = r.status_code,
    -- Killed (paused, deleted) while this attempt was in flight: the reason it died stays.
    last_error = case when not r.ok and d.status <> 'pending' then d.last_error else r.error end,
    updated_at = now()
  from r where d.id = r.id and d.claim_token = r.token
  returning d.id, d.status, d.attempt_count
), a as (
  insert into webhook_attempts (delivery_id, number, attempted_at, status_code, duration_ms, response_snippet, error)
  select r.id, u.attempt_count, r.attempted_at, r.status_code, r.duration_ms, r.snippet, r.error
  from u join r on r.id = u.id
), q as (
  select array(
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= now()
      and subscription_id <> all($13::uuid[]) and id <> all($1::uuid[])
    order by next_attempt_at limit $10
    for update skip locked) as ids
), c as (
  update webhook_deliveries d set
    claim_token = $11,
    next_attempt_at = now() + make_interval(secs => $12::double precision / 1000),
    status = case when s.status = 'active' and s.deleted_at is null then d.status else 'dead' end,
    last_error = case when s.status = 'active' and s.deleted_at is null then d.last_error
                 else 'subscription ' || case when s.deleted_at is null then s.status else 'deleted' end end,
    updated_at = now()
  from webhook_subscriptions s
  where d.id = any((select ids from q)::uuid[])
    and s.id = d.subscription_id
  returning d.id, d.type, d.body, d.attempt_count, d.status, s.id as subscription_id, s.url,
            s.secret_enc, s.previous_secrets, s.headers, array_position((select ids from q), d.id) as pos
)
select 'c' as k, id, type, body, attempt_count, status, subscription_id, url, secret_enc, previous_secrets,
       headers, null::float8 as ms, pos
from c
union all
select 'd', id, null, null, attempt_count, status, null, null, null, null, null, null, null
from u where status = 'dead'
union all
select 'n', null, null, null, null, null, null, null, null, null, null,
       case when (select count(*) from c) < $10 then
         (select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8
          from webhook_deliveries
          where status = 'pending' and subscription_id <> all($13::uuid[])
            and id not in (select id from c))
       end, null`;

/** What one turn records and claims. */
export interface Turn {
  /** Outcomes to record, in id order (as a pause locks them: fewer deadlocks with it). */
  record: CompletedAttempt[];
  /** How many due deliveries to claim at most. */
  limit: number;
  token: string;
  leaseMs: number;
  /** Subscriptions at their cap: not claimed from. */
  skipSubscriptions: string[];
}

/** Runs one turn: records the outcomes and claims due deliveries, in one statement. */
export async function runTurn(db: Sql, turn: Turn): Promise<TurnRow[]> {
  const col = <T>(f: (c: CompletedAttempt) => T) => turn.record.map(f);
  const { rows } = await db.query<TurnRow>(TURN_SQL, [
    col((c) => c.id),
    col((c) => c.token),
    col((c) => c.outcome.ok),
    col((c) => c.outcome.statusCode),
    col((c) => c.outcome.durationMs),
    col((c) => c.outcome.responseSnippet),
    col((c) => c.outcome.error),
    col((c) => c.attemptedAt),
    col((c) => c.retryInS),
    turn.limit,
    turn.token,
    turn.leaseMs,
    turn.skipSubscriptions,
  ]);
  return rows;
}

/**
 * Hands claimed, unsent deliveries back: due now, for whichever worker claims next, a microsecond
 * apart in the order given (the order they were claimed), so the oldest-due-first claim keeps
 * their order (a recover's oldest first, docs/webhooks.md#recover).
 */
export async function releaseClaims(sql: Sql, unsent: { id: string; token: string }[]): Promise<void> {
  await sql.query(
    `update webhook_deliveries d set claim_token = null, updated_at = now(),
       next_attempt_at = now() + make_interval(secs => (u.n - 1) / 1e6)
     from unnest($1::uuid[], $2::uuid[]) with ordinality as u(id, token, n)
     where d.id = u.id and d.claim_token = u.token and d.status = 'pending'`,
    [unsent.map((u) => u.id), unsent.map((u) => u.token)],
  );
}

/** The dispatcher's own connection for its turn statement. */
export type TurnPool = Sql & { end(): Promise<void> };

/**
 * One connection for the turns, with bitmap scans off: without fresh statistics (a new or
 * just-filled table) the planner would read and sort every due row to return the first few; the
 * ordered walk of the due index stops after `limit` rows.
 */
export function openTurnPool(connectionString: string | undefined, log: Logger): TurnPool {
  const pool = new pg.Pool({
    connectionString,
    max: 1,
    idleTimeoutMillis: 30_000,
    options: '-c enable_bitmapscan=off',
  });
  pool.on('error', (err) => log.warn({ err }, 'webhook dispatcher: idle connection error'));
  survivePoolClientErrors(pool, (err) => log.warn({ err }, 'webhook dispatcher: connection lost'));
  return pool;
}
