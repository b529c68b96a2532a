import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AppContext } from '../../context.ts';
import { survivePoolClientErrors } from '../../db/tx.ts';
import { decryptSecret } from '../../lib/secrets.ts';
import { DELIVERIES_CHANNEL } from '../outbox/emit.ts';
import { SUBSCRIPTIONS_CHANNEL } from './repository.ts';
import { type AttemptOutcome, sendDelivery } from './send.ts';

// Raw SQL: the bench suite `webhooks`: due deliveries claimed `for update skip locked` in batches,
// outcomes written with `unnest`.

/** Deliveries claimed per statement at most. */
const CLAIM_BATCH = 128;
/** Outcomes recorded per statement at most. */
const RECORD_BATCH = 500;
/**
 * A claim's lease: long enough for a claimed delivery to wait its turn in the local queue (at
 * most one attempt timeout: one that waited longer is handed back unsent, see `pump`) and then be
 * attempted, plus a margin. After it, a crashed worker's delivery is due again.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 10_000;
/**
 * Deliveries queued or in flight here, in rounds of sends: the claims run this far ahead of the
 * free slots, so a turn statement's latency never leaves a slot idle.
 */
const WINDOW_ROUNDS = 4;

/** Claimed and waiting for a send slot. */
interface Queued {
  delivery: Claimed;
  token: string;
  /** performance.now() when the claim returned. */
  claimedAt: number;
}
/** The longest the loop sleeps without a NOTIFY: a safety net for a dropped LISTEN connection. */
const IDLE_POLL_MS = 5_000;

interface Claimed {
  id: string;
  type: string;
  body: string;
  attempt_count: number;
  status: string;
  subscription_id: string;
  url: string;
  secret_enc: string;
  headers: Record<string, string>;
}

/** A row of TURN_SQL: `c` a claimed delivery, `d` a recorded one now dead, `n` the next due time. */
interface TurnRow extends Claimed {
  k: 'c' | 'd' | 'n';
  ms: number | null;
}

/**
 * The turn statement. $1–$9: the outcomes to record (columns of `r`); $10: how many to claim;
 * $11: the claim token; $12: the lease in ms; $13: subscriptions at their cap (not claimed).
 *
 * - `u` writes each outcome, only where the claim is still ours (`claim_token`); `a` logs the
 *   attempt with its number.
 * - `c` claims due deliveries with SKIP LOCKED, oldest due first, never one being recorded here;
 *   `= any(array(…))` keeps the outer UPDATE on the primary key (joined to a CTE instead, the
 *   planner seq-scans the whole table). A delivery whose subscription is no longer active dies.
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
), c as (
  update webhook_deliveries d set
    claim_token = $11,
    next_attempt_at = now() + make_interval(secs => $12::double precision / 1000),
    status = case when s.status = 'active' and s.deleted_at is null then d.status else 'dead' end,
    last_error = case when s.status = 'active' and s.deleted_at is null then d.last_error
                 else 'subscription ' || case when s.deleted_at is null then s.status else 'deleted' end end,
    updated_at = now()
  from webhook_subscriptions s
  where d.id = any(array(
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= now()
            and subscription_id <> all($13::uuid[]) and id <> all($1::uuid[])
          order by next_attempt_at limit $10
          for update skip locked))
    and s.id = d.subscription_id
  returning d.id, d.type, d.body, d.attempt_count, d.status, s.id as subscription_id, s.url,
            s.secret_enc, s.headers
)
select 'c' as k, id, type, body, attempt_count, status, subscription_id, url, secret_enc, headers,
       null::float8 as ms
from c
union all
select 'd', id, null, null, attempt_count, status, null, null, null, null, null
from u where status = 'dead'
union all
select 'n', null, null, null, null, null, null, null, null, null,
       case when (select count(*) from c) < $10 then
         (select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8
          from webhook_deliveries
          where status = 'pending' and subscription_id <> all($13::uuid[])
            and id not in (select id from c))
       end`;

interface Completed {
  id: string;
  token: string;
  outcome: AttemptOutcome;
  attemptedAt: Date;
  /** Seconds until the next attempt, or null when this was the last rung (the delivery dies). */
  retryInS: number | null;
}

