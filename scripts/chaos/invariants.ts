import type pg from 'pg';
import type { LoadRecord } from './load.ts';
import type { Receipt, ReceiverKind } from './stubs.ts';

export interface Verdict {
  invariant: string;
  held: boolean;
  [k: string]: unknown;
}

export interface CheckInput {
  db: pg.Client;
  workspaceId: string;
  rec: LoadRecord;
  rewardIds: { code: number; counted: number; external: number };
  /** GET /v1/rewards/{id}.stock_remaining as the API answers it after the run. */
  apiStock: { code: number | null; counted: number | null; external: number | null };
  counted: { stock: number };
  external: { stock: number };
  subscriptions: Record<ReceiverKind, string>;
  /** The subscription that was paused and resumed (its deliveries may be dead early or missing). */
  pausable: ReceiverKind;
  ladder: number;
  receipts: Map<string, Receipt>;
  partnerIssued: Map<string, string>;
  smtp: Map<string, number>;
  fiveXX: { at: number; status: number; what: string }[];
  restartWindows: { from: number; to: number }[];
  graceMs: number;
  unexpectedExits: { name: string; code: number | null; signal: string | null; at: number }[];
  /**
   * The points lifecycle of the run: the scope (`<flow id>:<action index>`) and daily maximum of
   * the capped award, the programme's daily cap, and how long past its due time a lot or a grant
   * may still be open when checked (the tick runs every second on each worker).
   */
  points: { actionScope: string; actionCap: number; programCap: number; graceS: number };
  /**
   * The tier programme of the run (a rolling window, a grace, one level down per review): its
   * levels in order, the window and the grace, and how long past its time a window credit or a
   * review may still be waiting when checked.
   */
  tiers: { levels: { key: string; threshold: number }[]; windowS: number; graceS: number; dueGraceS: number };
  /**
   * Streaks, achievements and inactivity (docs/engagement.md): the achievement counted over all
   * time (every participant its events reach holds it), the inactivity flow and how long a
   * participant is idle before it runs, and how long past its time a streak or a spell may still
   * wait when checked.
   */
  engagement: { allTimeAchievement: string; idleFlowId: string; idleAfterS: number; dueGraceS: number };
  /**
   * The referral programme of the run (docs/referrals.md): the friend's points (one action, key
   * `referral:<id>:friend:0`) and the advocate's (one grant), its advocate limit per day, and how
   * long past its time a referral may still wait for the job when checked.
   */
  referrals: { friendPoints: number; advocatePoints: number; limit: number; dueGraceS: number };
}

const n = (v: unknown) => Number(v ?? 0);

async function one<T extends Record<string, unknown>>(
  db: pg.Client,
  text: string,
  values: unknown[],
): Promise<T> {
  return (await db.query<T>(text, values)).rows[0]!;
}

