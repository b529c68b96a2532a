import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { isoJsonSql, jsonSql } from '../../db/sql-json.ts';
import { type Sql, uniqueViolation, withTransaction } from '../../db/tx.ts';
import { DomainError, notFound, validationError } from '../../errors.ts';
import { RECOVER_REDEMPTION_QUEUE } from '../../jobs/queues.ts';
import { clientDb } from '../../jobs/tx.ts';
import { Batcher, ItemFailure } from '../../lib/batcher.ts';
import { text } from '../../lib/primitives.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Principal } from '../keys/principal.ts';
import { debitCtes, insufficientPoints } from '../ledger/post-entry.ts';
import { entryJsonSql } from '../ledger/presenters.ts';
import { emitResultsCtes } from '../outbox/emit.ts';
import { parseInput } from '../validation.ts';
import { fulfilExternal, recoveryDelayMs } from './external-fulfilment.ts';
import { presentRedemption, type RedemptionRow, redemptionJsonSql } from './presenters.ts';
import { replayRedemption } from './settle-redemption.ts';
import type { RedemptionDto } from './shapes.ts';

// Raw SQL: the bench suite `rewards` (≥ 0.6× a bare pg baseline; 500-way contention): `for update skip
// locked` code claims, `pg_advisory_xact_lock`, conditional `update … returning`.
export const redeemInput = z
  .strictObject({
    participant: text(255, { min: 1 }).meta({ description: "The participant's external id." }),
    reward_id: z.int().positive().optional().meta({ description: 'One of reward_id or reward.' }),
    reward: text(200, { min: 1 }).optional().meta({ description: 'The reward by name.' }),
    idempotency_key: text(255, { min: 1 })
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

/** One redemption as the statement takes it (one element of each of its array parameters). */
interface Item {
  workspaceId: string;
  mode: string;
  participant: string;
  rewardId: number | null;
  rewardName: string | null;
  key: string | null;
  hash: string;
  reference: string;
}

/**
 * Redeems a reward for a participant (SPEC 4.1, CONTRACT 5, 8). The lookup, the unit's claim, the
 * debit, the redemption row and its results are ONE statement (REDEEM_SQL below) that commits on
 * its own: the code or stock row it locks is held for that statement only, and redemptions that
 * arrive together share it (one round trip for many; see `batchFor`). Checks: 404 →
 * reward_unavailable → out_of_stock → insufficient_points. A keyed request runs the statement
 * alone in a transaction behind an advisory lock on its key; an external reward in a transaction
 * with its recovery job, then calls its endpoint outside it (see external-fulfilment.ts).
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
  const item: Item = {
    workspaceId: who.workspaceId,
    mode: who.mode,
    participant: q.participant,
    rewardId: q.reward_id ?? null,
    rewardName: q.reward ?? null,
    key,
    hash,
    reference: key ?? `red_${randomUUID()}`,
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
      const [out] = await redeemStatement(sql, [item], true);
      // The net under the call made after commit: if this process dies first, the job finishes
      // or reverses the redemption (nothing stays debited without an outcome).
      if (out!.redemption_id && out!.type === 'external')
        await ctx.boss.send(
          RECOVER_REDEMPTION_QUEUE,
          { redemptionId: Number(out!.redemption_id) },
          { startAfter: new Date(Date.now() + recoveryDelayMs(ctx)), db: clientDb(sql) },
        );
      return out!;
    });

  let out: Outcome;
  try {
    out = key ? await inTransaction() : await batchFor(ctx.pool).submit(item);
    // An external reward needs its recovery job in the same transaction: the shared statement
    // left it alone (nothing written), so it runs again inside one.
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
  if (out.locked_balance !== null && Number(out.locked_balance) < cost)
    throw insufficientPoints(Number(out.locked_balance), cost);
  throw outOfStock(out.name!);
}

/** What REDEEM_SQL answers per item: its lookup (as of its snapshot), the locked balance, the redemption made. */
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
  /** The participant's balance read under its row lock (null: not locked, no unit was left for it). */
  locked_balance: string | null;
  redemption_id: string | null;
  redemption_mode: RedemptionRow['mode'] | null;
  status: RedemptionRow['status'] | null;
  fulfilment: RedemptionRow['fulfilment'] | null;
  redemption_cost: string | null;
  idempotency_key: string | null;
  created_at: Date | null;
  updated_at: Date | null;
}

const outOfStock = (name: string) => new DomainError('out_of_stock', `Reward '${name}' is out of stock`);

/** Runs REDEEM_SQL for `items` (at most one per participant); one outcome per item, in order. */
async function redeemStatement(sql: Sql, items: readonly Item[], inTransaction: boolean): Promise<Outcome[]> {
  const { rows } = await sql.query<Outcome>({
    // Named (prepared once per connection): parsed and planned once, not on every redemption.
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

/** Up to this many redemptions share one statement; up to CONCURRENCY statements run at once. */
const MAX_BATCH = 50;
const CONCURRENCY = 6;
const batchers = new WeakMap<pg.Pool, Batcher<Item, Outcome>>();

/**
 * Redemptions without an idempotency key that arrive in the same turn of the event loop (or while
 * CONCURRENCY statements are running) share one statement: a rush of N redemptions is N/50 round
 * trips, not N. Under light load a batch is one redemption. A participant appears at most once per
 * statement (its balance is checked and debited per row), so a batch holding one participant
 * twice runs as consecutive statements. Should Postgres refuse a shared statement (a deadlock
 * with another multi-row writer, say: nothing of it was written), its redemptions run again one
 * by one, so one can never fail another.
 */
function batchFor(pool: pg.Pool): Batcher<Item, Outcome> {
  let batcher = batchers.get(pool);
  if (!batcher) {
    batcher = new Batcher<Item, Outcome>(
      async (items) => {
        const outcomes: (Outcome | ItemFailure)[] = new Array(items.length);
        for (const round of distinctParticipants(items)) {
          try {
            const outs = await redeemStatement(
              pool,
              round.map((i) => items[i]!),
              false,
            );
            round.forEach((i, k) => {
              outcomes[i] = outs[k]!;
            });
          } catch (err) {
            // Only a statement Postgres refused is known to have written nothing; after any other
            // failure (a connection lost mid-answer) it may have committed, and running its
            // redemptions again could charge twice.
            if (round.length === 1 || !refusedByPostgres(err))
              for (const i of round) outcomes[i] = new ItemFailure(err);
            else
              for (const i of round)
                outcomes[i] = await redeemStatement(pool, [items[i]!], false).then(
                  ([out]) => out!,
                  (e: unknown) => new ItemFailure(e),
                );
          }
        }
        return outcomes;
      },
      { maxBatch: MAX_BATCH, concurrency: CONCURRENCY },
    );
    batchers.set(pool, batcher);
  }
  return batcher;
}

/** An error Postgres answered for the statement (SQLSTATE and severity): the statement wrote nothing. */
function refusedByPostgres(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/** Splits items (by index) into rounds in which each participant appears once, keeping their order. */
function distinctParticipants(items: readonly Item[]): number[][] {
  const rounds: { seen: Set<string>; indexes: number[] }[] = [];
  items.forEach((item, i) => {
    const who = `${item.workspaceId}\u0000${item.mode}\u0000${item.participant}`;
    let round = rounds.find((r) => !r.seen.has(who));
    if (!round) {
      round = { seen: new Set(), indexes: [] };
      rounds.push(round);
    }
    round.seen.add(who);
    round.indexes.push(i);
  });
  return rounds.map((r) => r.indexes);
}

const emit = emitResultsCtes('results');

/**
 * Redemptions in one statement (README "How redemption stays atomic"), one element per
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
 * the debits and their ledger entries (ledger `debitCtes`), the redemption rows, multiplier
 * perks, and `points.changed` + `reward.redeemed` in the outbox with their webhook deliveries
 * (outbox `emitResultsCtes`). The results' JSON is built here: their ids and timestamps are made here.
 */
const REDEEM_SQL = `
with items as materialized (
  select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::uuid[], $10::uuid[]) with ordinality
    as i(workspace_id, mode, external_id, want_id, want_name, key, hash, reference, changed_id, redeemed_id, idx)
), look as materialized (
  select i.*, p.id as participant_id, p.balance, r.id as reward_id, r.name, r.type, r.cost_points, r.config,
         (r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))
           as in_window,
         r.stock_remaining,
         (r.type = 'voucher_code' or (r.type = 'digital_asset'
           and exists (select 1 from reward_codes c where c.reward_id = r.id))) as code_backed,
         exists (select 1 from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
           as has_free_code,
         x.id as existing_id
    from items i
    left join participants p on p.workspace_id = i.workspace_id and p.mode = i.mode and p.external_id = i.external_id
    left join lateral (
      select r.id, r.name, r.type, r.cost_points, r.config, r.active, r.starts_at, r.ends_at, r.stock_remaining
        from rewards r
       where r.id = i.want_id and r.workspace_id = i.workspace_id and r.mode = i.mode and r.archived_at is null
      union all
      select r.id, r.name, r.type, r.cost_points, r.config, r.active, r.starts_at, r.ends_at, r.stock_remaining
        from rewards r
       where i.want_id is null and r.workspace_id = i.workspace_id and r.mode = i.mode and r.name = i.want_name
         and r.archived_at is null) r on true
    left join redemptions x on x.workspace_id = i.workspace_id and x.mode = i.mode and x.idempotency_key = i.key
), go as materialized (
  select * from look
   where existing_id is null and participant_id is not null and reward_id is not null
     and (want_name is null or name = want_name) and in_window
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
         case
           when e.code_backed then
             '{"code":' || to_json(code.code::text)::text || ',"type":' || to_json(e.type::text)::text || '}'
           when e.type = 'points_multiplier' then
             '{"type":"points_multiplier","multiplier":{"factor":' || (e.config->'factor')::text
               || ',"expires_at":' || ${isoJsonSql('m.expires_at')} || '}}'
           when e.type = 'digital_asset' then
             '{' || coalesce('"url":' || (e.config->'asset_url')::text || ',', '')
               || coalesce('"code":' || (e.config->'asset_code')::text || ',', '') || '"type":"digital_asset"}'
           else '{"type":' || to_json(e.type::text)::text || '}'
         end as fulfilment
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
), ${debitCtes({
  from: 'ok',
  workspaceId: 'ok.workspace_id',
  mode: 'ok.mode',
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
  select ok.id, ok.workspace_id, ok.mode, ok.participant_id, ok.reward_id, ok.status, ok.fulfilment::jsonb,
         ok.cost_points, ok.key, ok.hash, ok.reference
    from ok
  returning id, reward_id, mode, status, fulfilment, cost_points, idempotency_key, created_at, updated_at
), perk as (
  insert into participant_multipliers (workspace_id, mode, participant_id, redemption_id, factor, expires_at)
  select ok.workspace_id, ok.mode, ok.participant_id, ok.id, (ok.config->>'factor')::numeric, ok.expires_at
    from ok where ok.type = 'points_multiplier'
), results as (
  select ok.changed_id as id, ok.workspace_id, ok.mode, 'points.changed'::text as type,
         '{"participant":{"external_id":' || ${jsonSql('ok.external_id')} || '},"entry":' || ${entryJsonSql('entry')}
           || ',"balance":' || entry.balance_after || '}' as data,
         ok.idx * 2 - 1 as ord
    from ok join entry on entry.reference = ok.id::text
  union all
  select ok.redeemed_id, ok.workspace_id, ok.mode, 'reward.redeemed',
         '{"participant":{"external_id":' || ${jsonSql('ok.external_id')} || '},"redemption":'
           || ${redemptionJsonSql('x', 'ok.external_id', 'ok.fulfilment')}
           || ',"reward":{"id":' || ok.reward_id || ',"name":' || ${jsonSql('ok.name::text')}
           || ',"type":' || ${jsonSql('ok.type::text')} || '}}',
         ok.idx * 2
    from ok join redemption x on x.id = ok.id
   where ok.type <> 'external'
), ${emit.ctes}
select look.participant_id, look.balance, look.reward_id, look.name, look.type, look.cost_points, look.in_window,
       look.stock_remaining, look.code_backed, look.has_free_code, look.existing_id,
       (select payer.balance from payer where payer.id = look.participant_id) as locked_balance,
       x.id as redemption_id, x.mode as redemption_mode, x.status, x.fulfilment, x.cost_points as redemption_cost,
       x.idempotency_key, x.created_at, x.updated_at, ${emit.notify} as notified
  from look
  left join ok on ok.idx = look.idx
  left join redemption x on x.id = ok.id
 order by look.idx`;
