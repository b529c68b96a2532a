// Raw SQL: Postgres LISTEN (no ORM equivalent) on `svc_live`, where the statement triggers of triggers.ts
// announce the participants a committed statement changed.
import pg from 'pg';
import type { Logger } from 'pino';

/** The channel the migration's statement triggers announce committed changes on. */
export const LIVE_CHANNEL = 'svc_live';

const RECONNECT_MAX_MS = 5_000;

/**
 * The hub's LISTEN connection. A lost connection is re-established with a growing delay (up to
 * RECONNECT_MAX_MS), and `reconnected` is called once it listens again, so the hub reads what
 * committed while nobody listened.
 */
export class LiveListener {
  private client: pg.Client | null = null;
  private closed = false;
  private reconnectDelay = 100;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Resolves once LISTEN is in place (again, after a reconnect). */
  private listening: Promise<void> | null = null;
  /** How many times the connection was re-established. */
  reconnects = 0;
  private readonly databaseUrl: string;
  private readonly log: Logger;
  private readonly on: { notified(payload: string): void; reconnected(): void };

  constructor(
    databaseUrl: string,
    log: Logger,
    on: { notified(payload: string): void; reconnected(): void },
  ) {
    this.databaseUrl = databaseUrl;
    this.log = log;
    this.on = on;
  }

  /** Connects and LISTENs; resolves once notifications flow. */
  start(): Promise<void> {
    this.listening ??= this.connect();
    return this.listening;
  }

  /** The backend pid of the connection (a test terminates it to prove reconnection). */
  get pid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (msg) => this.on.notified(msg.payload ?? ''));
    client.on('error', (err) => this.onLost(client, err));
    client.on('end', () => this.onLost(client, null));
    await client.connect();
    await client.query(`listen ${LIVE_CHANNEL}`);
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.reconnectDelay = 100;
  }

  private onLost(client: pg.Client, err: Error | null): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.log.warn({ err }, 'live updates: LISTEN connection lost; reconnecting');
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listening = this.connect().then(
        () => {
          this.reconnects++;
          this.on.reconnected();
        },
        (err: unknown) => {
          this.log.warn({ err }, 'live updates: reconnect failed; retrying');
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}