/**
 * Claims due deliveries (`FOR UPDATE SKIP LOCKED`, so any number of workers share the load and
 * never take the same one), leases them (see `leaseMs`), then sends many at
 * once. Outcomes are written back in batches; only the holder of the claim may write one.
 *
 * One round trip per turn: a single statement records every outcome finished since the last
 * turn and claims as many due deliveries as there is room for (see `cycle`), so the sends never
 * wait on a separate claim or record query, and a burst costs one statement per few dozen
 * deliveries.
 *
 * Durability: the schedule lives in `next_attempt_at` (indexed). A worker that dies mid-attempt
 * leaves the lease to expire, after which the same attempt — same rung, same body bytes — is
 * made again: nothing is lost and no rung is skipped (receivers dedupe on the delivery id).
 *
 * Latency: emitResult NOTIFYs on commit; the dispatcher LISTENs and claims at once. Retries wake
 * the loop at their due time.
 */
export class DeliveryDispatcher {
  private readonly ctx: AppContext;
  private readonly concurrency: number;
  private readonly schedule: number[];
  private listener: pg.Client | null = null;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private inFlight = new Set<Promise<void>>();
  /** Claimed, waiting for a send slot: claims run ahead of sends so a slot never waits on a query. */
  private queue: Queued[] = [];
  private wakeFlag = false;
  private waiter: (() => void) | null = null;
  private completed: Completed[] = [];
  /**
   * The dispatcher's own connections for its turn statement. Bitmap scans are off there: without
   * fresh statistics (a new or just-filled table) the planner would read and sort every due row
   * to return the first few; the ordered walk of the due index stops after `limit` rows.
   */
  private db: pg.Pool | null = null;
  private secrets = new Map<string, { enc: string; plain: string }>();
  /** Deliveries per subscription that are queued or in flight here (see `perSubscription`). */
  private held = new Map<string, number>();
  /**
   * At most this many of one subscription's deliveries are queued or in flight at once, so a
   * receiver that hangs until the timeout holds half the slots at most and the others keep flowing.
   */
  private readonly perSubscription: number;

  constructor(ctx: AppContext, opts: { concurrency?: number } = {}) {
    this.ctx = ctx;
    this.concurrency = opts.concurrency ?? ctx.config.WEBHOOK_CONCURRENCY;
    this.perSubscription = Math.max(1, Math.ceil(this.concurrency / 2));
    this.schedule = ctx.config.WEBHOOK_RETRY_SCHEDULE;
  }

  async start(): Promise<void> {
    this.db = new pg.Pool({
      connectionString: this.ctx.pool.options.connectionString,
      max: 1,
      idleTimeoutMillis: 30_000,
      options: '-c enable_bitmapscan=off',
    });
    this.db.on('error', (err) => this.ctx.log.warn({ err }, 'webhook dispatcher: idle connection error'));
    survivePoolClientErrors(this.db, (err) =>
      this.ctx.log.warn({ err }, 'webhook dispatcher: connection lost'),
    );
    await this.listen();
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets in-flight attempts finish (each bounded by the timeout) and records them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    // Claimed but not started: handed back, due now, for the next worker.
    await this.release(this.queue.splice(0));
    while (this.inFlight.size) await Promise.all(this.inFlight);
    while (this.completed.length) await this.cycle(0, []);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.db?.end().catch(() => {});
    this.db = null;
  }

  /** Hands queued (claimed, unsent) deliveries back: due now, for whichever worker claims next. */
  private async release(unsent: Queued[], held = true): Promise<void> {
    if (!unsent.length) return;
    if (held) for (const u of unsent) this.hold(u.delivery.subscription_id, -1);
    await this.ctx.pool
      .query(
        `update webhook_deliveries d set claim_token = null, next_attempt_at = now(), updated_at = now()
         from unnest($1::uuid[], $2::uuid[]) as u(id, token)
         where d.id = u.id and d.claim_token = u.token and d.status = 'pending'`,
        [unsent.map((u) => u.delivery.id), unsent.map((u) => u.token)],
      )
      .catch((err) =>
        this.ctx.log.warn({ err }, 'webhook dispatcher: could not release claims; their lease will'),
      );
  }

  /**
   * A subscription was paused, deleted or changed: its queued deliveries must not go out with
   * what was read at claim time. They are dropped from the queue and handed back, so the next
   * claim reads the new URL, secret and headers — or finds them dead.
   */
  private subscriptionChanged(subscriptionId: string): void {
    const stale = this.queue.filter((q) => q.delivery.subscription_id === subscriptionId);
    if (!stale.length) return;
    this.queue = this.queue.filter((q) => q.delivery.subscription_id !== subscriptionId);
    this.secrets.delete(subscriptionId);
    void this.release(stale).then(() => this.wake());
  }

  private hold(subscriptionId: string, n: number): void {
    const left = (this.held.get(subscriptionId) ?? 0) + n;
    if (left > 0) this.held.set(subscriptionId, left);
    else this.held.delete(subscriptionId);
  }

