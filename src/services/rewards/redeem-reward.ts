import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.ts';
import { uniqueViolation, withTransaction } from '../../db/tx.ts';
import { DomainError, notFound, validationError } from '../../errors.ts';
import { RECOVER_REDEMPTION_QUEUE } from '../../jobs/queues.ts';
import { clientDb } from '../../jobs/tx.ts';
import { debitCtes, insufficientPoints } from '../ledger/post-entry.ts';
import { entryJsonSql } from '../ledger/presenters.ts';
import { emitResultsCtes } from '../outbox/emit.ts';
import { parseInput } from '../validation.ts';
import { fulfilExternal, recoveryDelayMs } from './external-fulfilment.ts';
import {
  isoJsonSql,
  jsonSql,
  presentRedemption,
  type RedemptionDto,
  type RedemptionRow,
  redemptionJsonSql,
} from './presenters.ts';
import { replayRedemption } from './settle-redemption.ts';
export const redeemInput = z
  .strictObject({
    participant: z.string().min(1).max(255).meta({ description: "The participant's external id." }),
    reward_id: z.int().positive().optional().meta({ description: 'One of reward_id or reward.' }),
    reward: z.string().min(1).max(200).optional().meta({ description: 'The reward by name.' }),
    idempotency_key: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .meta({
        description:
          'A retry with the same key answers 200 with the original redemption and never charges twice; the ' +
          'same key with a different body is a 409. The `Idempotency-Key` header wins when both are sent.',
      }),
  })
  .refine((v) => v.reward_id !== undefined || v.reward !== undefined, {
    path: ['reward_id'],
    message: 'one of reward_id or reward is required',
  });
export type RedeemInput = z.input<typeof redeemInput>;

export interface RedeemResult {
  redemption: RedemptionDto;
  /** True when the idempotency key matched an earlier redemption: nothing was charged again. */
  replayed: boolean;
}

/**
 * Redeems a reward for a participant (SPEC 4.1, CONTRACT 5, 8). The lookup, the unit's claim,
 * the debit, the redemption row and its results are ONE statement (REDEEM_SQL below), which is the
 * whole transaction of a redemption without an idempotency key: one round trip to Postgres, and
 * the code or stock row it locks is held for that statement only. Checks: 404 →
 * reward_unavailable → out_of_stock → insufficient_points. A keyed request runs it in a
 * transaction behind an advisory lock on the key; an external reward in a transaction with its
 * recovery job, then calls its endpoint outside it (see external-fulfilment.ts).
 */