/** Every invariant of the run, checked against the database and what the load and stubs recorded. */
export async function checkInvariants(c: CheckInput): Promise<Verdict[]> {
  const { db, workspaceId: ws } = c;
  const out: Verdict[] = [];
  const accepted = [...c.rec.acceptedEvents];

  // 1. Every 202'd event processed exactly once: stored, processed, one run per matching flow,
  //    one award per run (a ledger credit, a pending grant, or a step a cap cut to nothing, whose
  //    run is `skipped` when nothing else of it ran), one message per purchase, at most one badge
  //    award per event. Replays of quarantined events (all of them, the bulk replays' too) count
  //    as accepted; a quarantined event is never processed and has no effect (why it is
  //    quarantined, and its replays: invariant 24).
  {
    const r = await processedOnce(db, ws, accepted, true);
    const keyed = [...c.rec.eventIdsByKey.values()];
    const dupKeys = await one(
      db,
      `select count(*) as n from (select idempotency_key from events where workspace_id = $1 and idempotency_key is not null
        group by mode, idempotency_key having count(*) > 1) x`,
      [ws],
    );
    const badgesTwice = await one(
      db,
      `select count(*) as n from (select 1 from participant_badges where workspace_id = $1 group by participant_id, badge_id, tier having count(*) > 1) x`,
      [ws],
    );
    const v = {
      ...r,
      badge_awarded_twice: r.badge_awarded_twice + n(badgesTwice.n),
      keys: keyed.length,
      keys_answered_with_two_event_ids: keyed.filter((s) => s.size > 1).length,
      keys_stored_twice: n(dupKeys.n),
    };
    out.push({
      invariant: 'events_processed_exactly_once',
      held:
        v.accepted > 0 &&
        v.processed === v.accepted - v.quarantined &&
        v.wrong_run_count + v.runs_not_completed + v.wrong_award_count + v.wrong_message_count === 0 &&
        v.quarantined_with_effects === 0 &&
        v.badge_awarded_twice + v.keys_answered_with_two_event_ids + v.keys_stored_twice === 0,
      ...v,
    });
  }

  // 2. For every participant: balance = Σ ledger ≥ 0 (and never negative on the way), and
  //    lifetime_points = credits (flows, adjustments) minus the reversals of such credits.
  {
    const r = await one(
      db,
      `with per as (
         select p.id, p.balance, p.lifetime_points,
           coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id), 0) as sum,
           coalesce((select min(balance_after) from ledger_entries l where l.participant_id = p.id), 0) as min_after,
           coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id and l.points > 0
                       and l.source in ('flow', 'adjustment')), 0)
           - coalesce((select sum(o.points) from ledger_entries l join ledger_entries o on o.id = l.reverses_entry_id
                        where l.participant_id = p.id and o.points > 0 and o.source in ('flow', 'adjustment')), 0) as lifetime
         from participants p where p.workspace_id = $1)
       select count(*) as participants, coalesce(sum(balance), 0) as total_balance,
         count(*) filter (where balance <> sum) as balance_not_sum,
         count(*) filter (where balance < 0) as negative,
         count(*) filter (where min_after < 0) as went_negative,
         count(*) filter (where lifetime_points <> lifetime) as lifetime_wrong
       from per`,
      [ws],
    );
    const entries = await one(
      db,
      `select count(*) as n, count(*) filter (where reverses_entry_id is not null) as reversals,
         (select count(*) from (select 1 from ledger_entries where workspace_id = $1 and reverses_entry_id is not null
            group by reverses_entry_id having count(*) > 1) x) as reversed_twice
       from ledger_entries where workspace_id = $1`,
      [ws],
    );
    const v = {
      participants: n(r.participants),
      ledger_entries: n(entries.n),
      reversal_entries: n(entries.reversals),
      total_balance: n(r.total_balance),
      balance_not_sum: n(r.balance_not_sum),
      negative: n(r.negative),
      went_negative: n(r.went_negative),
      lifetime_wrong: n(r.lifetime_wrong),
      reversed_twice: n(entries.reversed_twice),
    };
    out.push({
      invariant: 'balance_is_ledger_sum_and_lifetime_is_credits_minus_reversed',
      held:
        v.participants > 0 &&
        v.balance_not_sum + v.negative + v.went_negative + v.lifetime_wrong + v.reversed_twice === 0,
      ...v,
    });
  }

  // 3. No code handed out twice and stock = unredeemed codes; a counted reward's stock = its
  //    initial units minus its live redemptions.
  {
    const code = await one(
      db,
      `select
         (select count(*) from reward_codes where reward_id = $1) as codes,
         (select count(*) from reward_codes where reward_id = $1 and redemption_id is null) as free,
         (select count(*) from redemptions where reward_id = $1 and status <> 'cancelled') as redeemed,
         (select count(*) from reward_codes where reward_id = $1 and redemption_id is not null) as claimed,
         (select count(*) from (select redemption_id from reward_codes where redemption_id is not null
            group by redemption_id having count(*) > 1) x) as two_codes_one_redemption,
         (select count(*) from (select fulfilment->>'code' from redemptions where reward_id = $1 and status <> 'cancelled'
            group by 1 having count(*) > 1) x) as code_in_two_redemptions,
         (select count(*) from redemptions x left join reward_codes c on c.redemption_id = x.id
           where x.reward_id = $1 and x.status <> 'cancelled' and (c.code is null or c.code <> x.fulfilment->>'code')) as code_mismatch,
         (select stock_remaining from rewards where id = $1) as stock_remaining`,
      [c.rewardIds.code],
    );
    const counted = await one(
      db,
      `select (select stock_remaining from rewards where id = $1) as stock_remaining,
         (select count(*) from redemptions where reward_id = $1 and status <> 'cancelled') as redeemed`,
      [c.rewardIds.counted],
    );
    const v = {
      codes: n(code.codes),
      codes_redeemed: n(code.redeemed),
      codes_claimed: n(code.claimed),
      codes_free: n(code.free),
      code_stock_api: c.apiStock.code,
      two_codes_one_redemption: n(code.two_codes_one_redemption),
      code_in_two_redemptions: n(code.code_in_two_redemptions),
      code_mismatch: n(code.code_mismatch),
      counted_stock: c.counted.stock,
      counted_redeemed: n(counted.redeemed),
      counted_stock_remaining: n(counted.stock_remaining),
      counted_stock_api: c.apiStock.counted,
    };
    out.push({
      invariant: 'no_code_twice_and_stock_matches',
      held:
        v.codes_redeemed === v.codes_claimed &&
        v.code_stock_api === v.codes_free &&
        v.codes_free + v.codes_claimed === v.codes &&
        v.two_codes_one_redemption + v.code_in_two_redemptions + v.code_mismatch === 0 &&
        v.counted_stock_remaining === v.counted_stock - v.counted_redeemed &&
        v.counted_stock_remaining >= 0 &&
        v.counted_stock_api === v.counted_stock_remaining,
      ...v,
    });
  }

  // 4. No idempotency key charged twice: one ledger entry / redemption per key, every answer
  //    to a key names the same object, one debit per redemption.
  {
    const r = await one(
      db,
      `select
        (select count(*) from (select 1 from ledger_entries where workspace_id = $1 and source = 'adjustment'
           and idempotency_key is not null group by mode, idempotency_key having count(*) > 1) x) as adjust_keys_twice,
        (select count(*) from (select 1 from redemptions where workspace_id = $1 and idempotency_key is not null
           group by mode, idempotency_key having count(*) > 1) x) as redeem_keys_twice,
        (select count(*) from redemptions x where x.workspace_id = $1 and
           (select count(*) from ledger_entries l where l.participant_id = x.participant_id and l.source = 'redemption'
              and l.reference = x.id::text) <> 1) as redemptions_not_debited_once,
        (select count(*) from redemptions where workspace_id = $1) as redemptions`,
      [ws],
    );
    const adj = [...c.rec.entryIdsByKey.values()];
    const red = [...c.rec.redemptionIdsByKey.values()];
    const v = {
      adjust_keys: adj.length,
      adjust_keys_answered_with_two_entries: adj.filter((s) => s.size > 1).length,
      adjust_keys_stored_twice: n(r.adjust_keys_twice),
      redeem_keys: red.length,
      redeem_keys_answered_with_two_redemptions: red.filter((s) => s.size > 1).length,
      redeem_keys_stored_twice: n(r.redeem_keys_twice),
      redemptions: n(r.redemptions),
      redemptions_not_debited_once: n(r.redemptions_not_debited_once),
    };
    out.push({
      invariant: 'no_idempotency_key_charged_twice',
      held:
        v.adjust_keys > 0 &&
        v.redeem_keys > 0 &&
        v.adjust_keys_answered_with_two_entries +
          v.adjust_keys_stored_twice +
          v.redeem_keys_answered_with_two_redemptions +
          v.redeem_keys_stored_twice +
          v.redemptions_not_debited_once ===
          0,
      ...v,
    });
  }

  // 5. Every external redemption fulfilled (with the partner's code for its reference) or
  //    cancelled with its debit reversed; none stuck.
  {
    const { rows } = await db.query<{
      id: string;
      status: string;
      reference: string;
      code: string | null;
      reversed: string;
    }>(
      `select x.id, x.status, x.reference, x.fulfilment->>'code' as code,
         (select count(*) from ledger_entries l join ledger_entries d on d.id = l.reverses_entry_id
           where d.source = 'redemption' and d.reference = x.id::text) as reversed
       from redemptions x where x.reward_id = $1`,
      [c.rewardIds.external],
    );
    const stock = await one(db, `select stock_remaining from rewards where id = $1`, [c.rewardIds.external]);
    const fulfilled = rows.filter((x) => x.status === 'fulfilled');
    const cancelled = rows.filter((x) => x.status === 'cancelled');
    const v = {
      external_redemptions: rows.length,
      fulfilled: fulfilled.length,
      cancelled: cancelled.length,
      stuck: rows.length - fulfilled.length - cancelled.length,
      fulfilled_but_reversed: fulfilled.filter((x) => n(x.reversed) !== 0).length,
      fulfilled_with_wrong_code: fulfilled.filter((x) => c.partnerIssued.get(x.reference) !== x.code).length,
      cancelled_without_one_reversal: cancelled.filter((x) => n(x.reversed) !== 1).length,
      stock_wrong: n(stock.stock_remaining) === c.external.stock - fulfilled.length ? 0 : 1,
    };
    out.push({
      invariant: 'external_redemptions_settled',
      held:
        v.external_redemptions > 0 &&
        v.stuck +
          v.fulfilled_but_reversed +
          v.fulfilled_with_wrong_code +
          v.cancelled_without_one_reversal +
          v.stock_wrong ===
          0,
      ...v,
    });
  }

  // 6. Every committed result has its deliveries (one per active subscription), every ledger
  //    entry its points.changed and every run its flow.completed; every succeeded delivery reached
  //    its receiver by id with a valid signature; the others are on their ladder (pending with
  //    attempts left, or dead after the whole ladder, or dead because their subscription paused).
  {
    const steady = (Object.keys(c.subscriptions) as ReceiverKind[]).filter((k) => k !== c.pausable);
    const r = await one(
      db,
      `with d as (
         select outbox_id, count(*) filter (where subscription_id = any($2::uuid[])) as steady,
                count(*) filter (where subscription_id = $4) as paused
           from webhook_deliveries where workspace_id = $1 group by outbox_id),
       pc as (select (data->'entry'->>'id')::bigint as id, count(*) as n from outbox
               where workspace_id = $1 and type = 'points.changed' group by 1),
       fc as (select data->>'flow_run_id' as id, count(*) as n from outbox
               where workspace_id = $1 and type = 'flow.completed' group by 1)
       select
        (select count(*) from outbox where workspace_id = $1) as results,
        (select count(*) from outbox o left join d on d.outbox_id = o.id
          where o.workspace_id = $1 and coalesce(d.steady, 0) <> $3) as steady_missing,
        (select count(*) from d where paused > 1) as paused_twice,
        (select count(*) from ledger_entries l left join pc on pc.id = l.id
          where l.workspace_id = $1 and coalesce(pc.n, 0) <> 1) as entries_without_one_result,
        (select count(*) from flow_runs fr left join fc on fc.id = fr.id::text
          where fr.workspace_id = $1 and coalesce(fc.n, 0) <> 1
            and not (fr.spell_at is not null and fr.status = 'skipped' and fr.steps = '[]'))
          as runs_without_one_result,
        (select count(*) from fc where not exists (select 1 from flow_runs fr where fr.id::text = fc.id))
          as results_without_run`,
      [ws, steady.map((k) => c.subscriptions[k]), steady.length, c.subscriptions[c.pausable]],
    );
    const { rows } = await db.query<{
      id: string;
      subscription_id: string;
      status: string;
      attempt_count: number;
      next_attempt_at: Date | null;
    }>(
      `select id, subscription_id, status, attempt_count, next_attempt_at from webhook_deliveries where workspace_id = $1`,
      [ws],
    );
    const pausedId = c.subscriptions[c.pausable];
    const ids = new Set(rows.map((d) => d.id));
    const by = (s: string) => rows.filter((d) => d.status === s);
    const succeeded = by('succeeded');
    const pending = by('pending');
    const dead = by('dead');
    let invalidSignatures = 0;
    let idMismatch = 0;
    let received = 0;
    for (const rc of c.receipts.values()) {
      invalidSignatures += rc.invalid;
      idMismatch += rc.idMismatch;
      received += rc.valid + rc.invalid;
    }
    const v = {
      results: n(r.results),
      deliveries: rows.length,
      succeeded: succeeded.length,
      pending: pending.length,
      dead: dead.length,
      requests_received: received,
      steady_subscription_missing_or_extra: n(r.steady_missing),
      paused_subscription_twice: n(r.paused_twice),
      ledger_entries_without_one_result: n(r.entries_without_one_result),
      runs_without_one_result: n(r.runs_without_one_result),
      results_without_run: n(r.results_without_run),
      succeeded_not_received_valid: succeeded.filter((d) => {
        const rc = c.receipts.get(d.id);
        return !rc || rc.valid === 0 || rc.answered2xx === 0;
      }).length,
      pending_off_ladder: pending.filter((d) => d.attempt_count > c.ladder || d.next_attempt_at === null)
        .length,
      dead_before_ladder_end: dead.filter(
        (d) => d.subscription_id !== pausedId && d.attempt_count < c.ladder + 1,
      ).length,
      other_status: rows.length - succeeded.length - pending.length - dead.length,
      invalid_signatures: invalidSignatures,
      body_id_mismatch: idMismatch,
      unknown_delivery_ids: [...c.receipts.keys()].filter((id) => !ids.has(id)).length,
    };
    out.push({
      invariant: 'results_delivered_signed_or_on_ladder',
      held:
        v.results > 0 &&
        v.succeeded > 0 &&
        v.steady_subscription_missing_or_extra +
          v.paused_subscription_twice +
          v.ledger_entries_without_one_result +
          v.runs_without_one_result +
          v.results_without_run +
          v.succeeded_not_received_valid +
          v.pending_off_ladder +
          v.dead_before_ladder_end +
          v.other_status +
          v.invalid_signatures +
          v.body_id_mismatch +
          v.unknown_delivery_ids ===
          0,
      ...v,
    });
  }

  // 7. No message sent twice (by Message-ID at the SMTP server); every `sent` one arrived; none
  //    left pending.
  {
    const { rows } = await db.query<{ id: string; status: string }>(
      `select id, status from messages where workspace_id = $1`,
      [ws],
    );
    const sent = rows.filter((m) => m.status === 'sent');
    const sentIds = new Set(sent.map((m) => `${m.id}@svc.messages`));
    const v = {
      messages: rows.length,
      sent: sent.length,
      smtp_mails: [...c.smtp.values()].reduce((a, b) => a + b, 0),
      sent_twice: [...c.smtp.values()].filter((x) => x > 1).length,
      sent_not_received: sent.filter((m) => !c.smtp.has(`${m.id}@svc.messages`)).length,
      received_not_sent: [...c.smtp.keys()].filter((k) => !sentIds.has(k)).length,
      pending: rows.filter((m) => m.status === 'pending').length,
      failed: rows.filter((m) => m.status === 'failed').length,
      skipped: rows.filter((m) => m.status === 'skipped').length,
    };
    out.push({
      invariant: 'no_message_sent_twice',
      held: v.sent > 0 && v.sent_twice + v.sent_not_received + v.pending === 0,
      ...v,
    });
  }

  // 8. No 5xx outside the Postgres restart window (plus a grace period).
  {
    const inWindow = (at: number) => c.restartWindows.some((w) => at >= w.from && at <= w.to + c.graceMs);
    const outside = c.fiveXX.filter((f) => !inWindow(f.at));
    out.push({
      invariant: 'no_5xx_outside_postgres_restart',
      held: outside.length === 0,
      total_5xx: c.fiveXX.length,
      in_restart_window: c.fiveXX.length - outside.length,
      outside_window: outside.length,
      outside_examples: outside.slice(0, 5),
    });
  }
  // 9. No process died of anything but our SIGKILLs (a Postgres restart is survived in place).
  out.push({
    invariant: 'processes_die_only_when_killed',
    held: c.unexpectedExits.length === 0,
    unexpected_exits: c.unexpectedExits.length,
    examples: c.unexpectedExits.slice(0, 5),
  });
  out.push(
    await balanceIsOpenLots(c),
    await lotsExpireOnce(c),
    await grantsActivateOnce(c),
    await capsHold(c),
    await tierPointsAreWindowCredits(c),
    await tierLevelsAllowed(c),
    await tierMovesRecordedOnce(c),
    await tierHistoryChains(c),
    await streaksAreTheirHistory(c),
    await achievementsAwardedOnce(c),
    await idleSpellsRunOnce(c),
    await referralEffectsOnce(c),
    await noClawedBackRewardCredited(c),
    await referralGuardsHold(c),
    await quarantinedReplayedOnce(c),
    await batchEventsOnce(c),
  );
  return out;
}

