import { isoJsonSql, jsonObjectSql, jsonSql } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { debitCtes } from '../ledger/debit.sql.ts';
import { pointsChangedJsonSql } from '../ledger/presenters.ts';
import type { PointsChangedData } from '../ledger/shapes.ts';
import { emitResultsCtes } from '../outbox/emit.sql.ts';
import { tierEligibleSql } from '../tiers/eligibility.ts';
import { CODE_BACKED, hasCodeSql, IN_WINDOW } from './codes.sql.ts';
import { type RedemptionRow, redemptionJsonSql } from './presenters.ts';
import { redemptionColumns } from './repository.ts';
import type { RewardRedeemedData } from './shapes.ts';

// Raw SQL: the bench suite `rewards` (≥ 0.6× a bare pg transaction; 500-way contention): the
// lookup, `for update skip locked` code claims, the debit, the redemption row and its results
// are one statement, one round trip for up to 50 redemptions.

/** One redemption as the statement takes it (one element of each of its array parameters). */
export interface RedeemItem {
  workspaceId: string;
  mode: string;
  participant: string;
  rewardId: number | null;
  rewardName: string | null;
  key: string | null;
  hash: string;
  reference: string;
}

/** What the statement read for an item from its snapshot (nothing locked), and the balance it locked. */
export interface RedeemLookup {
  participant_id: string | null;
  balance: string | null;
  /** The reward found by id or name (null: none). */
  reward_found: string | null;
  reward_name: string | null;
  reward_type: string | null;
  reward_cost: string | null;
  in_window: boolean | null;
  /** The reward's `min_tier`, and whether the participant's level reaches it (docs/tiers.md#benefits). */
  min_tier: string | null;
  tier_ok: boolean | null;
  stock_remaining: number | null;
  code_backed: boolean | null;
  has_free_code: boolean | null;
  /** A redemption already made under the item's idempotency key. */
  existing_id: string | null;
  /** The participant's balance read under its row lock (null: not locked, no unit was left for it). */
  locked_balance: string | null;
}

type NoRedemption = { [K in keyof RedemptionRow]: K extends 'external_id' ? string : null };

/** One row per item, in order: its lookup, and the redemption made (every column null when none was). */
export type RedeemOutcome = RedeemLookup & (RedemptionRow | NoRedemption);
/** An outcome whose redemption was made: the row `presentRedemption` takes. */
export type Redeemed = RedeemLookup & RedemptionRow;

export const redeemed = (out: RedeemOutcome): out is Redeemed => out.id !== null;

/** Runs REDEEM_SQL for `items` (at most one per participant); one outcome per item, in order. */
export async function redeemStatement(
  sql: Sql,
  items: readonly RedeemItem[],
  /** Inside a transaction: only there may an external reward be redeemed (its recovery job joins it). */
  inTransaction: boolean,
): Promise<RedeemOutcome[]> {
  const { rows } = await sql.query<RedeemOutcome>({
    // Named (prepared once per pooled connection): parsed and planned once, not on every redemption.
    name: 'rewards.redeem',
    text: REDEEM_SQL,
    values: [
      items.map((i) => i.workspaceId),
      items.map((i) => i.mode),
      items.map((i) => i.participant),
      items.map((i) => i.rewardId),
      items.map((i) => i.rewardName),
      items.map((i) => i.key),
      items.map((i) => i.hash),
      items.map((i) => i.reference),
      items.map(() => uuidv7()), // the outbox ids of points.changed
      items.map(() => uuidv7()), // and of reward.redeemed, made after them
      inTransaction,
    ],
  });
  if (rows.length !== items.length)
    throw new Error(`redeem: ${rows.length} outcomes for ${items.length} items`);
  return rows;
}

/** Queues the requests of one idempotency key (a transaction advisory lock), before any stock is touched. */
export async function lockIdempotencyKey(sql: Sql, scope: string, key: string): Promise<void> {
  await sql.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`redemption:${scope}:${key}`]);
}

// The statement's parts each domain owns: the ledger's debit (where a points lifecycle will
// consume lots, inside `debitCtes`, so this statement needs no change for it) and the outbox's results.
const debit = debitCtes({
  from: 'ok',
  workspaceId: 'ok.workspace_id',
  mode: 'ok.mode',
  participantId: 'ok.participant_id',
  cost: 'ok.cost_points',
  reason: `'Redeemed ' || ok.name`,
  reference: 'ok.id::text',
});
const emit = emitResultsCtes('results');

const participantJson = jsonObjectSql<PointsChangedData['participant']>({
  external_id: jsonSql('ok.external_id'),
});

/** `points.changed` of each debit: its entry as `presentEntry` shows it and the balance it left. */
const pointsChangedJson = pointsChangedJsonSql(debit.entry, 'ok.external_id');

