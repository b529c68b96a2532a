import type { SigningKey } from '../../lib/secrets.ts';
import { type AttemptOutcome, sendDelivery } from './send.ts';
import { SigningSecrets } from './signing-secrets.ts';
import type { Claimed, CompletedAttempt } from './turn.sql.ts';

/** Claimed and waiting for a send slot. */
export interface Queued {
  delivery: Claimed;
  token: string;
  /** performance.now() when the claim returned. */
  claimedAt: number;
}

/**
 * Deliveries queued or in flight here, in rounds of sends: the claims run this far ahead of the
 * free slots, so a turn statement's latency never leaves a slot idle.
 */
const WINDOW_ROUNDS = 4;

export interface SendWindowOptions {
  /** Sends at once. */
  concurrency: number;
  /** One attempt's timeout; also how long a claimed delivery may wait for a slot. */
  timeoutMs: number;
  allowCidrs: string[];
  /** Seconds before each retry: `schedule[n]` follows the attempt made after `n` retries. */
  schedule: number[];
  /** The key subscription secrets are encrypted under. */
  secretKey: string;
  /** Claimed deliveries handed back unsent: they waited longer than an attempt may take. */
  handBack(unsent: Queued[]): void;
  /** A send finished; its outcome waits in `completed` for the next turn. */
  settled(): void;
}

/**
 * The dispatcher's sends: claimed deliveries wait here for a slot, at most `concurrency` are in
 * flight, and each outcome, with the delay of its next rung, waits in `completed` until a turn
 * records it. At most half the slots go to one subscription (see `perSubscription`).
 */
export class SendWindow {
  /** Outcomes not yet recorded. */
  readonly completed: CompletedAttempt[] = [];
  /** Claimed, waiting for a send slot: claims run ahead of sends so a slot never waits on a query. */
  private queue: Queued[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries per subscription that are queued or in flight here. */
  private readonly held = new Map<string, number>();
  private readonly secrets = new Map<string, SigningSecrets>();
  /**
   * At most this many of one subscription's deliveries are queued or in flight at once, so a
   * receiver that hangs until the timeout holds half the slots at most and the others keep flowing.
   */
  private readonly perSubscription: number;
  private readonly opts: SendWindowOptions;

  constructor(opts: SendWindowOptions) {
    this.opts = opts;
    this.perSubscription = Math.max(1, Math.ceil(opts.concurrency / 2));
  }

  /** Free room in the window (see WINDOW_ROUNDS). */
  room(): number {
    return WINDOW_ROUNDS * this.opts.concurrency - this.inFlight.size - this.queue.length;
  }

  /** Subscriptions at their cap: the next claim skips them. */
  full(): string[] {
    return [...this.held].filter(([, n]) => n >= this.perSubscription).map(([id]) => id);
  }

  /** Queues claimed deliveries; answers those beyond their subscription's cap (to hand back). */
  admit(claimed: Claimed[], token: string): Queued[] {
    const over: Queued[] = [];
    const claimedAt = performance.now();
    for (const delivery of claimed) {
      const item = { delivery, token, claimedAt };
      if ((this.held.get(delivery.subscription_id) ?? 0) >= this.perSubscription) over.push(item);
      else {
        this.hold(delivery.subscription_id, 1);
        this.queue.push(item);
      }
    }
    return over;
  }

  /**
   * Starts queued sends while slots are free. A delivery that waited in the queue longer than one
   * attempt timeout (receivers hanging in every slot) is handed back unsent instead: started now,
   * its attempt could outlast the lease and meet another worker's claim of it.
   */
  pump(): void {
    const stale: Queued[] = [];
    const oldest = performance.now() - this.opts.timeoutMs;
    while (this.inFlight.size < this.opts.concurrency && this.queue.length) {
      const next = this.queue.shift()!;
      if (next.claimedAt < oldest) stale.push(next);
      else this.launch(next.delivery, next.token);
    }
    if (stale.length) this.opts.handBack(stale);
  }

  /** Forgets queued deliveries leaving the window unsent (their subscription's count drops). */
  unhold(unsent: Queued[]): void {
    for (const u of unsent) this.hold(u.delivery.subscription_id, -1);
  }

  /** Takes a subscription's queued deliveries out (it changed) and forgets its secret. */
  dropSubscription(subscriptionId: string): Queued[] {
    const stale = this.queue.filter((q) => q.delivery.subscription_id === subscriptionId);
    if (!stale.length) return stale;
    this.queue = this.queue.filter((q) => q.delivery.subscription_id !== subscriptionId);
    this.secrets.delete(subscriptionId);
    return stale;
  }

  /** Takes every queued delivery out (stopping). */
  takeQueued(): Queued[] {
    return this.queue.splice(0);
  }

  /** Resolves once no send is in flight. */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }

  private hold(subscriptionId: string, n: number): void {
    const left = (this.held.get(subscriptionId) ?? 0) + n;
    if (left > 0) this.held.set(subscriptionId, left);
    else this.held.delete(subscriptionId);
  }

  /**
   * The keys that sign now (docs/webhooks.md#rotation), decrypted and imported once per
   * subscription and secret: a rotation or a new secret changes `source` and reads them again.
   */
  private secretsOf(d: Claimed): SigningKey[] {
    const cached = this.secrets.get(d.subscription_id);
    if (cached && cached.source === SigningSecrets.sourceOf(d.secret_enc, d.previous_secrets)) {
      return cached.signing();
    }
    const fresh = new SigningSecrets(d.secret_enc, d.previous_secrets, this.opts.secretKey);
    this.secrets.set(d.subscription_id, fresh);
    return fresh.signing();
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
            secrets: this.secretsOf(d),
            body: d.body,
            customHeaders: d.headers,
          },
          { timeoutMs: this.opts.timeoutMs, allowCidrs: this.opts.allowCidrs },
        );
      } catch (err) {
        outcome = {
          ok: false,
          statusCode: null,
          responseSnippet: null,
          durationMs: Date.now() - attemptedAt.getTime(),
          error: `send failed: ${(err as Error).message}`,
          retryAfterS: null,
        };
      }
      const rung = d.attempt_count; // retries so far: the delay after this attempt is schedule[rung]
      const ladder = outcome.ok ? null : (this.opts.schedule[rung] ?? null);
      // A 429/503's Retry-After postpones the next rung, never brings it forward nor adds one
      // (docs/webhooks.md#retry-after).
      const retryInS = ladder === null ? null : Math.max(ladder, outcome.retryAfterS ?? 0);
      this.completed.push({
        id: d.id,
        subscriptionId: d.subscription_id,
        token,
        outcome,
        attemptedAt,
        retryInS,
      });
    })();
    this.inFlight.add(run);
    run.finally(() => {
      this.inFlight.delete(run);
      this.hold(d.subscription_id, -1);
      this.pump();
      // The loop records this outcome on its next turn (with whatever else finished meanwhile)
      // and refills the window in the same statement; a subscription the claims were skipping
      // may have room again.
      this.opts.settled();
    });
  }
}