/**
 * Invariant 1's per-event checks over `ids` (and, with `replays`, every replay event of the
 * workspace): stored, processed, one run per flow of its type (completed, or skipped when a cap
 * cut its only award), one award per processed event, one message per processed purchase, at
 * most one badge award; a quarantined one neither processed nor with any run, award or message.
 */
async function processedOnce(
  db: pg.Client,
  ws: string,
  ids: string[],
  replays: boolean,
): Promise<EffectsOnce> {
  const r = await one(
    db,
    `with acc as (select distinct id from (select unnest($2::uuid[]) as id
                    union all select id from events where workspace_id = $1 and replay_of is not null and $3) x),
     flows as (select event_type, count(*) as n from flows where workspace_id = $1 and deleted_at is null group by 1),
     runs as (select event_id, count(*) as n,
                     count(*) filter (where status <> 'completed'
                       and not (status = 'skipped' and steps @> '[{"status": "capped"}]')) as bad,
                     sum((select count(*) from jsonb_array_elements(steps) st where st->>'status' = 'capped')) as capped
                from flow_runs where workspace_id = $1 group by 1),
     credits as (select split_part(idempotency_key, ':', 1) as eid, count(*) as n from ledger_entries
                  where workspace_id = $1 and source = 'flow' group by 1),
     -- An advocate's referral grant names the friend's qualifying event: not that event's award.
     grants as (select event_id, count(*) as n from pending_grants where workspace_id = $1
                 and idempotency_key not like 'referral:%' group by 1),
     msgs as (select split_part(idempotency_key, ':', 1) as eid, count(*) as n from messages where workspace_id = $1 group by 1),
     awards as (select split_part(idempotency_key, ':', 1) as eid, count(*) as n from participant_badges
                 where workspace_id = $1 and idempotency_key is not null group by 1),
     per as (
       select acc.id, e.status, e.event_type, coalesce(f.n, 0) as flows, coalesce(r.n, 0) as runs,
         coalesce(r.bad, 0) as runs_not_completed,
         coalesce(c.n, 0) + coalesce(g.n, 0) + coalesce(r.capped, 0) as awards, coalesce(m.n, 0) as messages,
         coalesce(b.n, 0) as badges
       from acc left join events e on e.id = acc.id and e.workspace_id = $1
       left join flows f on f.event_type = e.event_type
       left join runs r on r.event_id = acc.id
       left join credits c on c.eid = acc.id::text
       left join grants g on g.event_id = acc.id
       left join msgs m on m.eid = acc.id::text
       left join awards b on b.eid = acc.id::text)
     select count(*) as accepted,
       count(*) filter (where status is null) as missing,
       count(*) filter (where status = 'processed') as processed,
       count(*) filter (where status = 'quarantined') as quarantined,
       count(*) filter (where status is not null and status not in ('processed', 'quarantined')) as not_processed,
       count(*) filter (where status <> 'quarantined' and runs <> flows) as wrong_run_count,
       count(*) filter (where runs_not_completed > 0) as runs_not_completed,
       count(*) filter (where status = 'processed' and awards <> 1) as wrong_award_count,
       count(*) filter (where status = 'processed' and event_type = 'purchase' and messages <> 1) as wrong_message_count,
       count(*) filter (where status = 'quarantined' and runs + awards + messages + badges > 0) as quarantined_with_effects,
       count(*) filter (where badges > 1) as badge_awarded_twice
     from per`,
    [ws, ids, replays],
  );
  return counts(r) as unknown as EffectsOnce;
}

type EffectsOnce = Record<
  | 'accepted'
  | 'missing'
  | 'processed'
  | 'quarantined'
  | 'not_processed'
  | 'wrong_run_count'
  | 'runs_not_completed'
  | 'wrong_award_count'
  | 'wrong_message_count'
  | 'quarantined_with_effects'
  | 'badge_awarded_twice',
  number
>;

const counts = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, n(v)])) as Record<string, number>;

// 10. For every participant: balance = Σ ledger = Σ remaining of its lots; every lot's points less
//     its remaining = what its allocations (debits and expiry) took; no lot left open past its
//     expiry (beyond the grace) once the run has drained.
async function balanceIsOpenLots(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with per as (
         select p.balance,
           coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id), 0) as ledger,
           coalesce((select sum(remaining) from point_lots o where o.participant_id = p.id), 0) as lots
         from participants p where p.workspace_id = $1),
       lots as (
         select o.points, o.remaining, o.expires_at,
                coalesce((select sum(a.points) from lot_allocations a where a.lot_id = o.id), 0) as taken
           from point_lots o where o.workspace_id = $1)
       select (select count(*) from per) as participants,
         (select count(*) from per where balance <> ledger or balance <> lots) as balance_not_ledger_or_lots,
         (select count(*) from lots) as lots,
         (select count(*) from lots where remaining > 0) as open_lots,
         (select count(*) from lots where points - remaining <> taken) as lot_not_its_allocations,
         (select count(*) from lots where remaining > 0 and expires_at < now() - make_interval(secs => $2)) as overdue_lots`,
      [c.workspaceId, c.points.graceS],
    ),
  );
  return {
    invariant: 'balance_is_ledger_sum_and_open_lots',
    held:
      v.participants! > 0 &&
      v.lots! > 0 &&
      v.balance_not_ledger_or_lots! + v.lot_not_its_allocations! + v.overdue_lots! === 0,
    ...v,
  };
}

// 11. Each lot expired at most once: no lot among the allocations of two expiry entries; each
//     expiry entry took exactly one lot, its owner's, the one its reference `lot:<entry id>` names,
//     all of what remained (its points); a lot marked expired is empty and has its expiry entry,
//     and a lot an expiry entry took is marked. (The reference alone does not name a lot: a
//     debit's reversal opens one lot per expiry instant it gives back, all under its one entry.)
async function lotsExpireOnce(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with x as (select id, participant_id, points, reference from ledger_entries
                   where workspace_id = $1 and source = 'expiry'),
       a as (select a.entry_id, a.lot_id, a.points from lot_allocations a join x on x.id = a.entry_id)
       select (select count(*) from x) as expiry_entries,
         (select count(*) from point_lots where workspace_id = $1 and expired_at is not null) as expired_lots,
         (select count(*) from (select lot_id from a group by 1 having count(*) > 1) d) as lot_in_two_expiry_entries,
         (select count(*) from x where (select count(*) from a where a.entry_id = x.id) <> 1) as entry_without_one_lot,
         (select count(*) from x join a on a.entry_id = x.id join point_lots l on l.id = a.lot_id
           where a.points <> -x.points or x.reference <> 'lot:' || l.entry_id or l.participant_id <> x.participant_id)
           as entry_not_its_lot,
         (select count(*) from point_lots l where l.workspace_id = $1 and l.expired_at is not null
           and (l.remaining <> 0 or not exists (select 1 from a where a.lot_id = l.id))) as expired_lot_not_emptied_by_entry,
         (select count(*) from point_lots l join a on a.lot_id = l.id where l.expired_at is null) as entry_lot_not_marked`,
      [c.workspaceId],
    ),
  );
  return {
    invariant: 'each_lot_expired_at_most_once',
    held:
      v.expiry_entries! > 0 &&
      v.lot_in_two_expiry_entries! +
        v.entry_without_one_lot! +
        v.entry_not_its_lot! +
        v.expired_lot_not_emptied_by_entry! +
        v.entry_lot_not_marked! ===
        0,
    ...v,
  };
}