  /** Subscriptions at their cap: the next claim skips them. */
  private full(): string[] {
    return [...this.held].filter(([, n]) => n >= this.perSubscription).map(([id]) => id);
  }

  private wake(): void {
    this.wakeFlag = true;
    this.waiter?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeFlag || this.stopping) {
      this.wakeFlag = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiter = () => {
        this.waiter = null;
        this.wakeFlag = false;
        done();
      };
    });
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.ctx.pool.options.connectionString });
    client.on('notification', (n) => {
      if (n.channel === SUBSCRIPTIONS_CHANNEL) this.subscriptionChanged(n.payload ?? '');
      else this.wake();
    });
    client.on('error', (err) => {
      this.ctx.log.warn({ err }, 'webhook dispatcher: LISTEN connection lost; reconnecting');
      if (this.listener === client) this.listener = null;
      client.end().catch(() => {});
      if (!this.stopping) setTimeout(() => this.listen().catch(() => {}), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`listen ${DELIVERIES_CHANNEL}; listen ${SUBSCRIPTIONS_CHANNEL}`);
      this.listener = client;
      // Anything committed while we were not listening is claimed by the next loop turn.
      this.wake();
    } catch (err) {
      this.ctx.log.warn({ err }, 'webhook dispatcher: cannot LISTEN; polling until it can');
      client.end().catch(() => {});
      if (!this.stopping) setTimeout(() => this.listen().catch(() => {}), 1000).unref();
    }
  }

  /** Free room in the window (see WINDOW_ROUNDS). */
  private room(): number {
    return WINDOW_ROUNDS * this.concurrency - this.inFlight.size - this.queue.length;
  }

  private async loop(): Promise<void> {
    // Claim on the first turn: anything committed before we started is due.
    let claimMore = true;
    while (!this.stopping) {
      const room = this.room();
      const claiming: boolean = claimMore || this.wakeFlag;
      this.wakeFlag = false;
      if (!this.completed.length && (room <= 0 || !claiming)) {
        // Nothing to record and nothing to claim: until a send finishes, a NOTIFY or the poll.
        await this.sleep(IDLE_POLL_MS);
        claimMore = true;
        continue;
      }
      const want: number = claiming ? Math.max(0, Math.min(room, CLAIM_BATCH)) : 0;
      const turn = await this.cycle(want, want ? this.full() : []);
      if (turn === null) {
        if (this.stopping) break;
        await this.sleep(1000);
        claimMore = true;
        continue;
      }
      const over: Queued[] = [];
      const claimedAt = performance.now();
      for (const delivery of turn.claimed) {
        const item = { delivery, token: turn.token, claimedAt };
        if ((this.held.get(delivery.subscription_id) ?? 0) >= this.perSubscription) over.push(item);
        else {
          this.hold(delivery.subscription_id, 1);
          this.queue.push(item);
        }
      }
      this.pump();
      // Beyond a subscription's cap: handed straight back (due now) for a later claim.
      if (over.length) await this.release(over, false);
      // A full claim: more are probably due. A short one: sleep until the next is due (a send
      // finishing, a NOTIFY or a skipped subscription getting room wakes the loop sooner).
      claimMore = want > 0 && turn.total === want;
      if (want > 0 && !claimMore && !this.completed.length) {
        await this.sleep(turn.nextDueMs);
        claimMore = true;
      }
    }
  }

  /**
   * Starts queued sends while slots are free. A delivery that waited in the queue longer than one
   * attempt timeout (receivers hanging in every slot) is handed back unsent instead: started now,
   * its attempt could outlast the lease and meet another worker's claim of it.
   */
  private pump(): void {
    const stale: Queued[] = [];
    const oldest = performance.now() - this.ctx.config.WEBHOOK_TIMEOUT_MS;
    while (this.inFlight.size < this.concurrency && this.queue.length) {
      const next = this.queue.shift()!;
      if (next.claimedAt < oldest) stale.push(next);
      else this.launch(next.delivery, next.token);
    }
    if (stale.length) void this.release(stale).then(() => this.wake());
  }

  /**
   * One turn, one statement: records the finished attempts (up to RECORD_BATCH) and claims up to
   * `limit` due deliveries, skipping subscriptions at their cap and the deliveries being recorded
   * (a claim that outlived its lease may be due again; one statement never updates a row twice).
   * Returns null when the statement failed: the claims did not happen, and outcomes that could
   * not be written are left to their lease (the attempt is made again).
   */
  private async cycle(
    limit: number,
    skipSubscriptions: string[],
  ): Promise<{ claimed: Claimed[]; token: string; total: number; nextDueMs: number } | null> {
    const batch = this.completed.splice(0, RECORD_BATCH);
    // Rows are locked in id order, as a pause locks them: fewer deadlocks with it.
    batch.sort((a, b) => (a.id < b.id ? -1 : 1));
    const token = randomUUID();
    const col = <T>(f: (c: Completed) => T) => batch.map(f);
    const params = [
      col((c) => c.id),
      col((c) => c.token),
      col((c) => c.outcome.ok),
      col((c) => c.outcome.statusCode),
      col((c) => c.outcome.durationMs),
      col((c) => c.outcome.responseSnippet),
      col((c) => c.outcome.error),
      col((c) => c.attemptedAt),
      col((c) => c.retryInS),
      limit,
      token,
      leaseMs(this.ctx.config.WEBHOOK_TIMEOUT_MS),
      skipSubscriptions,
    ];
    let rows: TurnRow[] | null = null;
    for (let attempt = 1; rows === null; attempt++) {
      try {
        rows = (await this.db!.query<TurnRow>(TURN_SQL, params)).rows;
      } catch (err) {
        // A deadlock with a pause is retried; anything else is left to the lease (the attempt is redone).
        if ((err as { code?: string }).code === '40P01' && attempt < 3) continue;
        if (!this.stopping || batch.length)
          this.ctx.log.error(
            { err, deliveries: batch.length, claiming: limit },
            'webhook dispatcher: recording attempts / claiming failed',
          );
        return null;
      }
    }
    const claimed: Claimed[] = [];
    let total = 0;
    let nextDueMs = IDLE_POLL_MS;
    const dead: string[] = [];
    for (const r of rows) {
      if (r.k === 'c') {
        total++;
        // A delivery whose subscription was paused or deleted after it was created died just now.
        if (r.status === 'pending') claimed.push(r as Claimed);
      } else if (r.k === 'd') dead.push(r.id);
      else if (r.ms !== null) {
        // Due but not claimed: another worker holds those rows for a moment.
        nextDueMs = Math.min(IDLE_POLL_MS, Math.max(25, Math.ceil(r.ms)));
      }
    }
    if (batch.length) {
      const lastRung = new Set(batch.filter((c) => c.retryInS === null).map((c) => c.id));
      const exhausted = dead.filter((id) => lastRung.has(id));
      if (exhausted.length) {
        this.ctx.log.warn({ deliveries: exhausted }, 'webhook deliveries dead after their last attempt');
      }
      // Retries just scheduled (not yet visible to this statement's own next-due read).
      for (const c of batch) if (c.retryInS !== null) nextDueMs = Math.min(nextDueMs, c.retryInS * 1000);
    }
    return { claimed, token, total, nextDueMs };
  }

  private secretOf(d: Claimed): string {
    const cached = this.secrets.get(d.subscription_id);
    if (cached && cached.enc === d.secret_enc) return cached.plain;
    const plain = decryptSecret(d.secret_enc, this.ctx.config.secret);
    this.secrets.set(d.subscription_id, { enc: d.secret_enc, plain });
    return plain;
  }

  private launch(d: Claimed, token: string): void {
    const run = (async () => {
      const attemptedAt = new Date();
      let outcome: AttemptOutcome;
      try {
        outcome = await sendDelivery(
          {
            id: d.id,
            type: d.type,
            url: d.url,
            secret: this.secretOf(d),
            body: d.body,
            customHeaders: d.headers,
          },
          { timeoutMs: this.ctx.config.WEBHOOK_TIMEOUT_MS, allowCidrs: this.ctx.config.EGRESS_ALLOW_CIDRS },
        );
      } catch (err) {
        outcome = {
          ok: false,
          statusCode: null,
          responseSnippet: null,
          durationMs: Date.now() - attemptedAt.getTime(),
          error: `send failed: ${(err as Error).message}`,
        };
      }
      const rung = d.attempt_count; // retries so far: the delay after this attempt is schedule[rung]
      const retryInS = outcome.ok ? null : (this.schedule[rung] ?? null);
      this.completed.push({ id: d.id, token, outcome, attemptedAt, retryInS });
    })();
    this.inFlight.add(run);
    run.finally(() => {
      this.inFlight.delete(run);
      this.hold(d.subscription_id, -1);
      this.pump();
      // The loop records this outcome on its next turn (with whatever else finished meanwhile)
      // and refills the window in the same statement; a subscription the claims were skipping
      // may have room again.
      this.wake();
    });
  }
}