/** `reward.redeemed` of each redemption `x`, as settle-redemption.ts' `redeemedResult` builds it. */
const rewardRedeemedJson = jsonObjectSql<RewardRedeemedData>({
  participant: participantJson,
  redemption: redemptionJsonSql('x', 'ok.external_id', 'ok.fulfilment'),
  reward: jsonObjectSql<RewardRedeemedData['reward']>({
    id: 'ok.reward_id',
    name: jsonSql('ok.name::text'),
    type: jsonSql('ok.type::text'),
  }),
});

/** The fulfilment's JSON text (`FulfilmentDto`, keys in the order the presenters print them). */
const FULFILMENT_JSON = `case
  when e.code_backed then
    '{"code":' || to_json(code.code::text)::text || ',"type":' || to_json(e.type::text)::text || '}'
  when e.type = 'points_multiplier' then
    '{"type":"points_multiplier","multiplier":{"factor":' || (e.config->'factor')::text
      || ',"expires_at":' || ${isoJsonSql('m.expires_at')} || '}}'
  when e.type = 'digital_asset' then
    '{' || coalesce('"url":' || (e.config->'asset_url')::text || ',', '')
      || coalesce('"code":' || (e.config->'asset_code')::text || ',', '') || '"type":"digital_asset"}'
  else '{"type":' || to_json(e.type::text)::text || '}'
end`;

/**
 * Redemptions in one statement (docs/guarantees.md#how-redemption-stays-atomic), one element per
 * redemption in each array: $1 workspace, $2 mode, $3 participant external id, $4 reward id, $5
 * reward name, $6 idempotency key, $7 request hash, $8 reference, $9/$10 outbox ids; $11 true
 * inside a transaction (only there may an external reward be redeemed: its recovery job is sent
 * in the same transaction). Each participant appears at most once.
 *
 * Reads first, from the statement's snapshot and without locks (`look`, `go`): everything that
 * refuses a redemption before it could hold anything. Then the locks, units before participants
 * (the order cancellations keep too), each kind in id order: the reward rows of counted stocks
 * FOR NO KEY UPDATE, as many free codes per code-backed reward as it has candidates FOR UPDATE
 * SKIP LOCKED (N redeemers take N different codes at once, never queueing on one row), then the
 * participants' rows FOR NO KEY UPDATE. Under a row lock Postgres reads the latest committed
 * version, so `ok` holds exactly the redemptions whose locked balance covers the cost and that
 * got a unit (candidates in order: a code each, or the first `stock_remaining` of a counted
 * stock), and every write below then applies to rows nobody else can change until this
 * statement commits; the CHECKs (stock_remaining >= 0, balance >= 0) would fail the whole
 * statement rather than let any write be skipped. Writes: codes claimed or stock decremented,
 * the debits and their ledger entries (the ledger's `debitCtes`), the redemption rows,
 * multiplier perks, and `points.changed` + `reward.redeemed` in the outbox with their webhook
 * deliveries (the outbox's `emitResultsCtes`). The results' JSON is built here: their ids and
 * timestamps are made here.
 */