// 12. Each pending grant activated at most once: at most one ledger entry references
//     `pending:<id>`; an activated grant has exactly one, its own (same owner and points, the
//     entry it names); a pending or cancelled one has none; every participant's pending_points =
//     its grants still pending; none left pending past its time (beyond the grace).
async function grantsActivateOnce(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with g as (select id::text as id, participant_id, points, status, entry_id, available_at from pending_grants
                   where workspace_id = $1),
       e as (select id, participant_id, points, substr(reference, 9) as gid from ledger_entries
              where workspace_id = $1 and reference like 'pending:%')
       select (select count(*) from g) as grants,
         (select count(*) from g where status = 'activated') as activated,
         (select count(*) from g where status = 'pending') as pending,
         (select count(*) from g where status = 'cancelled') as cancelled,
         (select count(*) from (select gid from e group by 1 having count(*) > 1) d) as activated_twice,
         (select count(*) from g where status = 'activated' and (select count(*) from e where e.gid = g.id) <> 1)
           as activated_without_one_entry,
         (select count(*) from g join e on e.gid = g.id where g.status <> 'activated') as credited_not_activated,
         (select count(*) from e where not exists (select 1 from g where g.id = e.gid)) as entry_without_grant,
         (select count(*) from g join e on e.gid = g.id
           where g.status = 'activated' and (e.points <> g.points or e.participant_id <> g.participant_id
             or g.entry_id is distinct from e.id)) as entry_not_its_grant,
         (select count(*) from participants p where p.workspace_id = $1 and p.pending_points <>
           coalesce((select sum(points) from g where g.participant_id = p.id and g.status = 'pending'), 0))
           as pending_points_wrong,
         (select count(*) from g where status = 'pending' and available_at < now() - make_interval(secs => $2))
           as overdue`,
      [c.workspaceId, c.points.graceS],
    ),
  );
  return {
    invariant: 'each_pending_grant_activated_at_most_once',
    held:
      v.activated! > 0 &&
      v.activated_twice! +
        v.activated_without_one_entry! +
        v.credited_not_activated! +
        v.entry_without_grant! +
        v.entry_not_its_grant! +
        v.pending_points_wrong! +
        v.overdue! ===
        0,
    ...v,
  };
}

// 13. No cap exceeded, exactly: what the run awarded from flows (credits, and pending grants
//     whatever became of them: a grant counts when granted), summed per participant and UTC day
//     of the event's occurred_at (an idle spell's run: the spell's end), once for the programme
//     and once for the capped action, equals the service's counter (earning_counts) for that
//     participant, scope and day and is at most the cap. Every award step's points +
//     capped_points = the action's points (a constant's); a step cut by a cap has a cap of its
//     participant's day full.
async function capsHold(c: CheckInput): Promise<Verdict> {
  const { actionScope, actionCap, programCap } = c.points;
  const v = counts(
    await one(
      c.db,
      `with awards as (
         -- Not a referral's (a friend's credit, an advocate's grant): no flow awarded them.
         select idempotency_key as key, participant_id, points from ledger_entries
          where workspace_id = $1 and source = 'flow' and reverses_entry_id is null
            and idempotency_key not like 'pending:%' and idempotency_key not like 'referral:%'
         union all
         select idempotency_key, participant_id, points from pending_grants
          where workspace_id = $1 and idempotency_key not like 'referral:%'
       ), dated as (
         -- An event's award: '<event id>:<flow id>:<i>', in the period of its occurred_at. An idle
         -- spell's: 'idle:<participant>:<spell µs>:<flow id>:<i>', in the period of the spell's end.
         select a.participant_id, a.points,
                case when a.key like 'idle:%' then split_part(a.key, ':', 4) || ':' || split_part(a.key, ':', 5)
                     else split_part(a.key, ':', 2) || ':' || split_part(a.key, ':', 3) end as scope,
                'day:' || to_char(coalesce(e.occurred_at,
                                           to_timestamp(split_part(a.key, ':', 3)::numeric / 1000000)
                                             + make_interval(secs => $5)) at time zone 'UTC', 'YYYY-MM-DD') as period
           from awards a
           left join events e on e.id = case when a.key like 'idle:%' then null else split_part(a.key, ':', 1)::uuid end
          where a.key like 'idle:%' or e.id is not null
       ), expected as (
         select participant_id, 'program' as scope, period, sum(points) as points from dated group by 1, 3
         union all
         select participant_id, scope, period, sum(points) from dated where scope = $2 group by 1, 2, 3
       ), counted as (
         select k.participant_id, k.scope, k.period, k.points from earning_counts k
           join participants p on p.id = k.participant_id
          where p.workspace_id = $1 and (k.scope = 'program' or k.scope = $2)
       ), compared as (
         select coalesce(x.scope, k.scope) as scope, x.points as expected, k.points as counted
           from expected x full join counted k
             on k.participant_id = x.participant_id and k.scope = x.scope and k.period = x.period
       ), steps as (
         select r.participant_id, r.flow_id::text || ':' || (s.i - 1) as scope,
                'day:' || to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD') as period,
                coalesce((s.step->'result'->>'points')::bigint, 0) as points,
                coalesce((s.step->'result'->>'capped_points')::bigint, 0) as capped,
                -- A constant's points; null for an expression (the workouts': 1 + the streak's length).
                case when jsonb_typeof(f.actions->((s.i - 1)::int)->'points') = 'number'
                     then (f.actions->((s.i - 1)::int)->>'points')::bigint end as asked
           from flow_runs r join flows f on f.id = r.flow_id join events e on e.id = r.event_id,
                jsonb_array_elements(r.steps) with ordinality s(step, i)
          where r.workspace_id = $1 and s.step->>'action' = 'award_points'
            and s.step->>'status' in ('completed', 'capped')
       )
       select (select count(*) from compared) as counters,
         (select count(*) from compared where expected is distinct from counted) as counter_not_awards,
         (select count(*) from compared where scope = 'program' and expected > $4) as programme_cap_exceeded,
         (select count(*) from compared where scope = $2 and expected > $3) as action_cap_exceeded,
         (select count(*) from compared where scope = 'program' and expected = $4) as programme_caps_reached,
         (select count(*) from compared where scope = $2 and expected = $3) as action_caps_reached,
         (select count(*) from steps) as award_steps,
         (select count(*) from steps where capped > 0) as capped_steps,
         (select count(*) from steps where asked is not null and points + capped <> asked) as step_points_not_asked,
         (select count(*) from steps s where s.capped > 0 and not exists (
            select 1 from counted k where k.participant_id = s.participant_id and k.period = s.period
               and ((k.scope = 'program' and k.points = $4) or (k.scope = $2 and s.scope = $2 and k.points = $3))))
           as capped_with_room_left`,
      [c.workspaceId, actionScope, actionCap, programCap, c.engagement.idleAfterS],
    ),
  );
  return {
    invariant: 'no_earning_cap_exceeded',
    held:
      v.counters! > 0 &&
      v.counter_not_awards! +
        v.programme_cap_exceeded! +
        v.action_cap_exceeded! +
        v.step_points_not_asked! +
        v.capped_with_room_left! ===
        0,
    ...v,
  };
}

/** A level's rank in SQL (`key` null or unknown: 0, the first level), from the levels as `$n`. */
const rankSql = (key: string, levels: string) => `coalesce(array_position(${levels}::text[], ${key}) - 1, 0)`;
/** The rank `points` reach, from the thresholds as `$n` (ascending; the first is 0). */
const supportedSql = (points: string, thresholds: string) =>
  `(select count(*) - 1 from unnest(${thresholds}::bigint[]) t where t <= ${points})`;

// 14. Rolling window, exactly: every participant's tier_points = Σ of their window credits; each
//     window credit is a qualifying credit of theirs (a flow or adjustment credit, never reversed:
//     a reversal takes it out), for all its points, leaving the window `window` after it was made;
//     every qualifying credit made well inside the window is in it, and none is left in it past
//     its time (the tick takes them out every second). Together: tier_points is what a recount of
//     the ledger over the window gives, up to the credits at its edge.
async function tierPointsAreWindowCredits(c: CheckInput): Promise<Verdict> {
  const { windowS, dueGraceS } = c.tiers;
  const v = counts(
    await one(
      c.db,
      `with q as (
         select l.id, l.participant_id, l.points, l.created_at from ledger_entries l
          where l.workspace_id = $1 and l.points > 0 and l.source in ('flow', 'adjustment')
            and l.reverses_entry_id is null
            and not exists (select 1 from ledger_entries r where r.reverses_entry_id = l.id)
       ), w as (
         select w.entry_id, w.participant_id, w.points, w.leaves_at from tier_credits w
           join participants p on p.id = w.participant_id where p.workspace_id = $1
       ), per as (
         select p.tier_points, coalesce((select sum(w.points) from w where w.participant_id = p.id), 0) as in_window
           from participants p where p.workspace_id = $1
       )
       select (select count(*) from q) as qualifying_credits,
         (select count(*) from w) as window_credits,
         (select coalesce(sum(tier_points), 0) from per) as tier_points,
         (select count(*) from per where tier_points <> in_window) as tier_points_not_window_credits,
         (select count(*) from w left join q on q.id = w.entry_id
           where q.id is null or q.participant_id <> w.participant_id or q.points <> w.points)
           as window_credit_not_a_qualifying_credit,
         (select count(*) from w join q on q.id = w.entry_id
           where abs(extract(epoch from w.leaves_at - q.created_at) - $2) > $3) as window_credit_leaves_off_time,
         (select count(*) from q where q.created_at > now() - make_interval(secs => $2 - $4)
             and not exists (select 1 from w where w.entry_id = q.id)) as recent_credit_not_in_window,
         (select count(*) from w where w.leaves_at < now() - make_interval(secs => $3)) as overdue_window_credits`,
      [c.workspaceId, windowS, dueGraceS, 3],
    ),
  );
  return {
    invariant: 'tier_points_are_the_window_credits',
    held:
      v.qualifying_credits! > 0 &&
      v.tier_points_not_window_credits! +
        v.window_credit_not_a_qualifying_credit! +
        v.window_credit_leaves_off_time! +
        v.recent_credit_not_in_window! +
        v.overdue_window_credits! ===
        0,
    ...v,
  };
}

// 15. Every participant's level is what the rules allow their standing (rules.ts): never below
//     what their window supports (upgrades happen in the credit's transaction), and above it only
//     while a review is set (the grace) and not overdue, and never more than a grace ahead (a
//     review is set `grace` after the level stopped being met, or after the last one-down move).
async function tierLevelsAllowed(c: CheckInput): Promise<Verdict> {
  const { levels, graceS, dueGraceS } = c.tiers;
  const v = counts(
    await one(
      c.db,
      `with p as (
         select p.tier_key, p.tier_review_at, ${rankSql('p.tier_key', '$2')} as rank,
                ${supportedSql('p.tier_points', '$3')} as supported
           from participants p where p.workspace_id = $1
       )
       select count(*) as participants,
         count(*) filter (where rank > 0) as above_first_level,
         count(*) filter (where rank > supported) as in_grace,
         count(*) filter (where tier_key is not null and (tier_key = ($2::text[])[1] or not tier_key = any($2::text[])))
           as unknown_level_key,
         count(*) filter (where rank < supported) as below_supported,
         count(*) filter (where rank > supported and tier_review_at is null) as above_supported_without_review,
         count(*) filter (where tier_review_at < now() - make_interval(secs => $5)) as overdue_reviews,
         count(*) filter (where tier_review_at > now() + make_interval(secs => $4 + $5)) as review_beyond_grace
       from p`,
      [c.workspaceId, levels.map((l) => l.key), levels.map((l) => l.threshold), graceS, dueGraceS],
    ),
  );
  return {
    invariant: 'tier_level_is_what_the_rules_allow',
    held:
      v.participants! > 0 &&
      v.unknown_level_key! +
        v.below_supported! +
        v.above_supported_without_review! +
        v.overdue_reviews! +
        v.review_beyond_grace! ===
        0,
    ...v,
  };
}

// 16. Every move recorded once: the history and the `tier.changed` results match one to one
//     (participant, from, to, reason, qualifying points); no move repeated (two consecutive moves
//     of a participant with the same from and to at the same instant: a batch written twice) and
//     none to the level it left.
async function tierMovesRecordedOnce(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with h as (
         select h.participant_id, p.external_id, coalesce(h.from_key, '') as from_key,
                coalesce(h.to_key, '') as to_key, h.reason, h.qualifying_points, h.at,
                lag(coalesce(h.from_key, '')) over w as prev_from, lag(coalesce(h.to_key, '')) over w as prev_to,
                lag(h.at) over w as prev_at
           from tier_history h join participants p on p.id = h.participant_id
          where h.workspace_id = $1 window w as (partition by h.participant_id order by h.id)
       ), hk as (
         select external_id, from_key, to_key, reason, qualifying_points, count(*) as n from h group by 1, 2, 3, 4, 5
       ), o as (
         select data->'participant'->>'external_id' as external_id, coalesce(data->'from'->>'key', '') as from_key,
                coalesce(data->'to'->>'key', '') as to_key, data->>'reason' as reason,
                (data->>'qualifying_points')::bigint as qualifying_points
           from outbox where workspace_id = $1 and type = 'tier.changed'
       ), ok as (
         select external_id, from_key, to_key, reason, qualifying_points, count(*) as n from o group by 1, 2, 3, 4, 5
       )
       select (select count(*) from h) as moves,
         (select count(*) from o) as results,
         (select count(*) from h where reason = 'qualified') as qualified,
         (select count(*) from h where reason = 'downgrade') as downgrades,
         (select count(*) from h where reason not in ('qualified', 'downgrade')) as other_reasons,
         (select count(*) from hk full join ok using (external_id, from_key, to_key, reason, qualifying_points)
           where hk.n is distinct from ok.n) as moves_not_one_result,
         (select count(*) from h where from_key = prev_from and to_key = prev_to and at = prev_at) as move_repeated,
         (select count(*) from h where from_key = to_key) as move_to_same_level`,
      [c.workspaceId],
    ),
  );
  return {
    invariant: 'each_tier_move_recorded_once',
    held:
      v.qualified! > 0 &&
      v.downgrades! > 0 &&
      v.other_reasons! + v.moves_not_one_result! + v.move_repeated! + v.move_to_same_level! === 0,
    ...v,
  };
}

