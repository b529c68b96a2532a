import type { Logger } from 'pino';

/**
 * At most one wake-up NOTIFY per this many milliseconds: the latency it may add to processing
 * under load (an event after a quiet interval wakes the workers at once). Each wake-up costs the
 * workers a fetch, a shortcut or engine statement and a complete, so under load the interval sets
 * how many ingest batches they take at a time: at 5 ms they ran almost three statements per
 * ingest statement and slowed ingest down (bench `events.post.all`); at 20 ms about one, and the
 * engine's latency did not move. Bigger batches take longer, so one worker's batch overtakes
 * another's more often: per-participant order holds across batches only because a batch applies
 * its participants' earlier waiting events first (flows/engine/load.ts `loadBatch`).
 */
export const WAKE_INTERVAL_MS = 20;

/**
 * Wakes the event workers after a batch committed jobs: at once when no wake-up went out in the
 * last interval, else one at the end of that interval for every batch committed in it. Under load
 * that is a NOTIFY per interval instead of one per batch. The NOTIFY is sent after the commit, not
 * in the ingest statement: Postgres holds one lock for every notifying transaction from its commit
 * until its end, WAL flush included, so a NOTIFY inside the statement let only one batch commit at
 * a time. A wake-up lost to a crash costs latency only: workers also poll.
 */
export class WakeUp {
  /** The loop while it runs, and whether a batch committed jobs since its last NOTIFY. */
  private waking: Promise<void> | null = null;
  private again = false;
  private readonly notify: () => Promise<void>;
  private readonly log: Logger;
  private readonly intervalMs: number;

  constructor(notify: () => Promise<void>, log: Logger, intervalMs = WAKE_INTERVAL_MS) {
    this.notify = notify;
    this.log = log;
    this.intervalMs = intervalMs;
  }

  ring(): void {
    this.again = true;
    this.waking ??= (async () => {
      while (this.again) {
        this.again = false;
        await this.notify().catch((err: unknown) => {
          this.log.warn({ err }, 'could not wake the event workers; they will poll');
        });
        await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      }
      this.waking = null;
    })();
  }

  /** Resolves once no wake-up is pending. */
  async idle(): Promise<void> {
    while (this.waking) await this.waking;
  }
}