const REDEEM_SQL = `
with items as materialized (
  select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::uuid[], $10::uuid[]) with ordinality
    as i(workspace_id, mode, external_id, want_id, want_name, key, hash, reference, changed_id, redeemed_id, idx)
), look as materialized (
  select i.*, p.id as participant_id, p.balance, r.id as reward_id, r.name, r.type, r.cost_points, r.config,
         ${IN_WINDOW} as in_window, r.min_tier,
         ${tierEligibleSql('p', 'r', 'i.workspace_id', 'i.mode')} as tier_ok,
         r.stock_remaining,
         ${CODE_BACKED} as code_backed,
         (r.type in ('voucher_code', 'digital_asset') and ${hasCodeSql('r.id', true)}) as has_free_code,
         x.id as existing_id
    from items i
    left join participants p on p.workspace_id = i.workspace_id and p.mode = i.mode and p.external_id = i.external_id
    left join lateral (
      select r.id, r.name, r.type, r.cost_points, r.config, r.active, r.starts_at, r.ends_at, r.stock_remaining,
             r.min_tier
        from rewards r
       where r.id = i.want_id and r.workspace_id = i.workspace_id and r.mode = i.mode and r.archived_at is null
      union all
      select r.id, r.name, r.type, r.cost_points, r.config, r.active, r.starts_at, r.ends_at, r.stock_remaining,
             r.min_tier
        from rewards r
       where i.want_id is null and r.workspace_id = i.workspace_id and r.mode = i.mode and r.name = i.want_name
         and r.archived_at is null) r on true
    -- LATERAL: one probe of the idempotency index per item; a plain join may hash the whole table
    -- against unnest's guess of 100 items (a bench run showed one sequential scan per redemption).
    left join lateral (
      select x.id from redemptions x
       where x.workspace_id = i.workspace_id and x.mode = i.mode and x.idempotency_key = i.key) x on true
), go as materialized (
  select * from look
   where existing_id is null and participant_id is not null and reward_id is not null
     and (want_name is null or name = want_name) and in_window and tier_ok
     and (type <> 'external' or $11::boolean)
     and (case when code_backed then has_free_code else coalesce(stock_remaining > 0, true) end)
     and balance >= cost_points
), stock as materialized (
  select r.id, r.stock_remaining from rewards r
   where r.id in (select reward_id from go where not code_backed and stock_remaining is not null)
   order by r.id
     for no key update
), code as materialized (
  select w.reward_id, c.id, c.code, row_number() over (partition by w.reward_id order by c.id) as rank
    from (select reward_id, count(*) as n from go where code_backed group by reward_id) w
   cross join lateral (
     select c.id, c.code from reward_codes c
      where c.reward_id = w.reward_id and c.redeemed_at is null
      order by c.id limit w.n
        for update skip locked) c
), payer as materialized (
  select p.id, p.balance from participants p
   where p.id in (select participant_id from go
                   where case when code_backed then reward_id in (select reward_id from code)
                              when stock_remaining is null then true
                              else reward_id in (select id from stock where stock_remaining > 0) end)
   order by p.id
     for no key update
), eligible as materialized (
  select go.*, row_number() over (partition by go.reward_id order by go.idx) as rank
    from go join payer on payer.id = go.participant_id
   where payer.balance >= go.cost_points
     -- One row per participant (callers send no more): a second could not be debited separately.
     and go.idx = (select min(g.idx) from go g where g.participant_id = go.participant_id)
), ok as materialized (
  select e.idx, e.workspace_id, e.mode, e.external_id, e.key, e.hash, e.reference, e.changed_id, e.redeemed_id,
         e.participant_id, e.reward_id, e.name, e.type, e.cost_points, e.code_backed, e.stock_remaining, e.config,
         code.id as code_id, nextval('redemptions_id_seq') as id, m.expires_at,
         case when e.type in ('physical', 'external') then 'pending' else 'fulfilled' end as status,
         ${FULFILMENT_JSON} as fulfilment
    from eligible e
    left join code on e.code_backed and code.reward_id = e.reward_id and code.rank = e.rank
    left join stock on not e.code_backed and stock.id = e.reward_id
   cross join lateral (
     select case when e.type = 'points_multiplier'
              then now() + make_interval(hours => (e.config->>'duration_hours')::int) end as expires_at) m
   where case when e.code_backed then code.id is not null
              when e.stock_remaining is null then true
              else e.rank <= stock.stock_remaining end
), claimed as (
  update reward_codes c set redeemed_at = now(), redemption_id = ok.id
    from ok where c.id = ok.code_id
  returning c.id
), counted as (
  update rewards r set stock_remaining = r.stock_remaining - t.units
    from (select reward_id, count(*) as units from ok where not code_backed and stock_remaining is not null
           group by reward_id) t
   where r.id = t.reward_id
  returning r.id
), ${debit.ctes}, redemption as (
  insert into redemptions (id, workspace_id, mode, participant_id, reward_id, status, fulfilment, cost_points,
                           idempotency_key, request_hash, reference)
  select ok.id, ok.workspace_id, ok.mode, ok.participant_id, ok.reward_id, ok.status, ok.fulfilment::jsonb,
         ok.cost_points, ok.key, ok.hash, ok.reference
    from ok
  returning ${redemptionColumns()}
), perk as (
  insert into participant_multipliers (workspace_id, mode, participant_id, redemption_id, factor, expires_at)
  select ok.workspace_id, ok.mode, ok.participant_id, ok.id, (ok.config->>'factor')::numeric, ok.expires_at
    from ok where ok.type = 'points_multiplier'
), results as (
  select ok.changed_id as id, ok.workspace_id, ok.mode, 'points.changed'::text as type,
         ${pointsChangedJson} as data, ok.idx * 2 - 1 as ord
    from ok join ${debit.entry} on ${debit.entry}.reference = ok.id::text
  union all
  select ok.redeemed_id, ok.workspace_id, ok.mode, 'reward.redeemed', ${rewardRedeemedJson}, ok.idx * 2
    from ok join redemption x on x.id = ok.id
   where ok.type <> 'external'
), ${emit.ctes}
select look.participant_id, look.balance, look.reward_id as reward_found, look.name as reward_name,
       look.type as reward_type, look.cost_points as reward_cost, look.in_window, look.min_tier, look.tier_ok,
       look.stock_remaining,
       look.code_backed, look.has_free_code, look.existing_id,
       (select payer.balance from payer where payer.id = look.participant_id) as locked_balance,
       ${redemptionColumns('x')}, look.external_id, ${emit.notify} as notified
  from look
  left join ok on ok.idx = look.idx
  left join redemption x on x.id = ok.id
 order by look.idx`;