// 17. Each participant's history chains: the first move leaves the first level, each next move
//     leaves the level the previous one reached, and the last one reached their level now. A
//     `qualified` move goes up; a `downgrade` (one_down) goes exactly one level down.
async function tierHistoryChains(c: CheckInput): Promise<Verdict> {
  const keys = c.tiers.levels.map((l) => l.key);
  const v = counts(
    await one(
      c.db,
      `with h as (
         select h.participant_id, h.from_key, h.to_key, h.reason,
                ${rankSql('h.from_key', '$2')} as from_rank, ${rankSql('h.to_key', '$2')} as to_rank,
                lag(h.to_key) over w as prev_to, row_number() over w as n,
                row_number() over (partition by h.participant_id order by h.id desc) as from_last
           from tier_history h where h.workspace_id = $1 window w as (partition by h.participant_id order by h.id)
       )
       select (select count(distinct participant_id) from h) as participants_moved,
         (select count(*) from h where n = 1 and from_key is distinct from ($2::text[])[1]) as first_move_not_from_first_level,
         (select count(*) from h where n > 1 and from_key is distinct from prev_to) as move_not_from_previous_to,
         (select count(*) from participants p where p.workspace_id = $1
            and coalesce(p.tier_key, ($2::text[])[1]) is distinct from
                coalesce((select h.to_key from h where h.participant_id = p.id and h.from_last = 1), ($2::text[])[1]))
           as level_not_last_move,
         (select count(*) from h where reason = 'qualified' and to_rank <= from_rank) as qualified_not_up,
         (select count(*) from h where reason = 'downgrade' and to_rank <> from_rank - 1) as downgrade_not_one_down`,
      [c.workspaceId, keys],
    ),
  );
  return {
    invariant: 'tier_history_chains',
    held:
      v.participants_moved! > 0 &&
      v.first_move_not_from_first_level! +
        v.move_not_from_previous_to! +
        v.level_not_last_move! +
        v.qualified_not_up! +
        v.downgrade_not_one_down! ===
        0,
    ...v,
  };
}

/** SQL over a history (a jsonb array `h` of `{ period_start, status }`): its entries with their position. */
const entriesSql = (h: string) => `jsonb_array_elements(${h}) with ordinality`;

// 18. Every streak state is what its recorded history allows (docs/engagement.md#streaks): its
//     length is the number of `extended` periods after the last `missed` one (`frozen` ones keep
//     it alive without counting), so 0 exactly when the last period that was not extended was
//     missed and none was extended since (a history cut to its last 30 periods with no `missed`
//     left allows more); its last period is the last extended one; it is due for the streak job
//     exactly while it has a length, and not overdue; longest ≥ length; 0 ≤ freezes ≤ the
//     definition's max; and its counters are those of its last recorded change. Each extension is
//     recorded once (one `extended` change per participant, streak and period) with exactly one
//     `streak.extended`, and each break with exactly one `streak.broken` (matched on participant,
//     streak, length, longest and freezes).
async function streaksAreTheirHistory(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with s as (
         select ps.participant_id, ps.streak_id, ps.length, ps.longest, ps.freezes, ps.due_at, d.freezes_max,
                to_char(ps.last_period, 'YYYY-MM-DD') as last_period, jsonb_array_length(ps.history) as entries,
                coalesce((select max(i) from ${entriesSql('ps.history')} h(e, i) where h.e->>'status' = 'missed'), 0)
                  as last_missed,
                (select h.e->>'period_start' from ${entriesSql('ps.history')} h(e, i)
                  where h.e->>'status' = 'extended' order by i desc limit 1) as last_extended,
                ps.history
           from participant_streaks ps join streaks d on d.id = ps.streak_id where ps.workspace_id = $1
       ), sh as (
         select s.*, (select count(*) from ${entriesSql('s.history')} h(e, i)
                       where h.e->>'status' = 'extended' and i > s.last_missed) as extended_since_missed
           from s
       ), ch as (
         select x.participant_id, x.streak_id, x.change, x.length, x.longest, x.freezes, x.period_start,
                p.external_id, d.key,
                row_number() over (partition by x.participant_id, x.streak_id order by x.id desc) as from_last
           from streak_changes x join participants p on p.id = x.participant_id join streaks d on d.id = x.streak_id
          where x.workspace_id = $1
       ), ck as (
         select change, external_id, key, length, longest, freezes, count(*) as n from ch
          where change in ('extended', 'broken') group by 1, 2, 3, 4, 5, 6
       ), o as (
         select case type when 'streak.extended' then 'extended' else 'broken' end as change,
                data->'participant'->>'external_id' as external_id, data->'streak'->>'key' as key,
                (data->'streak'->>'length')::int as length, (data->'streak'->>'longest')::int as longest,
                (data->'streak'->>'freezes')::int as freezes, count(*) as n
           from outbox where workspace_id = $1 and type in ('streak.extended', 'streak.broken')
          group by 1, 2, 3, 4, 5, 6
       )
       select (select count(*) from s) as states,
         (select count(*) from s where length > 0) as alive,
         (select count(*) from ch where change = 'extended') as extensions,
         (select count(*) from ch where change = 'frozen') as freezes_spent,
         (select count(*) from ch where change = 'broken') as breaks,
         (select count(*) from sh where length <> extended_since_missed
             and not (last_missed = 0 and entries >= 30 and length > extended_since_missed)) as length_not_history,
         (select count(*) from s where last_extended is distinct from last_period) as last_period_not_history,
         (select count(*) from s where (length > 0) <> (due_at is not null)) as due_not_alive,
         (select count(*) from s where due_at < now() - make_interval(secs => $2)) as overdue,
         (select count(*) from s where longest < length or freezes < 0 or freezes > freezes_max) as counters_out_of_range,
         (select count(*) from s left join ch on ch.participant_id = s.participant_id and ch.streak_id = s.streak_id
             and ch.from_last = 1
           where ch.change is null or (ch.length, ch.longest, ch.freezes) <> (s.length, s.longest, s.freezes))
           as state_not_last_change,
         (select count(*) from (select 1 from ch where change = 'extended'
             group by participant_id, streak_id, period_start having count(*) > 1) d) as period_extended_twice,
         (select count(*) from ck full join o using (change, external_id, key, length, longest, freezes)
           where ck.n is distinct from o.n) as changes_not_one_result`,
      [c.workspaceId, c.engagement.dueGraceS],
    ),
  );
  return {
    invariant: 'streaks_are_their_history',
    held:
      v.extensions! > 0 &&
      v.breaks! > 0 &&
      v.length_not_history! +
        v.last_period_not_history! +
        v.due_not_alive! +
        v.overdue! +
        v.counters_out_of_range! +
        v.state_not_last_change! +
        v.period_extended_twice! +
        v.changes_not_one_result! ===
        0,
    ...v,
  };
}

// 19. Each achievement (a badge with criteria) held at most once per participant, key and tier
//     (its criteria's tier), with exactly one `badge.awarded` marked `achievement: true` per award
//     (matched on participant, key and tier) and none without one; every holder's processed events
//     reach the target in the window ending now (the runs' events are all within a week); and
//     every participant whose processed events reach the all-time achievement's target holds it.
async function achievementsAwardedOnce(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with b as (select id, key, criteria from badges where workspace_id = $1 and criteria is not null),
       a as (
         select h.participant_id, p.external_id, b.key, h.tier, b.criteria from participant_badges h
           join b on b.id = h.badge_id join participants p on p.id = h.participant_id
       ), ak as (select external_id, key, tier, count(*) as n from a group by 1, 2, 3),
       o as (
         select data->'participant'->>'external_id' as external_id, data->'badge'->>'key' as key,
                data->'badge'->>'tier' as tier, count(*) as n
           from outbox where workspace_id = $1 and type = 'badge.awarded' and data->>'achievement' = 'true'
          group by 1, 2, 3
       ), progress as (
         select p.id as participant_id, b.key, (b.criteria->>'target')::numeric as target,
                (select count(*) from events e
                  where e.participant_id = p.id and e.event_type = b.criteria->>'event_type' and e.status = 'processed'
                    and (b.criteria->>'window' = 'all_time'
                         or e.occurred_at > now() - (b.criteria->>'window')::interval)) as n
           from participants p cross join b where p.workspace_id = $1
       )
       select (select count(*) from b) as achievements,
         (select count(*) from a) as awards,
         (select coalesce(sum(n), 0) from o) as results,
         (select count(*) from (select 1 from a group by participant_id, key, tier having count(*) > 1) d) as held_twice,
         (select count(*) from a where tier <> coalesce(criteria->>'tier', '')) as tier_not_the_criteria,
         (select count(*) from ak full join o using (external_id, key, tier) where ak.n is distinct from o.n)
           as awards_not_one_result,
         (select count(*) from a join progress g on g.participant_id = a.participant_id and g.key = a.key
           where g.n < g.target) as held_below_target,
         (select count(*) from progress g where g.key = $2 and g.n >= g.target
             and not exists (select 1 from a where a.participant_id = g.participant_id and a.key = g.key))
           as reached_all_time_target_not_held`,
      [c.workspaceId, c.engagement.allTimeAchievement],
    ),
  );
  return {
    invariant: 'each_achievement_awarded_once',
    held:
      v.awards! > 0 &&
      v.held_twice! +
        v.tier_not_the_criteria! +
        v.awards_not_one_result! +
        v.held_below_target! +
        v.reached_all_time_target_not_held! ===
        0,
    ...v,
  };
}

