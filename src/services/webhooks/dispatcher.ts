import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AppContext } from '../../context.ts';
import { decryptSecret } from '../../lib/secrets.ts';
import { DELIVERIES_CHANNEL } from '../outbox/emit.ts';
import { SUBSCRIPTIONS_CHANNEL } from './repository.ts';
import { type AttemptOutcome, sendDelivery } from './send.ts';

/** Deliveries claimed per query at most. */
const CLAIM_BATCH = 100;
/**
 * A claim's lease: long enough for a claimed delivery to wait its turn in the local queue (at
 * most one attempt timeout, since the queue holds no more than one round of sends) and then be
 * attempted, plus a margin. After it, a crashed worker's delivery is due again.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 10_000;
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
  private queue: { delivery: Claimed; token: string }[] = [];
  private wakeFlag = false;
  private waiter: (() => void) | null = null;
  private saturated = false;
  private completed: Completed[] = [];
  private flushing: Promise<void> | null = null;
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
    await this.flush();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
  }

  /** Hands queued (claimed, unsent) deliveries back: due now, for whichever worker claims next. */
  private async release(unsent: { delivery: Claimed; token: string }[], held = true): Promise<void> {
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

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // Keep up to one round of sends claimed ahead of the free slots.
      const room = 2 * this.concurrency - this.inFlight.size - this.queue.length;
      if (room <= 0) {
        this.saturated = true;
        await this.sleep(IDLE_POLL_MS);
        continue;
      }
      this.saturated = false;
      const want = Math.min(room, CLAIM_BATCH);
      let claimed: { rows: Claimed[]; token: string; total: number };
      try {
        claimed = await this.claim(want, this.full());
      } catch (err) {
        if (this.stopping) break;
        this.ctx.log.error({ err }, 'webhook dispatcher: claim failed; retrying');
        await this.sleep(1000);
        continue;
      }
      const over: { delivery: Claimed; token: string }[] = [];
      for (const delivery of claimed.rows) {
        const item = { delivery, token: claimed.token };
        if ((this.held.get(delivery.subscription_id) ?? 0) >= this.perSubscription) over.push(item);
        else {
          this.hold(delivery.subscription_id, 1);
          this.queue.push(item);
        }
      }
      this.pump();
      // Beyond a subscription's cap: handed straight back (due now) for a later claim.
      if (over.length) await this.release(over, false);
      if (claimed.total === want) continue;
      await this.sleep(await this.nextDueInMs(this.full()));
    }
  }

  /** Starts queued sends while slots are free. */
  private pump(): void {
    while (this.inFlight.size < this.concurrency && this.queue.length) {
      const next = this.queue.shift()!;
      this.launch(next.delivery, next.token);
    }
  }

  private async claim(
    limit: number,
    skipSubscriptions: string[],
  ): Promise<{ rows: Claimed[]; token: string; total: number }> {
    const token = randomUUID();
    const { rows } = await this.ctx.pool.query<Claimed>(
      // `= any(array(…))` keeps the outer UPDATE on the primary key; joined to a CTE instead, the
      // planner seq-scans the whole (ever-growing) table on every claim (webhooks bench).
      `update webhook_deliveries d set
         claim_token = $2,
         next_attempt_at = now() + make_interval(secs => $3::double precision / 1000),
         status = case when s.status = 'active' and s.deleted_at is null then d.status else 'dead' end,
         last_error = case when s.status = 'active' and s.deleted_at is null then d.last_error
                      else 'subscription ' || case when s.deleted_at is null then s.status else 'deleted' end end,
         updated_at = now()
       from webhook_subscriptions s
       where d.id = any(array(
               select id from webhook_deliveries
               where status = 'pending' and next_attempt_at <= now() and subscription_id <> all($4::uuid[])
               order by next_attempt_at limit $1
               for update skip locked))
         and s.id = d.subscription_id
       returning d.id, d.type, d.body, d.attempt_count, d.status, s.id as subscription_id, s.url,
                 s.secret_enc, s.headers`,
      [limit, token, leaseMs(this.ctx.config.WEBHOOK_TIMEOUT_MS), skipSubscriptions],
    );
    // A delivery whose subscription was paused or deleted after it was created died just now.
    return { rows: rows.filter((r) => r.status === 'pending'), token, total: rows.length };
  }

  /** Milliseconds until the earliest pending delivery is due (capped), for the idle sleep. */
  private async nextDueInMs(skipSubscriptions: string[]): Promise<number> {
    try {
      const { rows } = await this.ctx.pool.query<{ ms: number | null }>(
        `select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8 as ms
         from webhook_deliveries where status = 'pending' and subscription_id <> all($1::uuid[])`,
        [skipSubscriptions],
      );
      const ms = rows[0]?.ms;
      if (ms === null || ms === undefined) return IDLE_POLL_MS;
      // Due but not claimed: another worker holds those rows for a moment.
      return Math.min(IDLE_POLL_MS, Math.max(25, Math.ceil(ms)));
    } catch {
      return 1000;
    }
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
      this.scheduleFlush();
    })();
    this.inFlight.add(run);
    run.finally(() => {
      this.inFlight.delete(run);
      const wasFull = (this.held.get(d.subscription_id) ?? 0) >= this.perSubscription;
      this.hold(d.subscription_id, -1);
      this.pump();
      // Wake the claimer once a good share of the buffer has drained (not on every send), or when
      // a subscription the claims were skipping has room again.
      if (wasFull || (this.saturated && this.inFlight.size + this.queue.length <= 1.5 * this.concurrency))
        this.wake();
    });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.flush())
      .finally(() => {
        this.flushing = null;
        if (this.completed.length) this.scheduleFlush();
      });
  }

  /** Records every finished attempt so far in one statement (a burst of outcomes is one round trip). */
  private async flush(): Promise<void> {
    while (this.completed.length) {
      const batch = this.completed.splice(0, 500);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.record(batch);
          break;
        } catch (err) {
          // A deadlock with a pause is retried; anything else is left to the lease (the attempt is redone).
          if ((err as { code?: string }).code === '40P01' && attempt < 3) continue;
          this.ctx.log.error(
            { err, deliveries: batch.length },
            'webhook dispatcher: recording attempts failed',
          );
          break;
        }
      }
    }
  }

  private async record(batch: Completed[]): Promise<void> {
    batch.sort((a, b) => (a.id < b.id ? -1 : 1));
    const col = <T>(f: (c: Completed) => T) => batch.map(f);
    const { rows } = await this.ctx.pool.query<{ id: string; status: string; attempt_count: number }>(
      `with r as (
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
           last_error = r.error,
           updated_at = now()
         from r where d.id = r.id and d.claim_token = r.token
         returning d.id, d.status, d.attempt_count
       ), a as (
         insert into webhook_attempts (delivery_id, number, attempted_at, status_code, duration_ms, response_snippet, error)
         select r.id, u.attempt_count, r.attempted_at, r.status_code, r.duration_ms, r.snippet, r.error
         from u join r on r.id = u.id
       )
       select id, status, attempt_count from u`,
      [
        col((c) => c.id),
        col((c) => c.token),
        col((c) => c.outcome.ok),
        col((c) => c.outcome.statusCode),
        col((c) => c.outcome.durationMs),
        col((c) => c.outcome.responseSnippet),
        col((c) => c.outcome.error),
        col((c) => c.attemptedAt),
        col((c) => c.retryInS),
      ],
    );
    const dead = rows.filter(
      (r) => r.status === 'dead' && batch.find((c) => c.id === r.id)?.retryInS === null,
    );
    if (dead.length) {
      this.ctx.log.warn(
        { deliveries: dead.map((r) => r.id) },
        'webhook deliveries dead after their last attempt',
      );
    }
    // Retries become due later than anything the loop is sleeping for: let it re-plan.
    if (batch.some((c) => c.retryInS !== null)) this.wake();
  }
}
