import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { disableSubscription } from './disable-subscription.ts';
import { recordHealth } from './health.sql.ts';
import { DeliveryListener } from './listen.sql.ts';
import { type Queued, SendWindow } from './send-window.ts';
import {
  type Claimed,
  type CompletedAttempt,
  openTurnPool,
  releaseClaims,
  runTurn,
  type TurnPool,
  type TurnRow,
} from './turn.sql.ts';

/** Deliveries claimed per statement at most. */
const CLAIM_BATCH = 128;
/** Outcomes recorded per statement at most. */
const RECORD_BATCH = 500;
/**
 * A claim's lease: long enough for a claimed delivery to wait its turn in the local queue (at
 * most one attempt timeout: one that waited longer is handed back unsent, see SendWindow.pump)
 * and then be attempted, plus a margin. After it, a crashed worker's delivery is due again.
 */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 10_000;
/** The longest the loop sleeps without a NOTIFY: a safety net for a dropped LISTEN connection. */
const IDLE_POLL_MS = 5_000;
/**
 * Successes to subscriptions this worker last recorded healthy (no failing streak) are held and
 * written at most this long after; every other attempt, a failure or a success that may end a
 * streak, is written at once, with whatever is held. A success is thus recorded within this long
 * (docs/webhooks.md#auto-disable), and a burst costs a health statement a second instead of one a
 * turn (bench `integrators`, part signing).
 */
const HEALTH_INTERVAL_MS = 1_000;
/**
 * How long a subscription recorded healthy is taken as such: another worker may have recorded a
 * failure since, which a held success would end, so the knowledge is renewed by a write now and then.
 */
const HEALTHY_KNOWN_MS = 10_000;

/**
 * Claims due deliveries (`FOR UPDATE SKIP LOCKED`, so any number of workers share the load and
 * never take the same one), leases them (see `leaseMs`), then sends many at once (send-window.ts).
 * Outcomes are written back in batches; only the holder of the claim may write one.
 *
 * One round trip per turn: a single statement (turn.sql.ts) records every outcome finished since
 * the last turn and claims as many due deliveries as there is room for, so the sends never wait
 * on a separate claim or record query, and a burst costs one statement per few dozen deliveries.
 *
 * Durability: the schedule lives in `next_attempt_at` (indexed). A worker that dies mid-attempt
 * leaves the lease to expire, after which the same attempt — same rung, same body bytes — is
 * made again: nothing is lost and no rung is skipped (receivers dedupe on the delivery id).
 *
 * Latency: emitResult NOTIFYs on commit; the dispatcher LISTENs (listen.sql.ts) and claims at
 * once. Retries wake the loop at their due time.
 *
 * Health: after a turn recorded attempts, each subscription's failing streak is updated
 * (health.sql.ts) and one failing too long, or answering 410, is disabled
 * (docs/webhooks.md#auto-disable) — off the loop, one batch after another. Successes to a
 * subscription known healthy are held and written once per HEALTH_INTERVAL_MS at most (always
 * before any later attempt of this worker that is written at once).
 */
export class DeliveryDispatcher {
  private readonly ctx: AppContext;
  private readonly window: SendWindow;
  private listener: DeliveryListener | null = null;
  private db: TurnPool | null = null;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeFlag = false;
  private waiter: (() => void) | null = null;
  /** The health bookkeeping of recorded turns, chained so batches apply in order. */
  private health: Promise<void> = Promise.resolve();
  /**
   * Successes recorded but not yet written to their subscription's health: the newest per
   * subscription, all the health statement needs of them (it keeps the newest success).
   */
  private readonly healthHeld = new Map<string, CompletedAttempt>();
  /** Writes the held successes, HEALTH_INTERVAL_MS after the first was held. */
  private healthTimer: NodeJS.Timeout | null = null;
  /** Subscriptions this worker's last health write found healthy, with when (performance.now()). */
  private readonly healthyAt = new Map<string, number>();
  /** Health writes queued so far; per subscription, the last one queued and not yet answered. */
  private healthWrites = 0;
  private readonly healthPending = new Map<string, number>();