// 20. Each idle spell's run at most once (docs/engagement.md#inactivity): the inactivity flow's
//     runs are of a spell (no event), one per flow, participant and spell, none before the spell
//     was `after` old; each run whose award step completed has exactly one credit (or pending
//     grant) under the spell's derived key, a run whose award came to nothing has none, and no
//     such credit is without its run; no participant's spell (their latest event) is left unrun
//     past its time once the run has drained.
async function idleSpellsRunOnce(c: CheckInput): Promise<Verdict> {
  const { idleFlowId, idleAfterS, dueGraceS } = c.engagement;
  const v = counts(
    await one(
      c.db,
      `with r as (
         select r.participant_id, r.event_id, r.spell_at, r.status, r.steps, r.started_at,
                'idle:' || r.participant_id || ':' || (extract(epoch from r.spell_at) * 1000000)::bigint
                  || ':' || r.flow_id || ':0' as key
           from flow_runs r where r.workspace_id = $1 and r.flow_id = $2
       ), l as (
         select idempotency_key as key, count(*) as n from ledger_entries
          where workspace_id = $1 and idempotency_key like 'idle:%' group by 1
         union all
         select idempotency_key, count(*) from pending_grants
          where workspace_id = $1 and idempotency_key like 'idle:%' group by 1
       ), lk as (select key, sum(n) as n from l group by 1),
       spells as (
         select c.participant_id, max(c.last_at) as spell_at from participant_event_counts c
           join participants p on p.id = c.participant_id where p.workspace_id = $1 group by 1
       )
       select (select count(*) from r) as spell_runs,
         (select count(*) from r where steps->0->>'status' = 'completed') as credited_runs,
         (select count(*) from lk) as spell_credits,
         (select count(*) from (select 1 from r group by participant_id, spell_at having count(*) > 1) d)
           as spell_run_twice,
         (select count(*) from r where event_id is not null or spell_at is null) as run_not_of_a_spell,
         (select count(*) from r where started_at < spell_at + make_interval(secs => $3)) as run_before_due,
         (select count(*) from r left join lk on lk.key = r.key
           where r.steps->0->>'status' = 'completed' and coalesce(lk.n, 0) <> 1) as completed_run_not_credited_once,
         (select count(*) from r join lk on lk.key = r.key where r.steps->0->>'status' is distinct from 'completed')
           as credit_of_a_run_without_award,
         (select count(*) from lk where not exists (select 1 from r where r.key = lk.key)) as credit_without_run,
         (select count(*) from spells s where s.spell_at < now() - make_interval(secs => $3 + $4)
             and not exists (select 1 from r where r.participant_id = s.participant_id and r.spell_at = s.spell_at))
           as overdue_spells`,
      [c.workspaceId, idleFlowId, idleAfterS, dueGraceS],
    ),
  );
  return {
    invariant: 'each_idle_spell_run_once',
    held:
      v.credited_runs! > 0 &&
      v.spell_run_twice! +
        v.run_not_of_a_spell! +
        v.run_before_due! +
        v.completed_run_not_credited_once! +
        v.credit_of_a_run_without_award! +
        v.credit_without_run! +
        v.overdue_spells! ===
        0,
    ...v,
  };
}

// 21. Each referral's effects happen once (docs/referrals.md): a referral that qualified has
//     exactly one friend credit (`referral:<id>:friend:0`, the friend's, for the programme's
//     points), one `referral.qualified`, the friend holds `referred`; one that did not has none of
//     them. Its advocate's reward is one grant (`referral:<id>:advocate`, the advocate's, for the
//     points, available at the hold's end, the one its grant_ids names), and a `rewarded` one has
//     exactly one `referral.rewarded` (no other has one); an advocate holds `ambassador` exactly
//     when one of their referrals was rewarded; each referral badge has one `badge.awarded` naming
//     a referral; no result, credit or grant names a referral that does not exist; none is left
//     past its time (a pending one past its window, a qualified one past its hold) once drained.
async function referralEffectsOnce(c: CheckInput): Promise<Verdict> {
  const { friendPoints, advocatePoints, dueGraceS } = c.referrals;
  const v = counts(
    await one(
      c.db,
      `with r as (select * from referrals where workspace_id = $1),
       fc as (select id, substr(reference, 10) as rid, idempotency_key, participant_id, points, source
                from ledger_entries where workspace_id = $1 and reference like 'referral:%'),
       g as (select id, split_part(idempotency_key, ':', 2) as rid, participant_id, points, status, available_at
               from pending_grants where workspace_id = $1 and idempotency_key like 'referral:%'),
       o as (select type, data->'referral'->>'id' as rid, count(*) as n from outbox
              where workspace_id = $1 and type in ('referral.qualified', 'referral.rewarded') group by 1, 2),
       held as (select h.participant_id, b.key from participant_badges h join badges b on b.id = h.badge_id
                 where h.workspace_id = $1 and b.key in ('referred', 'ambassador')),
       hk as (select p.external_id, h.key, count(*) as n from held h join participants p on p.id = h.participant_id
               group by 1, 2),
       bo as (select data->'participant'->>'external_id' as external_id, data->'badge'->>'key' as key, count(*) as n
                from outbox where workspace_id = $1 and type = 'badge.awarded' and data->>'referral_id' is not null
               group by 1, 2)
       select (select count(*) from r) as referrals,
         (select count(*) from r where status = 'pending') as pending,
         (select count(*) from r where status = 'blocked') as blocked,
         (select count(*) from r where status = 'expired') as expired,
         (select count(*) from r where status = 'qualified') as qualified,
         (select count(*) from r where status = 'rewarded') as rewarded,
         (select count(*) from r where status = 'clawed_back') as clawed_back,
         (select count(*) from fc) as friend_credits,
         (select count(*) from g) as advocate_grants,
         (select count(*) from r where qualified_at is not null
             and (select count(*) from fc where fc.rid = r.id::text) <> 1) as qualified_not_one_friend_credit,
         (select count(*) from r where qualified_at is null and exists (select 1 from fc where fc.rid = r.id::text))
           as friend_credit_not_qualified,
         (select count(*) from fc left join r on r.id::text = fc.rid
           where r.id is null or fc.participant_id <> r.friend_id or fc.points <> $2 or fc.source <> 'flow'
              or fc.idempotency_key <> 'referral:' || r.id || ':friend:0') as friend_credit_not_its_referral,
         (select count(*) from r left join o on o.type = 'referral.qualified' and o.rid = r.id::text
           where coalesce(o.n, 0) <> (case when r.qualified_at is not null then 1 else 0 end)) as qualified_not_one_result,
         (select count(*) from r left join o on o.type = 'referral.rewarded' and o.rid = r.id::text
           where coalesce(o.n, 0) <> (case when r.status = 'rewarded' then 1 else 0 end)) as rewarded_not_one_result,
         (select count(*) from o where not exists (select 1 from r where r.id::text = o.rid)) as result_without_referral,
         (select count(*) from r where qualified_at is null and grant_ids is not null) as grant_not_qualified,
         (select count(*) from r where grant_ids is not null and cardinality(grant_ids) <> 1) as not_one_grant,
         (select count(*) from r where status = 'rewarded' and grant_ids is null) as rewarded_without_grant,
         (select count(*) from g left join r on r.id::text = g.rid
           where r.id is null or r.grant_ids is distinct from array[g.id] or g.participant_id <> r.advocate_id
              or g.points <> $3 or g.available_at <> r.reward_available_at) as grant_not_its_referral,
         (select count(*) from r where qualified_at is not null
             and not exists (select 1 from held h where h.participant_id = r.friend_id and h.key = 'referred'))
           as qualified_friend_without_badge,
         (select count(*) from held h where h.key = 'referred' and not exists (
             select 1 from r where r.friend_id = h.participant_id and r.qualified_at is not null))
           as referred_badge_without_qualification,
         (select count(*) from (select distinct advocate_id from r where status = 'rewarded') a
           where not exists (select 1 from held h where h.participant_id = a.advocate_id and h.key = 'ambassador'))
           as rewarded_advocate_without_badge,
         (select count(*) from held h where h.key = 'ambassador' and not exists (
             select 1 from r where r.advocate_id = h.participant_id and r.status = 'rewarded'))
           as ambassador_badge_without_reward,
         (select count(*) from hk full join bo using (external_id, key) where hk.n is distinct from bo.n)
           as badges_not_one_result,
         (select count(*) from r where due_at < now() - make_interval(secs => $4)) as overdue`,
      [c.workspaceId, friendPoints, advocatePoints, dueGraceS],
    ),
  );
  return {
    invariant: 'each_referral_effect_once',
    held:
      v.rewarded! > 0 &&
      v.qualified_not_one_friend_credit! +
        v.friend_credit_not_qualified! +
        v.friend_credit_not_its_referral! +
        v.qualified_not_one_result! +
        v.rewarded_not_one_result! +
        v.result_without_referral! +
        v.grant_not_qualified! +
        v.not_one_grant! +
        v.rewarded_without_grant! +
        v.grant_not_its_referral! +
        v.qualified_friend_without_badge! +
        v.referred_badge_without_qualification! +
        v.rewarded_advocate_without_badge! +
        v.ambassador_badge_without_reward! +
        v.badges_not_one_result! +
        v.overdue! ===
        0,
    ...v,
  };
}

