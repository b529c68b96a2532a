import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.ts';
import { uniqueViolation, withTransaction } from '../../db/tx.ts';
import { DomainError, notFound, validationError } from '../../errors.ts';
import { RECOVER_REDEMPTION_QUEUE } from '../../jobs/queues.ts';
import { clientDb } from '../../jobs/tx.ts';
import { insufficientPoints, postEntry } from '../ledger/post-entry.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import { parseInput } from '../validation.ts';
import { fulfilExternal, recoveryDelayMs } from './external-fulfilment.ts';
import { presentRedemption, type RedemptionDto, type RedemptionRow } from './presenters.ts';
import { multiplierConfig } from './reward-input.ts';
import { redeemedResult, replayRedemption } from './settle-redemption.ts';

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

interface Lookup {
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
  config: Record<string, unknown> | null;
  existing_id: string | null;
}

/**
 * Redeems a reward for a participant (SPEC 4.1, CONTRACT 5, 8). Stock and balance change in ONE
 * transaction: a code claimed with FOR UPDATE SKIP LOCKED (or a conditional stock decrement), the
 * debit through `postEntry` (a conditional balance UPDATE), the redemption row and its
 * `reward.redeemed` result, so concurrent redemptions can neither oversell nor overdraw. Checks:
 * 404 → reward_unavailable → out_of_stock → insufficient_points. External rewards commit the debit
 * first and then call their endpoint outside the transaction (see external-fulfilment.ts).
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

  // One round trip, no locks: what is checked here is re-checked by the conditional writes below.
  const byId = q.reward_id !== undefined;
  const { rows } = await ctx.pool.query<Lookup>({
    // Named (prepared once per connection): parsed and planned once, not on every redemption.
    name: byId ? 'rewards.redeem.lookup-by-id' : 'rewards.redeem.lookup-by-name',
    text: LOOKUP_SQL(byId ? 'r.id = $4::bigint' : 'r.name = $4::text'),
    values: [who.workspaceId, who.mode, q.participant, byId ? q.reward_id : q.reward, key],
  });
  const found = rows[0]!;
  if (found.existing_id) return replayRedemption(ctx, who, found.existing_id, hash);
  if (!found.participant_id) throw notFound('participant');
  if (!found.reward_id) throw notFound('reward');
  if (q.reward_id !== undefined && q.reward !== undefined && q.reward !== found.name)
    throw validationError([{ field: 'reward', message: `reward ${q.reward_id} is not named '${q.reward}'` }]);
  if (!found.in_window)
    throw new DomainError('reward_unavailable', `Reward '${found.name}' is inactive or outside its window`);
  const cost = Number(found.cost_points);
  const balance = Number(found.balance);
  // Sold out is answered without a transaction (most of a rush's losers); a unit that looks free
  // here is still claimed conditionally below.
  if (found.code_backed ? !found.has_free_code : found.stock_remaining === 0) throw outOfStock(found.name!);
  // Refused without taking a lock, so a redeemer who cannot pay never holds a unit others could have.
  if (balance < cost) throw insufficientPoints(balance, cost);

  let row: RedemptionRow;
  try {
    row = await withTransaction(ctx.pool, (sql) =>
      redeemInTransaction(ctx, sql, who, {
        participantId: Number(found.participant_id),
        externalId: q.participant,
        rewardId: Number(found.reward_id),
        name: found.name!,
        type: found.type!,
        cost,
        codeBacked: Boolean(found.code_backed),
        config: found.config ?? {},
        key,
        hash,
      }),
    );
  } catch (err) {
    // A concurrent request with the same key committed first: this one rolled back; replay the winner.
    if (key && (err instanceof KeyTaken || uniqueViolation(err) === 'redemptions_idempotency_key_unique')) {
      const existing = await ctx.pool.query<{ id: string }>(
        `select id from redemptions where workspace_id = $1 and mode = $2 and idempotency_key = $3`,
        [who.workspaceId, who.mode, key],
      );
      return replayRedemption(ctx, who, existing.rows[0]!.id, hash);
    }
    throw err;
  }
  if (found.type === 'external') return { redemption: await fulfilExternal(ctx, row), replayed: false };
  return { redemption: presentRedemption(row), replayed: false };
}

interface Redeeming {
  participantId: number;
  externalId: string;
  rewardId: number;
  name: string;
  type: string;
  cost: number;
  codeBacked: boolean;
  config: Record<string, unknown>;
  key: string | null;
  hash: string;
}

const LOOKUP_SQL = (rewardMatch: string) =>
  `select p.id as participant_id, p.balance, r.id as reward_id, r.name, r.type, r.cost_points,
          (r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))
            as in_window,
          r.stock_remaining, r.config,
          (r.type = 'voucher_code' or (r.type = 'digital_asset'
            and exists (select 1 from reward_codes c where c.reward_id = r.id))) as code_backed,
          exists (select 1 from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
            as has_free_code,
          x.id as existing_id
     from (select 1) one
     left join participants p on p.workspace_id = $1 and p.mode = $2 and p.external_id = $3
     left join rewards r on r.workspace_id = $1 and r.mode = $2 and r.archived_at is null and ${rewardMatch}
     left join redemptions x on x.workspace_id = $1 and x.mode = $2 and x.idempotency_key = $5::text`;

/** True unless a committed redemption already holds the key ($6; null never matches). */
const KEY_FREE = `not exists (select 1 from redemptions k where k.workspace_id = $2 and k.mode = $3 and k.idempotency_key = $6)`;

/** The key was taken by a concurrent request that committed first: roll back and replay it. */
class KeyTaken extends Error {}

const RETURNING = `returning id, reward_id, mode, status, fulfilment, cost_points, idempotency_key, created_at, updated_at`;
const INSERT_COLUMNS = `(id, workspace_id, mode, participant_id, reward_id, status, fulfilment, cost_points,
  idempotency_key, request_hash, reference)`;