  constructor(ctx: AppContext, opts: { concurrency?: number } = {}) {
    this.ctx = ctx;
    this.window = new SendWindow({
      concurrency: opts.concurrency ?? ctx.config.WEBHOOK_CONCURRENCY,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      allowCidrs: ctx.config.EGRESS_ALLOW_CIDRS,
      schedule: ctx.config.WEBHOOK_RETRY_SCHEDULE,
      secretKey: ctx.config.secret,
      handBack: (unsent) => void this.release(unsent).then(() => this.wake()),
      settled: () => this.wake(),
    });
  }

  /** Opens its connections, LISTENs and starts the loop. */
  async start(): Promise<void> {
    const url = this.ctx.pool.options.connectionString;
    this.db = openTurnPool(url, this.ctx.log);
    this.listener = new DeliveryListener(
      url,
      { deliveriesDue: () => this.wake(), subscriptionChanged: (id) => this.subscriptionChanged(id) },
      this.ctx.log,
    );
    await this.listener.start();
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets in-flight attempts finish (each bounded by the timeout) and records them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    // Claimed but not started: handed back, due now, for the next worker.
    await this.release(this.window.takeQueued());
    await this.window.settle();
    while (this.window.completed.length) await this.cycle(0, []);
    this.writeHealth([]);
    await this.health;
    await this.listener?.stop();
    this.listener = null;
    await this.db?.end().catch(() => {});
    this.db = null;
  }

  /** Hands queued (claimed, unsent) deliveries back: due now, for whichever worker claims next. */
  private async release(unsent: Queued[], held = true): Promise<void> {
    if (!unsent.length) return;
    if (held) this.window.unhold(unsent);
    await releaseClaims(
      this.ctx.pool,
      unsent.map((u) => ({ id: u.delivery.id, token: u.token })),
    ).catch((err) =>
      this.ctx.log.warn({ err }, 'webhook dispatcher: could not release claims; their lease will'),
    );
  }