// 22. No clawed-back referral's reward was ever credited, and every rewarded one's exactly once:
//     a `clawed_back` referral's grant (if the job wrote one before the cancel) is cancelled, no
//     ledger entry references `pending:<grant>` for it, and it was clawed back during its hold
//     (a cancel's time is before the hold's end) and never rewarded; a `rewarded` one's grant is
//     activated with exactly one `pending:<grant>` credit, the one it names, to the advocate, and
//     it was rewarded at or after the hold's end. Every cancel answered 200 left its referral
//     `clawed_back`, and no referral's cancel was answered 200 twice.
async function noClawedBackRewardCredited(c: CheckInput): Promise<Verdict> {
  const answers = [...c.rec.cancelsByReferral.entries()];
  const cancelled = answers.filter(([, s]) => s.includes(200)).map(([id]) => id);
  const v = counts(
    await one(
      c.db,
      `with r as (select * from referrals where workspace_id = $1 and status in ('clawed_back', 'rewarded')),
       g as (select r.id as rid, r.status as referral_status, r.advocate_id, g.id, g.status, g.points, g.entry_id
               from r join pending_grants g on g.idempotency_key = 'referral:' || r.id || ':advocate'),
       e as (select id, participant_id, points, substr(reference, 9) as gid from ledger_entries
              where workspace_id = $1 and reference like 'pending:%')
       select (select count(*) from r where status = 'clawed_back') as clawed_back,
         (select count(*) from r where status = 'clawed_back' and grant_ids is not null) as clawed_back_after_grant,
         (select count(*) from r where status = 'rewarded') as rewarded,
         (select count(*) from g where referral_status = 'clawed_back' and status <> 'cancelled')
           as clawed_back_grant_not_cancelled,
         (select count(*) from g join e on e.gid = g.id::text where g.referral_status = 'clawed_back')
           as clawed_back_reward_credited,
         (select count(*) from r where status = 'clawed_back'
             and (clawed_back_at is null or rewarded_at is not null or clawed_back_at >= reward_available_at))
           as clawed_back_not_during_hold,
         (select count(*) from r where status = 'rewarded'
             and (select count(*) from g where g.rid = r.id and g.status = 'activated') <> 1)
           as rewarded_grant_not_activated,
         (select count(*) from g where referral_status = 'rewarded'
             and (select count(*) from e where e.gid = g.id::text) <> 1) as rewarded_grant_not_credited_once,
         (select count(*) from g join e on e.gid = g.id::text where g.referral_status = 'rewarded'
             and (e.participant_id <> g.advocate_id or e.points <> g.points or g.entry_id is distinct from e.id))
           as reward_credit_not_its_grant,
         (select count(*) from r where status = 'rewarded'
             and (rewarded_at is null or clawed_back_at is not null or rewarded_at < reward_available_at))
           as rewarded_before_hold_end,
         (select count(*) from unnest($2::uuid[]) x(id)
           where not exists (select 1 from r where r.id = x.id and r.status = 'clawed_back'))
           as cancel_answered_200_not_clawed_back`,
      [c.workspaceId, cancelled],
    ),
  );
  const cancels = answers.reduce((n, [, s]) => n + s.length, 0);
  const extra = {
    cancels_answered: cancels,
    cancels_200: answers.reduce((n, [, s]) => n + s.filter((x) => x === 200).length, 0),
    cancels_409: answers.reduce((n, [, s]) => n + s.filter((x) => x === 409).length, 0),
    cancel_answered_200_twice: answers.filter(([, s]) => s.filter((x) => x === 200).length > 1).length,
  };
  return {
    invariant: 'no_clawed_back_reward_credited',
    held:
      v.clawed_back! > 0 &&
      v.rewarded! > 0 &&
      v.clawed_back_grant_not_cancelled! +
        v.clawed_back_reward_credited! +
        v.clawed_back_not_during_hold! +
        v.rewarded_grant_not_activated! +
        v.rewarded_grant_not_credited_once! +
        v.reward_credit_not_its_grant! +
        v.rewarded_before_hold_end! +
        v.cancel_answered_200_not_clawed_back! +
        extra.cancel_answered_200_twice ===
        0,
    ...v,
    ...extra,
  };
}

// 23. Attribution's guards hold across the kills (the programme's time zone is UTC): a participant is a friend once; a referral's
//     event is its friend's and carried its code; it is blocked exactly when it has a reason, and
//     then for that reason (self: the advocate is the friend; same_email: their e-mails agree; an
//     existing participant: the friend was not made by the event), and a referral not blocked was
//     made by the event that created its friend, with an e-mail other than the advocate's; no
//     advocate has more referrals that count (not blocked) in a day than the limit, and one
//     blocked for the limit had it full. A qualified referral was qualified within its window by
//     a purchase of its friend (the friend's first since the referral was made); an expired one
//     had no purchase of the friend processed within the window.
async function referralGuardsHold(c: CheckInput): Promise<Verdict> {
  const v = counts(
    await one(
      c.db,
      `with r as (
         select r.*, e.participant_id as event_participant, e.referral_code as event_code, e.received_at,
                f.created_at as friend_created_at, lower(f.email) as friend_email, lower(a.email) as advocate_email,
                to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD') as day
           from referrals r join events e on e.id = r.event_id
           join participants f on f.id = r.friend_id join participants a on a.id = r.advocate_id
          where r.workspace_id = $1
       ), per_day as (
         select advocate_id, day, count(*) filter (where status <> 'blocked') as counted,
                count(*) filter (where reason = 'limit_reached') as limited
           from r group by 1, 2
       ), q as (
         select r.id, r.expires_at, r.qualified_at, r.created_at, q.participant_id, q.event_type, q.occurred_at,
                (select min(x.id::text) from events x where x.participant_id = r.friend_id and x.event_type = 'purchase'
                   and x.status = 'processed' and x.received_at >= r.received_at) as first_purchase,
                q.id::text as qualifying
           from r join events q on q.id = r.qualifying_event_id
       )
       select (select count(*) from r) as referrals,
         (select count(*) from r where reason = 'self_referral') as self_referrals,
         (select count(*) from r where reason = 'same_email') as same_email,
         (select count(*) from r where reason = 'existing_participant') as existing_participants,
         (select count(*) from r where reason = 'limit_reached') as limit_reached,
         (select count(*) from (select friend_id from r group by 1 having count(*) > 1) d) as friend_twice,
         (select count(*) from r where event_participant <> friend_id or event_code is distinct from code)
           as event_not_the_friends_with_its_code,
         (select count(*) from r where (status = 'blocked') <> (reason is not null)) as blocked_without_reason,
         (select count(*) from r where (reason = 'self_referral') <> (friend_id = advocate_id)) as self_referral_wrong,
         (select count(*) from r where reason = 'same_email' and friend_email is distinct from advocate_email)
           as same_email_wrong,
         (select count(*) from r where reason = 'existing_participant' and friend_created_at = received_at)
           as existing_participant_was_new,
         (select count(*) from r where status <> 'blocked' and friend_created_at <> received_at)
           as not_blocked_friend_not_new,
         (select count(*) from r where status <> 'blocked' and friend_email = advocate_email) as not_blocked_same_email,
         (select count(*) from per_day where counted > $2) as limit_exceeded,
         (select count(*) from per_day where limited > 0 and counted < $2) as limited_below_limit,
         (select count(*) from q) as qualified,
         (select count(*) from q where event_type <> 'purchase' or participant_id <> (
             select friend_id from r where r.id = q.id)) as qualified_by_other_event,
         (select count(*) from q where occurred_at > expires_at) as qualified_outside_window,
         (select count(*) from q where qualifying is distinct from first_purchase) as qualified_not_by_first_purchase,
         (select count(*) from r where status = 'expired' and (qualified_at is not null or exists (
             select 1 from events x where x.participant_id = r.friend_id and x.event_type = 'purchase'
                and x.status = 'processed' and x.received_at >= r.received_at and x.occurred_at <= r.expires_at
                and x.processed_at < r.expires_at - interval '1 second'))) as expired_though_purchased_in_time,
         -- Not a failure: a purchase within the window processed after it ended, once the job had
         -- expired the referral (the job and the engine each move a referral under the friend's lock;
         -- expired is final, docs/referrals.md).
         (select count(*) from r where status = 'expired' and exists (
             select 1 from events x where x.participant_id = r.friend_id and x.event_type = 'purchase'
                and x.received_at >= r.received_at and x.occurred_at <= r.expires_at)) as expired_with_purchase_processed_late`,
      [c.workspaceId, c.referrals.limit],
    ),
  );
  return {
    invariant: 'referral_guards_hold',
    held:
      v.referrals! > 0 &&
      v.limit_reached! + v.same_email! > 0 &&
      v.friend_twice! +
        v.event_not_the_friends_with_its_code! +
        v.blocked_without_reason! +
        v.self_referral_wrong! +
        v.same_email_wrong! +
        v.existing_participant_was_new! +
        v.not_blocked_friend_not_new! +
        v.not_blocked_same_email! +
        v.limit_exceeded! +
        v.limited_below_limit! +
        v.qualified_by_other_event! +
        v.qualified_outside_window! +
        v.qualified_not_by_first_purchase! +
        v.expired_though_purchased_in_time! ===
        0,
    ...v,
  };
}

