// Raw SQL: Postgres LISTEN (no ORM equivalent) on the channels that announce new deliveries and changed
// subscriptions, so the dispatcher claims at once instead of polling (bench suite `webhooks`).
import pg from 'pg';
import type { Logger } from 'pino';
import { DELIVERIES_CHANNEL } from '../outbox/emit.ts';
import { SUBSCRIPTIONS_CHANNEL } from './repository.ts';

/** What the dispatcher is told: a delivery may be due, or a subscription changed. */
export interface DeliveryNotices {
  deliveriesDue(): void;
  subscriptionChanged(subscriptionId: string): void;
}

/** How long a lost or refused LISTEN connection waits before it is tried again. */
const RETRY_MS = 1000;

/**
 * The dispatcher's LISTEN connection: re-established after a loss, and every (re)connection
 * counts as a wake-up, since anything committed while nobody listened is due.
 */
export class DeliveryListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private readonly connectionString: string | undefined;
  private readonly notices: DeliveryNotices;
  private readonly log: Logger;

  constructor(connectionString: string | undefined, notices: DeliveryNotices, log: Logger) {
    this.connectionString = connectionString;
    this.notices = notices;
    this.log = log;
  }

  /** Connects and LISTENs; never throws (a failure is retried, and the dispatcher polls meanwhile). */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (n) => {
      if (n.channel === SUBSCRIPTIONS_CHANNEL) this.notices.subscriptionChanged(n.payload ?? '');
      else this.notices.deliveriesDue();
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'webhook dispatcher: LISTEN connection lost; reconnecting');
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      this.retry();
    });
    try {
      await client.connect();
      await client.query(`listen ${DELIVERIES_CHANNEL}; listen ${SUBSCRIPTIONS_CHANNEL}`);
      if (this.stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      // Anything committed while we were not listening is claimed by the next loop turn.
      this.notices.deliveriesDue();
    } catch (err) {
      this.log.warn({ err }, 'webhook dispatcher: cannot LISTEN; polling until it can');
      client.end().catch(() => {});
      this.retry();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private retry(): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (!this.stopped) this.start().catch(() => {});
    }, RETRY_MS).unref();
  }
}