  /**
   * A subscription was paused, deleted or changed: its queued deliveries must not go out with
   * what was read at claim time. They are dropped from the queue and handed back, so the next
   * claim reads the new URL, secret and headers — or finds them dead.
   */
  private subscriptionChanged(subscriptionId: string): void {
    const stale = this.window.dropSubscription(subscriptionId);
    if (stale.length) void this.release(stale).then(() => this.wake());
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

  private async loop(): Promise<void> {
    // Claim on the first turn: anything committed before we started is due.
    let claimMore = true;
    while (!this.stopping) {
      const room = this.window.room();
      const claiming: boolean = claimMore || this.wakeFlag;
      this.wakeFlag = false;
      if (!this.window.completed.length && (room <= 0 || !claiming)) {
        // Nothing to record and nothing to claim: until a send finishes, a NOTIFY or the poll.
        await this.sleep(IDLE_POLL_MS);
        claimMore = true;
        continue;
      }
      const want: number = claiming ? Math.max(0, Math.min(room, CLAIM_BATCH)) : 0;
      const turn = await this.cycle(want, want ? this.window.full() : []);
      if (turn === null) {
        if (this.stopping) break;
        await this.sleep(1000);
        claimMore = true;
        continue;
      }
      const over = this.window.admit(turn.claimed, turn.token);
      this.window.pump();
      // Beyond a subscription's cap: handed straight back (due now) for a later claim.
      if (over.length) await this.release(over, false);
      // A full claim: more are probably due. A short one: sleep until the next is due (a send
      // finishing, a NOTIFY or a skipped subscription getting room wakes the loop sooner).
      claimMore = want > 0 && turn.total === want;
      if (want > 0 && !claimMore && !this.window.completed.length) {
        await this.sleep(turn.nextDueMs);
        claimMore = true;
      }
    }
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
    const batch = this.window.completed.splice(0, RECORD_BATCH);
    // Rows are locked in id order, as a pause locks them: fewer deadlocks with it.
    batch.sort((a, b) => (a.id < b.id ? -1 : 1));
    const token = randomUUID();
    const turn = {
      record: batch,
      limit,
      token,
      leaseMs: leaseMs(this.ctx.config.WEBHOOK_TIMEOUT_MS),
      skipSubscriptions,
    };
    let rows: TurnRow[] | null = null;
    for (let attempt = 1; rows === null; attempt++) {
      try {
        rows = await runTurn(this.db!, turn);
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
    const claimed: TurnRow[] = [];
    let total = 0;
    let nextDueMs = IDLE_POLL_MS;
    const dead: string[] = [];
    for (const r of rows) {
      if (r.k === 'c') {
        total++;
        // A delivery whose subscription was paused or deleted after it was created died just now.
        if (r.status === 'pending') claimed.push(r);
      } else if (r.k === 'd') dead.push(r.id);
      else if (r.ms !== null) {
        // Due but not claimed: another worker holds those rows for a moment.
        nextDueMs = Math.min(IDLE_POLL_MS, Math.max(25, Math.ceil(r.ms)));
      }
    }
    // Sent in the order claimed: oldest due first.
    claimed.sort((a, b) => (a.pos ?? 0) - (b.pos ?? 0));
    if (batch.length) {
      this.noteHealth(batch);
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

  /**
   * A recorded batch's health: held when every attempt succeeded to a subscription known healthy
   * (a write would change nothing but `last_success_at`), else written at once with what is held
   * (which came before it).
   */
  private noteHealth(batch: CompletedAttempt[]): void {
    const known = performance.now() - HEALTHY_KNOWN_MS;
    if (batch.some((c) => !c.outcome.ok || !((this.healthyAt.get(c.subscriptionId) ?? known) > known))) {
      this.writeHealth(batch);
      return;
    }
    for (const c of batch) {
      const held = this.healthHeld.get(c.subscriptionId);
      if (!held || held.attemptedAt < c.attemptedAt) this.healthHeld.set(c.subscriptionId, c);
    }
    this.healthTimer ??= setTimeout(() => this.writeHealth([]), HEALTH_INTERVAL_MS);
  }

  /** Queues one health statement for the held successes and `batch`. */
  private writeHealth(batch: CompletedAttempt[]): void {
    if (this.healthTimer) clearTimeout(this.healthTimer);
    this.healthTimer = null;
    const attempts = [...this.healthHeld.values(), ...batch];
    this.healthHeld.clear();
    if (!attempts.length) return;
    const write = ++this.healthWrites;
    for (const a of attempts) {
      this.healthPending.set(a.subscriptionId, write);
      // A failure may start a streak: until this write answers, its successes are written at once.
      if (!a.outcome.ok) this.healthyAt.delete(a.subscriptionId);
    }
    this.health = this.health.then(() => this.checkHealth(attempts, write));
  }

  /**
   * Records the batch on its subscriptions (health write number `write`), notes which are healthy
   * and disables those it condemns; never throws.
   */
  private async checkHealth(batch: CompletedAttempt[], write: number): Promise<void> {
    try {
      const health = await recordHealth(this.ctx.pool, batch, this.ctx.config.WEBHOOK_DISABLE_AFTER_SECONDS);
      const now = performance.now();
      for (const [id, at] of this.healthyAt) if (at <= now - HEALTHY_KNOWN_MS) this.healthyAt.delete(id);
      for (const h of health) {
        // A later write of this subscription is queued: its answer is the one that counts.
        if (this.healthPending.get(h.id) !== write) continue;
        if (h.healthy) this.healthyAt.set(h.id, now);
        else this.healthyAt.delete(h.id);
      }
      for (const { id, reason } of health) {
        if (!reason) continue;
        if (await disableSubscription(this.ctx, id, reason)) {
          this.ctx.log.warn({ subscription: id, reason }, 'webhook subscription disabled');
        }
      }
    } catch (err) {
      // The next recorded attempt brings the streak up to date (a 410 answers again).
      this.ctx.log.error({ err }, 'webhook dispatcher: recording subscription health failed');
    } finally {
      for (const { subscriptionId: id } of batch)
        if (this.healthPending.get(id) === write) this.healthPending.delete(id);
    }
  }
}