export async function redeemReward(
  ctx: AppContext,
  who: Principal,
  input: unknown,
  headerKey?: string | null,
): Promise<RedeemResult> {
  const q = parseInput(redeemInput, input);
  if (headerKey != null && (headerKey.length < 1 || headerKey.length > 255))
    throw validationError([{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
  const key = headerKey ?? q.idempotency_key ?? null;
  const hash = createHash('sha256')
    .update(JSON.stringify([q.participant, q.reward_id ?? null, q.reward ?? null]))
    .digest('hex');
  const byId = q.reward_id !== undefined;
  const reference = key ?? `red_${randomUUID()}`;
  const run = async (sql: Pick<pg.PoolClient, 'query'>, inTransaction: boolean) => {
    const { rows } = await sql.query<Outcome>({
      // Named (prepared once per connection): parsed and planned once, not on every redemption.
      name: byId ? 'rewards.redeem.by-id' : 'rewards.redeem.by-name',
      text: byId ? REDEEM_BY_ID_SQL : REDEEM_BY_NAME_SQL,
      values: [
        who.workspaceId,
        who.mode,
        q.participant,
        q.reward_id ?? null,
        q.reward ?? null,
        key,
        hash,
        reference,
        uuidv7(), // the outbox id of points.changed
        uuidv7(), // and of reward.redeemed, after it
        inTransaction,
      ],
    });
    return rows[0]!;
  };
  const inTransaction = () =>
    withTransaction(ctx.pool, async (sql) => {
      // Duplicates of one key queue here, before any stock is touched: otherwise N copies in
      // flight would each hold a unit and starve each other (and others) into a false
      // out_of_stock. The statement, with its snapshot taken after the lock, then sees the
      // redemption of a duplicate that committed first and writes nothing.
      if (key)
        await sql.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `redemption:${who.workspaceId}:${who.mode}:${key}`,
        ]);
      const out = await run(sql, true);
      // The net under the call made after commit: if this process dies first, the job finishes
      // or reverses the redemption (nothing stays debited without an outcome).
      if (out.redemption_id && out.type === 'external')
        await ctx.boss.send(
          RECOVER_REDEMPTION_QUEUE,
          { redemptionId: Number(out.redemption_id) },
          { startAfter: new Date(Date.now() + recoveryDelayMs(ctx)), db: clientDb(sql) },
        );
      return out;
    });

  let out: Outcome;
  try {
    out = key ? await inTransaction() : await run(ctx.pool, false);
    // An external reward needs its recovery job in the same transaction: the statement left it
    // alone outside one (nothing written), so it runs again inside one.
    if (!key && !out.redemption_id && out.type === 'external' && out.in_window && !out.existing_id)
      out = await inTransaction();
  } catch (err) {
    // A concurrent request with the same key committed first: this one rolled back; replay the winner.
    if (key && uniqueViolation(err) === 'redemptions_idempotency_key_unique') {
      const existing = await ctx.pool.query<{ id: string }>(
        `select id from redemptions where workspace_id = $1 and mode = $2 and idempotency_key = $3`,
        [who.workspaceId, who.mode, key],
      );
      return replayRedemption(ctx, who, existing.rows[0]!.id, hash);
    }
    throw err;
  }

  if (out.existing_id) return replayRedemption(ctx, who, out.existing_id, hash);
  if (!out.participant_id) throw notFound('participant');
  if (!out.reward_id) throw notFound('reward');
  if (q.reward_id !== undefined && q.reward !== undefined && q.reward !== out.name)
    throw validationError([{ field: 'reward', message: `reward ${q.reward_id} is not named '${q.reward}'` }]);
  if (!out.in_window)
    throw new DomainError('reward_unavailable', `Reward '${out.name}' is inactive or outside its window`);
  if (out.redemption_id) {
    const row: RedemptionRow = {
      id: out.redemption_id,
      reward_id: out.reward_id,
      external_id: q.participant,
      mode: out.redemption_mode!,
      status: out.status!,
      fulfilment: out.fulfilment!,
      cost_points: out.redemption_cost!,
      idempotency_key: out.idempotency_key,
      created_at: out.created_at!,
      updated_at: out.updated_at!,
    };
    if (out.type === 'external') return { redemption: await fulfilExternal(ctx, row), replayed: false };
    return { redemption: presentRedemption(row), replayed: false };
  }
  // Refused. First what the snapshot showed (nothing was locked), then what the locks found.
  const cost = Number(out.cost_points);
  if (out.code_backed ? !out.has_free_code : out.stock_remaining === 0) throw outOfStock(out.name!);
  if (Number(out.balance) < cost) throw insufficientPoints(Number(out.balance), cost);
  if (!out.unit_claimed) throw outOfStock(out.name!);
  if (out.locked_balance !== null && Number(out.locked_balance) < cost)
    throw insufficientPoints(Number(out.locked_balance), cost);
  throw new Error(`redemption of reward ${out.reward_id} by participant ${out.participant_id} wrote nothing`);
}

/** What REDEEM_SQL answers: its lookup (as of its snapshot), what the locks found, the redemption made. */
interface Outcome {
  participant_id: string | null;
  balance: string | null;
  reward_id: string | null;
  name: string | null;
  type: string | null;
  cost_points: string | null;
  in_window: boolean | null;
  stock_remaining: number | null;
  code_backed: boolean | null;
  has_free_code: boolean | null;
  existing_id: string | null;
  /** A code or a stock unit was claimed under lock. */
  unit_claimed: boolean;
  /** The participant's balance read under its row lock (null: not locked). */
  locked_balance: string | null;
  redemption_id: string | null;
  redemption_mode: RedemptionRow['mode'] | null;
  status: string | null;
  fulfilment: Record<string, unknown> | null;
  redemption_cost: string | null;
  idempotency_key: string | null;
  created_at: Date | null;
  updated_at: Date | null;
}

const outOfStock = (name: string) => new DomainError('out_of_stock', `Reward '${name}' is out of stock`);

const emit = emitResultsCtes('results');

/**
 * The whole redemption in one statement (README "How redemption stays atomic"). Parameters:
 * $1 workspace, $2 mode, $3 participant external id, $4 reward id, $5 reward name, $6 idempotency
 * key, $7 request hash, $8 reference, $9/$10 outbox ids, $11 true inside a transaction (only
 * there may an external reward be redeemed: its recovery job is sent in the same transaction).
 *
 * Reads first, from the statement's snapshot and without locks (`look`, `go`): everything that
 * refuses a redemption before it could hold anything. Then the locks, unit before participant
 * (the order cancellations keep too): the next free code FOR UPDATE SKIP LOCKED, or the reward
 * row of a counted stock FOR NO KEY UPDATE, then the participant's row FOR NO KEY UPDATE. Under a
 * row lock Postgres reads the row's latest committed version, so `ok` exists only when the locked
 * unit is still free and the locked balance still covers the cost, and then every write below is
 * certain to apply to rows nobody else can change until this statement commits; the CHECKs
 * (stock_remaining >= 0, balance >= 0) would fail the whole statement rather than let any of them
 * be skipped. Writes: the code claimed or the stock decremented, the debit and its ledger entry
 * (ledger `debitCtes`), the redemption row, a multiplier perk, and `points.changed` +
 * `reward.redeemed` in the outbox with their webhook deliveries (outbox `emitResultsCtes`). The
 * results' JSON is built here because the ids and timestamps they carry are made here.
 */
const REDEEM_SQL = (rewardMatch: string) => `
with look as materialized (
  select p.id as participant_id, p.balance, r.id as reward_id, r.name, r.type, r.cost_points, r.config,
         (r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))
           as in_window,
         r.stock_remaining,
         (r.type = 'voucher_code' or (r.type = 'digital_asset'
           and exists (select 1 from reward_codes c where c.reward_id = r.id))) as code_backed,
         exists (select 1 from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
           as has_free_code,
         x.id as existing_id
    from (select 1) one
    left join participants p on p.workspace_id = $1::uuid and p.mode = $2::text and p.external_id = $3::text
    left join rewards r on r.workspace_id = $1::uuid and r.mode = $2::text and r.archived_at is null and ${rewardMatch}
    left join redemptions x on x.workspace_id = $1::uuid and x.mode = $2::text and x.idempotency_key = $6::text
), go as materialized (
  select * from look
   where existing_id is null and participant_id is not null and reward_id is not null
     and ($5::text is null or name = $5::text) and in_window
     and (type <> 'external' or $11::boolean)
     and (case when code_backed then has_free_code else coalesce(stock_remaining > 0, true) end)
     and balance >= cost_points
), code as materialized (
  select c.id, c.code from reward_codes c
   where c.reward_id = (select reward_id from go where code_backed) and c.redeemed_at is null
   order by c.id limit 1
     for update skip locked
), stock as materialized (
  select r.stock_remaining from rewards r
   where r.id = (select reward_id from go where not code_backed and stock_remaining is not null)
     for no key update
), unit as materialized (
  select (select id from code) as code_id, (select code from code) as code
   where exists (select 1 from code)
      or exists (select 1 from stock where stock_remaining > 0)
      or exists (select 1 from go where not code_backed and stock_remaining is null)
), payer as materialized (
  select p.balance from participants p
   where p.id = (select participant_id from go where exists (select 1 from unit))
     for no key update
), ok as materialized (
  select go.participant_id, go.reward_id, go.name, go.type, go.cost_points, go.code_backed, go.stock_remaining,
         go.config, unit.code_id, nextval('redemptions_id_seq') as id, e.expires_at,
         case when go.type in ('physical', 'external') then 'pending' else 'fulfilled' end as status,
         case
           when go.code_backed then
             '{"code":' || to_json(unit.code::text)::text || ',"type":' || to_json(go.type::text)::text || '}'
           when go.type = 'points_multiplier' then
             '{"type":"points_multiplier","multiplier":{"factor":' || (go.config->'factor')::text
               || ',"expires_at":' || ${isoJsonSql('e.expires_at')} || '}}'
           when go.type = 'digital_asset' then
             '{' || coalesce('"url":' || (go.config->'asset_url')::text || ',', '')
               || coalesce('"code":' || (go.config->'asset_code')::text || ',', '') || '"type":"digital_asset"}'
           else '{"type":' || to_json(go.type::text)::text || '}'
         end as fulfilment
    from go, unit, payer,
         lateral (select case when go.type = 'points_multiplier'
                    then now() + make_interval(hours => (go.config->>'duration_hours')::int) end as expires_at) e
   where payer.balance >= go.cost_points
), claimed as (
  update reward_codes c set redeemed_at = now(), redemption_id = ok.id
    from ok where c.id = ok.code_id
  returning c.id
), counted as (
  update rewards r set stock_remaining = r.stock_remaining - 1
    from ok where r.id = ok.reward_id and not ok.code_backed and ok.stock_remaining is not null
  returning r.id
), ${debitCtes({
  from: 'ok',
  workspaceId: '$1::uuid',
  mode: '$2::text',
  participantId: 'ok.participant_id',
  cost: 'ok.cost_points',
  reason: `'Redeemed ' || ok.name`,
  source: 'redemption',
  reference: 'ok.id::text',
  moved: 'moved',
  entry: 'entry',
})}, redemption as (
  insert into redemptions (id, workspace_id, mode, participant_id, reward_id, status, fulfilment, cost_points,
                           idempotency_key, request_hash, reference)
  select ok.id, $1::uuid, $2::text, ok.participant_id, ok.reward_id, ok.status, ok.fulfilment::jsonb, ok.cost_points,
         $6::text, $7::text, $8::text
    from ok
  returning id, reward_id, mode, status, fulfilment, cost_points, idempotency_key, created_at, updated_at
), perk as (
  insert into participant_multipliers (workspace_id, mode, participant_id, redemption_id, factor, expires_at)
  select $1::uuid, $2::text, ok.participant_id, ok.id, (ok.config->>'factor')::numeric, ok.expires_at
    from ok where ok.type = 'points_multiplier'
), results as (
  select $9::uuid as id, $1::uuid as workspace_id, $2::text as mode, 'points.changed'::text as type,
         '{"participant":{"external_id":' || ${jsonSql('$3::text')} || '},"entry":' || ${entryJsonSql('entry')}
           || ',"balance":' || entry.balance_after || '}' as data,
         1 as ord
    from entry
  union all
  select $10::uuid, $1::uuid, $2::text, 'reward.redeemed',
         '{"participant":{"external_id":' || ${jsonSql('$3::text')} || '},"redemption":'
           || ${redemptionJsonSql('x', '$3::text', 'ok.fulfilment')}
           || ',"reward":{"id":' || ok.reward_id || ',"name":' || ${jsonSql('ok.name::text')}
           || ',"type":' || ${jsonSql('ok.type::text')} || '}}',
         2
    from redemption x, ok
   where ok.type <> 'external'
), ${emit.ctes}
select look.participant_id, look.balance, look.reward_id, look.name, look.type, look.cost_points, look.in_window,
       look.stock_remaining, look.code_backed, look.has_free_code, look.existing_id,
       exists (select 1 from unit) as unit_claimed, (select balance from payer) as locked_balance,
       x.id as redemption_id, x.mode as redemption_mode, x.status, x.fulfilment, x.cost_points as redemption_cost,
       x.idempotency_key, x.created_at, x.updated_at, ${emit.notify} as notified
  from look left join redemption x on true`;

const REDEEM_BY_ID_SQL = REDEEM_SQL('r.id = $4::bigint');
/** $4 is null here; named so that both statements take the same parameters. */
const REDEEM_BY_NAME_SQL = REDEEM_SQL('r.name = $5::text and $4::bigint is null');
