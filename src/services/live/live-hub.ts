import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { DomainError, notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { presentEntry } from '../ledger/presenters.ts';
import type { LedgerEntryDto } from '../ledger/shapes.ts';

/** CONTRACT 12 `balanceChanged`: one per ledger entry of the participant, after it commits. */
export interface BalanceChange {
  external_id: string;
  /** The balance right after this entry (`entry.balance_after`). */
  balance: number;
  /** The participant's lifetime points when the change was read. */
  lifetime_points: number;
  entry: LedgerEntryDto;
}

/** CONTRACT 12 `badgeAwarded`. */
export interface BadgeAward {
  external_id: string;
  badge: { key: string; tier: string | null; name: string };
  awarded_at: string;
  flow_run_id: string | null;
}

type Kind = 'balance' | 'badge';
type Item<K extends Kind> = K extends 'balance' ? BalanceChange : BadgeAward;

/** The channel the migration's statement triggers announce committed changes on. */
export const LIVE_CHANNEL = 'svc_live';

export interface LiveHubOptions {
  databaseUrl: string;
  /** Reads of the changed rows. */
  pool: pg.Pool;
  log: Logger;
  /** Undelivered updates one subscription may hold before it is ended as a slow consumer. */
  bufferLimit?: number;
}

/**
 * A live subscription: an async iterator of its participant's changes, in commit order. A
 * subscription the hub ends (its client fell too far behind) yields one `LiveEnded` error as its
 * last value, so a GraphQL door can answer it as an error payload before completing.
 */
export interface LiveSubscription<T> extends AsyncIterableIterator<T | LiveEnded> {
  return(): Promise<IteratorResult<T | LiveEnded>>;
}

/** The last value of a subscription the hub ended; its message says why. */
export class LiveEnded extends DomainError {}

interface Sub {
  kind: Kind;
  /** Id of the last row sent (ledger entry or badge award); null until the starting point is read. */
  after: number | null;
  queue: unknown[];
  wake: (() => void) | null;
  ended: boolean;
  error: Error | null;
}

interface Watched {
  participantId: string;
  subs: Set<Sub>;
}

/** Rows read per flush; a burst beyond it is read by the next flush (the participant stays dirty). */
const FLUSH_ROWS = 5_000;
const RECONNECT_MAX_MS = 5_000;

/**
 * Fans committed ledger entries and badge awards out to this process's subscribers, through
 * Postgres alone: one connection LISTENs on `svc_live` (the migration's statement triggers
 * NOTIFY the ids of the participants a committed statement changed), and the rows a subscriber
 * has not had yet are read by id (`id > after`, per participant). Per participant, ids are in
 * commit order (every ledger write updates the participant's row first, under its lock), so
 * reading by id delivers in commit order, exactly once per subscriber. A lost LISTEN connection
 * is re-established and every watched participant re-read from where its subscribers are, so no
 * change is lost. Each subscriber has a bounded buffer: one that falls `bufferLimit` updates
 * behind is ended with an error (it may resubscribe), so a socket that never reads cannot grow
 * memory, and one busy participant cannot delay the others (every flush reads all dirty
 * participants in one query, and each subscriber's buffer is its own).
 */
export class LiveHub {
  private readonly opts: Required<LiveHubOptions>;
  private readonly watched: Record<Kind, Map<string, Watched>> = { balance: new Map(), badge: new Map() };
  private readonly dirty: Record<Kind, Set<string>> = { balance: new Set(), badge: new Set() };
  private readonly flushing: Record<Kind, Promise<void> | null> = { balance: null, badge: null };
  private readonly again: Record<Kind, boolean> = { balance: false, badge: false };
  private client: pg.Client | null = null;
  private closed = false;
  private reconnectDelay = 100;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Resolves once LISTEN is in place (again, after a reconnect). */
  private listening: Promise<void> | null = null;
  /** How many times the LISTEN connection was re-established (for tests and metrics). */
  reconnects = 0;
  /** This hub's rows in `live_watches`. */
  readonly hubId = randomUUID();

  constructor(opts: LiveHubOptions) {
    this.opts = { bufferLimit: 1_000, ...opts };
  }

  /** Connects and LISTENs; resolves once notifications flow. */
  start(): Promise<void> {
    this.listening ??= this.connect();
    return this.listening;
  }

  /** The backend pid of the LISTEN connection (a test terminates it to prove reconnection). */
  get listenerPid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.databaseUrl });
    client.on('notification', (msg) => this.onNotify(msg.payload ?? ''));
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
    this.opts.log.warn({ err }, 'live updates: LISTEN connection lost; reconnecting');
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
          // Whatever committed while nobody listened is read now, from each subscriber's position.
          for (const kind of ['balance', 'badge'] as const) this.markAll(kind);
        },
        (err: unknown) => {
          this.opts.log.warn({ err }, 'live updates: reconnect failed; retrying');
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private onNotify(payload: string): void {
    const [tag, list] = [payload.slice(0, 1), payload.slice(2)];
    const kind: Kind | null = tag === 'l' ? 'balance' : tag === 'b' ? 'badge' : null;
    if (!kind || this.watched[kind].size === 0) return;
    if (list === '*') {
      this.markAll(kind);
      return;
    }
    let any = false;
    for (const id of list.split(',')) {
      if (this.watched[kind].has(id)) {
        this.dirty[kind].add(id);
        any = true;
      }
    }
    if (any) this.flush(kind);
  }

  private markAll(kind: Kind): void {
    for (const id of this.watched[kind].keys()) this.dirty[kind].add(id);
    if (this.dirty[kind].size) this.flush(kind);
  }

  /** One flush per kind at a time; changes that arrive meanwhile are read by the next one. */
  private flush(kind: Kind): void {
    if (this.flushing[kind]) {
      this.again[kind] = true;
      return;
    }
    this.flushing[kind] = (async () => {
      do {
        this.again[kind] = false;
        const ids = [...this.dirty[kind]];
        this.dirty[kind].clear();
        if (ids.length === 0) break;
        try {
          await this.read(kind, ids);
        } catch (err) {
          // The rows are still there: read them again shortly.
          this.opts.log.warn({ err }, 'live updates: read failed; retrying');
          for (const id of ids) if (this.watched[kind].has(id)) this.dirty[kind].add(id);
          await new Promise((r) => setTimeout(r, 200));
          this.again[kind] = true;
        }
      } while (this.again[kind] || this.dirty[kind].size > 0);
    })().finally(() => {
      this.flushing[kind] = null;
    });
  }

  private async read(kind: Kind, participantIds: string[]): Promise<void> {
    const pids: string[] = [];
    const afters: number[] = [];
    for (const id of participantIds) {
      const w = this.watched[kind].get(id);
      if (!w) continue;
      const positions = [...w.subs].map((s) => s.after).filter((a): a is number => a !== null);
      if (!positions.length) continue;
      pids.push(id);
      afters.push(Math.min(...positions));
    }
    if (!pids.length) return;
    const rows =
      kind === 'balance' ? await this.readEntries(pids, afters) : await this.readAwards(pids, afters);
    const byParticipant = new Map<string, { id: number; item: unknown }[]>();
    for (const r of rows) {
      const list = byParticipant.get(r.participantId) ?? [];
      list.push(r);
      byParticipant.set(r.participantId, list);
    }
    for (const [pid, list] of byParticipant) {
      const w = this.watched[kind].get(pid);
      if (!w) continue;
      for (const sub of w.subs) {
        if (sub.after === null) continue;
        for (const r of list) if (r.id > sub.after) this.push(sub, r.id, r.item);
      }
      // A burst larger than one read: the rest on the next flush.
      if (list.length >= FLUSH_ROWS / pids.length) this.dirty[kind].add(pid);
    }
  }

  private async readEntries(pids: string[], afters: number[]) {
    const { rows } = await this.opts.pool.query(
      `select e.id, e.points, e.balance_after, e.reason, e.source, e.reference, e.reverses_entry_id,
              e.idempotency_key, e.created_at, e.participant_id, p.external_id, p.lifetime_points
         from unnest($1::bigint[], $2::bigint[]) s(pid, after)
         join lateral (select * from ledger_entries e
                        where e.participant_id = s.pid and e.id > s.after
                        order by e.id limit $3) e on true
         join participants p on p.id = e.participant_id
        order by e.participant_id, e.id`,
      [pids, afters, Math.max(1, Math.floor(FLUSH_ROWS / pids.length))],
    );
    return rows.map((r) => {
      const entry = presentEntry(r);
      const item: BalanceChange = {
        external_id: r.external_id,
        balance: entry.balance_after,
        lifetime_points: Number(r.lifetime_points),
        entry,
      };
      return { participantId: String(r.participant_id), id: Number(r.id), item };
    });
  }

  private async readAwards(pids: string[], afters: number[]) {
    const { rows } = await this.opts.pool.query(
      `select pb.id, pb.participant_id, pb.tier, pb.awarded_at, pb.flow_run_id, b.key, b.name, p.external_id
         from unnest($1::bigint[], $2::bigint[]) s(pid, after)
         join lateral (select * from participant_badges pb
                        where pb.participant_id = s.pid and pb.id > s.after
                        order by pb.id limit $3) pb on true
         join badges b on b.id = pb.badge_id
         join participants p on p.id = pb.participant_id
        order by pb.participant_id, pb.id`,
      [pids, afters, Math.max(1, Math.floor(FLUSH_ROWS / pids.length))],
    );
    return rows.map((r) => {
      const item: BadgeAward = {
        external_id: r.external_id,
        badge: { key: r.key, tier: r.tier === '' ? null : r.tier, name: r.name },
        awarded_at: new Date(r.awarded_at).toISOString(),
        flow_run_id: r.flow_run_id,
      };
      return { participantId: String(r.participant_id), id: Number(r.id), item };
    });
  }

  private push(sub: Sub, id: number, item: unknown): void {
    if (sub.ended) return;
    sub.after = id;
    if (sub.queue.length >= this.opts.bufferLimit) {
      sub.error = new LiveEnded(
        'rate_limit_error',
        `This subscription fell more than ${this.opts.bufferLimit} updates behind (the client is not reading); subscribe again`,
      );
      sub.queue.length = 0;
      this.end(sub);
      return;
    }
    sub.queue.push(item);
    sub.wake?.();
  }

  private end(sub: Sub): void {
    sub.ended = true;
    sub.wake?.();
  }

  /**
   * A subscription to one participant's balance changes or badge awards, from now on. 404 when
   * the participant does not exist in the scope's workspace and mode. With `after`, every row
   * after that id is sent, so a client that read the state first misses nothing in between.
   */
  async subscribe<K extends Kind>(
    kind: K,
    scope: Scope,
    externalId: string,
    /** Resume after this row id (a ledger entry or badge award the client has seen). */
    opts: { after?: number } = {},
  ): Promise<LiveSubscription<Item<K>>> {
    await this.start();
    const { rows } = await this.opts.pool.query<{ id: string }>(
      'select id from participants where workspace_id = $1 and mode = $2 and external_id = $3',
      [scope.workspaceId, scope.mode, externalId],
    );
    const pid = rows[0]?.id;
    if (!pid) throw notFound('participant');
    const sub: Sub = { kind, after: null, queue: [], wake: null, ended: false, error: null };
    await this.watch(pid);
    const watched = this.watched[kind].get(pid) ?? { participantId: pid, subs: new Set<Sub>() };
    watched.subs.add(sub);
    this.watched[kind].set(pid, watched);
    sub.after = opts.after ?? (await this.startingPoint(kind, pid));
    // A change that committed while the starting point was read is read by this pass.
    this.dirty[kind].add(pid);
    this.flush(kind);
    return this.iterator<Item<K>>(sub, pid);
  }

  /**
   * Marks the participant watched, so writes to it NOTIFY from now on. Only statements that run
   * their trigger after this commits see it; `startingPoint` covers the ones already running.
   */
  private async watch(pid: string): Promise<void> {
    if (this.watched.balance.has(pid) || this.watched.badge.has(pid)) return;
    await this.opts.pool.query(
      'insert into live_watches (participant_id, hub_id) values ($1, $2) on conflict do nothing',
      [pid, this.hubId],
    );
  }

  private unwatch(pid: string): void {
    if (this.closed || this.watched.balance.has(pid) || this.watched.badge.has(pid)) return;
    this.opts.pool
      .query('delete from live_watches where participant_id = $1 and hub_id = $2', [pid, this.hubId])
      .catch((err: unknown) => this.opts.log.warn({ err }, 'live updates: could not unwatch'));
  }

  /**
   * The id of the participant's last row, read after every write already under way has
   * committed: ledger and badge writes hold the participant's row lock until they commit (and
   * ran their trigger before the watch existed, so they send no NOTIFY), and FOR SHARE waits for
   * them; the next statement's snapshot then sees their rows, which count as before the start.
   */
  private async startingPoint(kind: Kind, pid: string): Promise<number> {
    const table = kind === 'balance' ? 'ledger_entries' : 'participant_badges';
    const client = await this.opts.pool.connect();
    try {
      await client.query('begin');
      await client.query('select 1 from participants where id = $1 for share', [pid]);
      const { rows } = await client.query<{ max: string | null }>(
        `select max(id) as max from ${table} where participant_id = $1`,
        [pid],
      );
      await client.query('commit');
      return Number(rows[0]?.max ?? 0);
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private iterator<T>(sub: Sub, pid: string): LiveSubscription<T> {
    const detach = () => {
      sub.ended = true;
      const w = this.watched[sub.kind].get(pid);
      if (!w) return;
      w.subs.delete(sub);
      if (w.subs.size === 0) {
        this.watched[sub.kind].delete(pid);
        this.unwatch(pid);
      }
    };
    const it: LiveSubscription<T> = {
      [Symbol.asyncIterator]() {
        return it;
      },
      async next(): Promise<IteratorResult<T | LiveEnded>> {
        while (sub.queue.length === 0 && !sub.ended) {
          await new Promise<void>((resolve) => {
            sub.wake = resolve;
          });
          sub.wake = null;
        }
        if (sub.queue.length) return { value: sub.queue.shift() as T, done: false };
        detach();
        const ended = sub.error as LiveEnded | null;
        sub.error = null;
        return ended ? { value: ended, done: false } : { value: undefined, done: true };
      },
      async return(): Promise<IteratorResult<T | LiveEnded>> {
        detach();
        sub.wake?.();
        return { value: undefined, done: true };
      },
    };
    return it;
  }

  /** How many subscriptions this process serves (for metrics and tests). */
  get size(): number {
    let n = 0;
    for (const kind of ['balance', 'badge'] as const)
      for (const w of this.watched[kind].values()) n += w.subs.size;
    return n;
  }

  /** Updates read but not yet taken by their subscribers, over all subscriptions (at most `bufferLimit` each). */
  get backlog(): number {
    let n = 0;
    for (const kind of ['balance', 'badge'] as const)
      for (const w of this.watched[kind].values()) for (const sub of w.subs) n += sub.queue.length;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    for (const kind of ['balance', 'badge'] as const)
      for (const w of this.watched[kind].values()) for (const sub of w.subs) this.end(sub);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
    await this.opts.pool
      .query('delete from live_watches where hub_id = $1', [this.hubId])
      .catch((err: unknown) => this.opts.log.warn({ err }, 'live updates: could not unwatch'));
  }
}