async function redeemInTransaction(
  ctx: AppContext,
  sql: pg.PoolClient,
  who: Principal,
  r: Redeeming,
): Promise<RedemptionRow> {
  const reference = r.key ?? `red_${randomUUID()}`;
  const common = [r.rewardId, who.workspaceId, who.mode, r.participantId, r.cost, r.key, r.hash, reference];
  let inserted: Omit<RedemptionRow, 'external_id'> | undefined;
  if (r.key) {
    // Duplicates of one key queue here, before any stock is touched: otherwise N copies in flight
    // would each hold a unit and starve each other (and others) into a false out_of_stock. The
    // statements below then skip their writes when the key turns out to be taken meanwhile.
    await sql.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `redemption:${who.workspaceId}:${who.mode}:${r.key}`,
    ]);
  }
  if (r.codeBacked) {
    // The claim skips codes other transactions hold, so N redeemers take N different codes at once
    // instead of queueing on one row; the insert happens in the same statement (one round trip).
    const res = await sql.query({
      name: 'rewards.redeem.claim-code',
      text: `with rid as materialized (select nextval('redemptions_id_seq') as id),
       code as (
         select c.id from reward_codes c
          where c.reward_id = $1 and c.redeemed_at is null and ${KEY_FREE}
          order by c.id limit 1 for update skip locked),
       claimed as (
         update reward_codes c set redeemed_at = now(), redemption_id = (select id from rid)
           from code where c.id = code.id returning c.code)
       insert into redemptions ${INSERT_COLUMNS}
       select (select id from rid), $2, $3, $4, $1, 'fulfilled',
              jsonb_build_object('type', $9::text, 'code', claimed.code), $5, $6, $7, $8
         from claimed
       ${RETURNING}`,
      values: [...common, r.type],
    });
    inserted = res.rows[0];
  } else {
    const { status, fulfilment } = plannedOutcome(r);
    // The conditional decrement is the stock check: it matches no row once stock is 0.
    const res = await sql.query({
      name: 'rewards.redeem.claim-stock',
      text: `with k as materialized (select ${KEY_FREE} as free),
       s as (
         update rewards set stock_remaining = stock_remaining - 1
          where id = $1 and stock_remaining > 0 and (select free from k) returning id)
       insert into redemptions ${INSERT_COLUMNS}
       select nextval('redemptions_id_seq'), $2, $3, $4, $1, $9, $10::jsonb, $5, $6, $7, $8
        where exists (select 1 from s)
           or ((select free from k) and exists (select 1 from rewards where id = $1 and stock_remaining is null))
       ${RETURNING}`,
      values: [...common, status, JSON.stringify(fulfilment)],
    });
    inserted = res.rows[0];
  }
  if (!inserted) {
    if (r.key) {
      const taken = await sql.query(
        `select 1 from redemptions where workspace_id = $1 and mode = $2 and idempotency_key = $3`,
        [who.workspaceId, who.mode, r.key],
      );
      if (taken.rows.length) throw new KeyTaken();
    }
    throw outOfStock(r.name);
  }
  const row: RedemptionRow = { ...inserted, external_id: r.externalId };
  // points.changed and reward.redeemed reach the outbox together, in one statement.
  const results: ResultToEmit[] = [];
  await postEntry(
    sql,
    {
      workspaceId: who.workspaceId,
      mode: who.mode,
      participantId: r.participantId,
      externalId: r.externalId,
      points: -r.cost,
      source: 'redemption',
      reason: `Redeemed ${r.name}`,
      reference: String(row.id),
    },
    results,
  );
  if (r.type === 'points_multiplier') {
    const m = row.fulfilment.multiplier as { factor: number; expires_at: string };
    await sql.query(
      `insert into participant_multipliers (workspace_id, mode, participant_id, redemption_id, factor, expires_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [who.workspaceId, who.mode, r.participantId, row.id, m.factor, m.expires_at],
    );
  }
  if (r.type === 'external') {
    // The net under the call made after commit: if this process dies first, the job finishes or
    // reverses the redemption (nothing stays debited without an outcome).
    await ctx.boss.send(
      RECOVER_REDEMPTION_QUEUE,
      { redemptionId: Number(row.id) },
      { startAfter: new Date(Date.now() + recoveryDelayMs(ctx)), db: clientDb(sql) },
    );
  } else {
    results.push(redeemedResult(who, row, { id: r.rewardId, name: r.name, type: r.type }));
  }
  await emitResults(sql, results);
  return row;
}

/** Status and fulfilment of a redemption that takes no code from a pool. */
function plannedOutcome(r: Redeeming): { status: string; fulfilment: Record<string, unknown> } {
  switch (r.type) {
    case 'physical':
    case 'external':
      return { status: 'pending', fulfilment: { type: r.type } };
    case 'points_multiplier': {
      const m = multiplierConfig.parse(r.config);
      const expiresAt = new Date(Date.now() + m.duration_hours * 3_600_000).toISOString();
      return {
        status: 'fulfilled',
        fulfilment: { type: r.type, multiplier: { factor: m.factor, expires_at: expiresAt } },
      };
    }
    case 'digital_asset': {
      const { asset_code, asset_url } = r.config as { asset_code?: string; asset_url?: string };
      return {
        status: 'fulfilled',
        fulfilment: {
          type: r.type,
          ...(asset_code && { code: asset_code }),
          ...(asset_url && { url: asset_url }),
        },
      };
    }
    default:
      throw new Error(`reward type ${r.type} has no fulfilment without a code pool`);
  }
}

const outOfStock = (name: string) => new DomainError('out_of_stock', `Reward '${name}' is out of stock`);
