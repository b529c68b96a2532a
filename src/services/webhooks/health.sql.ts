// Raw SQL: the dispatcher's record of each subscription's failing streak (bench suites `webhooks` and
// `integrators`): one statement per turn that recorded attempts, except successes to subscriptions it
// found healthy, which it writes once a second (dispatcher.ts): `unnest` of the attempts, grouped per
// subscription. It runs on its own, after the turn committed, so it never holds delivery and
// subscription rows at once (a pause locks the subscription, then its deliveries).
import type { Sql } from '../../db/tx.ts';
import type { CompletedAttempt } from './turn.sql.ts';

/** Why a subscription is disabled (docs/webhooks.md#auto-disable). */
export type DisableReason = 'failing' | 'gone';

/**
 * $1–$4: each attempt's subscription, time, success and whether it answered 410; $5: the streak
 * length that disables (WEBHOOK_DISABLE_AFTER_SECONDS).
 *
 * `last_success_at` moves to the newest success; `failing_since` becomes the first failure after
 * that success (the one already recorded, or one of these attempts), or null when no failure
 * followed it. Old secrets past their grace are dropped here too (docs/webhooks.md#rotation).
 * Answers each subscription with whether it is now healthy (no failing streak) and, for an active
 * one to disable, why: it answered 410, or an attempt failed here while its streak is at least $5
 * seconds old. Rows are locked in id order, `for no key
 * update`: a transaction inserting deliveries holds `for key share` on their subscriptions (the
 * foreign key), which `for update` would wait on — and, taken in another order, deadlock with
 * (the chaos run found it: redemptions and adjustments failing with 40P01).
 */
const HEALTH_SQL = `
with o as (
  select * from unnest($1::uuid[], $2::timestamptz[], $3::boolean[], $4::boolean[]) as o(sub, at, ok, gone)
), k as (
  select sub, max(at) filter (where ok) as last_ok, bool_or(not ok) as failed, bool_or(gone) as gone
  from o group by sub
), l as (
  select s.id from webhook_subscriptions s join k on k.sub = s.id order by s.id for no key update of s
), upd as (
  update webhook_subscriptions s set
    last_success_at = greatest(s.last_success_at, k.last_ok),
    failing_since = (
      select min(f) from (
        select s.failing_since as f
        union all select o.at from o where o.sub = s.id and not o.ok
      ) streak
      where f > coalesce(greatest(s.last_success_at, k.last_ok), '-infinity'::timestamptz)),
    previous_secrets = case when s.previous_secrets = '[]'::jsonb then s.previous_secrets
                            when jsonb_typeof(s.previous_secrets) <> 'array' then '[]'::jsonb else
      coalesce((select jsonb_agg(e order by i) from jsonb_array_elements(s.previous_secrets) with ordinality p(e, i)
                where (e->>'expires_at')::timestamptz > now()), '[]'::jsonb) end
  from k where s.id = k.sub and s.id in (select id from l)
  returning s.id, s.status, s.deleted_at, s.failing_since, k.failed, k.gone
)
select id, failing_since is null as healthy,
       case when status = 'active' and deleted_at is null
             and (gone or (failed and failing_since <= now() - make_interval(secs => $5::double precision)))
            then case when gone then 'gone' else 'failing' end end as reason
from upd
order by id`;

/** A subscription after its attempts were recorded: healthy (no failing streak), or to disable and why. */
export interface Health {
  id: string;
  healthy: boolean;
  reason: DisableReason | null;
}

/**
 * Records the attempts' outcomes on their subscriptions (docs/webhooks.md#auto-disable) and
 * answers each subscription's health, with why it must now be disabled, if it must.
 */
export async function recordHealth(
  sql: Sql,
  attempts: readonly CompletedAttempt[],
  disableAfterSeconds: number,
): Promise<Health[]> {
  if (!attempts.length) return [];
  const { rows } = await sql.query<Health>(HEALTH_SQL, [
    attempts.map((a) => a.subscriptionId),
    attempts.map((a) => a.attemptedAt),
    attempts.map((a) => a.outcome.ok),
    attempts.map((a) => a.outcome.statusCode === 410),
    disableAfterSeconds,
  ]);
  return rows;
}