// 24. Quarantine and replay (docs/api.md#replay): an event is quarantined only as its type's
//     schema says — a `signup` whose plan the schema refuses (`platinum` always, `gold` before the
//     fix, never `basic`/`pro`; a `gold` one received before the fix was sent is quarantined, one
//     received after it was answered is not) — and has no effect (invariant 1). Each quarantined
//     event is replayed at most once, linked both ways (the replay's `replay_of` is the original,
//     whose `replayed_as` is the replay, and the other way round), under the derived key
//     `replay:<original id>`, keeping the original's type, `occurred_at` and source; every answer
//     to one original's replay names the same event, the one it is linked to; a replay is
//     answered 202 or 409, nothing else. After the last bulk replay no quarantined event received
//     2 s before it started is left without its replay.
async function quarantinedReplayedOnce(c: CheckInput): Promise<Verdict> {
  const answered = [...c.rec.replaysOf.entries()].flatMap(([o, rs]) => [...rs].map((r) => [o, r] as const));
  const margin = 100;
  const v = counts(
    await one(
      c.db,
      `with e as (select id, status, event_type, payload->>'plan' as plan, quarantine_reason, received_at, replay_of,
                         replayed_as, idempotency_key, occurred_at, source
                    from events where workspace_id = $1),
       q as (select * from e where status = 'quarantined'),
       rp as (select * from e where replay_of is not null)
       select (select count(*) from q) as quarantined,
         (select count(*) from q where replayed_as is not null) as quarantined_replayed,
         (select count(*) from rp) as replays,
         (select count(*) from rp where status = 'quarantined') as replays_quarantined_again,
         (select count(*) from rp where status = 'processed') as replays_processed,
         (select count(*) from q where event_type is distinct from 'signup' or plan in ('basic', 'pro')
             or quarantine_reason is null) as quarantined_not_by_its_schema,
         (select count(*) from e where status <> 'quarantined' and event_type = 'signup' and plan = 'platinum')
           as refused_plan_not_quarantined,
         (select count(*) from e where plan = 'gold' and event_type = 'signup' and status <> 'quarantined'
             and received_at < to_timestamp(($2::bigint - $3) / 1000.0)) as gold_before_fix_not_quarantined,
         (select count(*) from q where plan = 'gold' and received_at > to_timestamp(($4::bigint + $3) / 1000.0))
           as gold_after_fix_quarantined,
         (select count(*) from (select replay_of from rp group by 1 having count(*) > 1) x) as replayed_twice,
         (select count(*) from rp left join e o on o.id = rp.replay_of
           where o.id is null or o.status <> 'quarantined' or o.replayed_as is distinct from rp.id) as replay_not_linked_back,
         (select count(*) from e o left join e r on r.id = o.replayed_as
           where o.replayed_as is not null and (r.id is null or r.replay_of is distinct from o.id)) as replayed_as_dangling,
         (select count(*) from rp where idempotency_key is distinct from 'replay:' || replay_of) as replay_key_not_derived,
         (select count(*) from rp join e o on o.id = rp.replay_of
           where rp.occurred_at <> o.occurred_at or rp.source <> o.source or rp.event_type is distinct from o.event_type)
           as replay_not_of_its_original,
         (select count(*) from unnest($6::uuid[], $7::uuid[]) x(o, r) left join e on e.id = x.o
           where e.replayed_as is distinct from x.r) as answered_replay_not_the_link,
         (select count(*) from q where replayed_as is null and $5::bigint is not null
             and received_at < to_timestamp(($5::bigint - 2000) / 1000.0)) as left_unreplayed_by_the_last_bulk`,
      [
        c.workspaceId,
        c.rec.schemaFixSentAt ?? 0,
        margin,
        c.rec.schemaFixedAt ?? 8.64e15,
        c.rec.finalBulkStartedAt,
        answered.map(([o]) => o),
        answered.map(([, r]) => r),
      ],
    ),
  );
  const answers = (kind: string) => c.rec.outcomes[kind] ?? {};
  const extra = {
    single_replays_answered_202: ['replay event', 'replay event (repeat)', 'replay event (other fix)'].reduce(
      (a, k) => a + (answers(k)['202'] ?? 0),
      0,
    ),
    single_replays_answered_409: ['replay event', 'replay event (repeat)', 'replay event (other fix)'].reduce(
      (a, k) => a + (answers(k)['409'] ?? 0),
      0,
    ),
    bulk_replayed_answered: c.rec.bulkReplayed,
    originals_answered_with_two_replays: [...c.rec.replaysOf.values()].filter((x) => x.size > 1).length,
    replay_answers_wrong: c.rec.replayWrong.length,
    replay_answers_wrong_examples: c.rec.replayWrong.slice(0, 5),
    schema_fixed: c.rec.schemaFixedAt !== null,
    last_bulk_answered: c.rec.finalBulkStartedAt !== null,
  };
  return {
    invariant: 'each_quarantined_event_replayed_at_most_once',
    held:
      v.replays! > 0 &&
      v.replays_processed! > 0 &&
      extra.single_replays_answered_202 > 0 &&
      extra.bulk_replayed_answered > 0 &&
      extra.schema_fixed &&
      extra.last_bulk_answered &&
      v.quarantined_not_by_its_schema! +
        v.refused_plan_not_quarantined! +
        v.gold_before_fix_not_quarantined! +
        v.gold_after_fix_quarantined! +
        v.replayed_twice! +
        v.replay_not_linked_back! +
        v.replayed_as_dangling! +
        v.replay_key_not_derived! +
        v.replay_not_of_its_original! +
        v.answered_replay_not_the_link! +
        v.left_unreplayed_by_the_last_bulk! +
        extra.originals_answered_with_two_replays +
        extra.replay_answers_wrong ===
        0,
    ...v,
    ...extra,
  };
}

// 25. Batches (docs/api.md#batch-ingest): every 202 carried one result per item, in order; an
//     item repeating an earlier one of its batch was answered with that item's event as a
//     replay; a new item was `received`, or `quarantined` exactly as its schema says; nothing but
//     a 202 or a 5xx was answered. Every event a batch was answered with is processed exactly
//     once (invariant 1's checks over them), and the event counts are the events: each type's
//     `event_type_counts` slots add up to its stored events, and each participant's
//     `participant_event_counts` to their processed events of each type.
async function batchEventsOnce(c: CheckInput): Promise<Verdict> {
  const r = await processedOnce(c.db, c.workspaceId, [...c.rec.batchEventIds], false);
  const cnt = counts(
    await one(
      c.db,
      `with ev as (select mode, event_type, count(*) as n from events where workspace_id = $1 and event_type is not null
                    group by 1, 2),
       tc as (select mode, key as event_type, sum(count) as n from event_type_counts where workspace_id = $1 group by 1, 2),
       pe as (select participant_id, event_type, count(*) as n from events
               where workspace_id = $1 and status = 'processed' group by 1, 2),
       pc as (select c.participant_id, c.event_type, c.count as n from participant_event_counts c
                join participants p on p.id = c.participant_id where p.workspace_id = $1)
       select (select count(*) from ev) as event_types,
         (select count(*) from ev full join tc using (mode, event_type) where coalesce(ev.n, 0) <> coalesce(tc.n, 0))
           as type_count_not_its_events,
         (select count(*) from pe) as participant_types,
         (select count(*) from pe full join pc using (participant_id, event_type) where coalesce(pe.n, 0) <> coalesce(pc.n, 0))
           as participant_count_not_its_processed_events`,
      [c.workspaceId],
    ),
  );
  const v = {
    batches_answered_202: c.rec.batches,
    batch_items_answered: c.rec.batchItems,
    batch_events: r.accepted,
    batch_events_processed: r.processed,
    batch_events_quarantined: r.quarantined,
    missing: r.missing,
    not_processed: r.not_processed,
    wrong_run_count: r.wrong_run_count,
    runs_not_completed: r.runs_not_completed,
    wrong_award_count: r.wrong_award_count,
    wrong_message_count: r.wrong_message_count,
    quarantined_with_effects: r.quarantined_with_effects,
    badge_awarded_twice: r.badge_awarded_twice,
    answers_wrong: c.rec.batchWrong.length,
    answers_wrong_examples: c.rec.batchWrong.slice(0, 5),
    ...cnt,
  };
  return {
    invariant: 'batch_events_processed_exactly_once',
    held:
      v.batches_answered_202 > 0 &&
      v.batch_events_quarantined > 0 &&
      v.batch_events_processed === v.batch_events - v.batch_events_quarantined &&
      v.wrong_run_count +
        v.runs_not_completed +
        v.wrong_award_count +
        v.wrong_message_count +
        v.quarantined_with_effects +
        v.badge_awarded_twice +
        v.answers_wrong +
        cnt.type_count_not_its_events! +
        cnt.participant_count_not_its_processed_events! ===
        0,
    ...v,
  };
}
