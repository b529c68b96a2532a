import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { BadgeAward } from '../badges/badge-award.ts';
import type { Scope } from '../keys/principal.ts';
import type { BalanceChange } from '../ledger/balance-change.ts';
import { LiveListener } from './listen.sql.ts';
import {
  type Connections,
  type LiveRow,
  type LiveTable,
  lastRowId,
  participantIdOf,
  readBadgeAwards,
  readBalanceChanges,
  readStreakChanges,
  readTierChanges,
  unwatchAll,
  unwatchParticipant,
  watchParticipant,
} from './reads.sql.ts';
import type { StreakChange } from './streak-change.ts';
import { type LiveSubscription, Subscriber } from './subscriber.ts';
import type { TierChange } from './tier-change.ts';

export { LiveEnded, type LiveSubscription } from './subscriber.ts';

/** What a subscription follows, and what each of its updates is. */
interface Items {
  balance: BalanceChange;
  badge: BadgeAward;
  tier: TierChange;
  streak: StreakChange;
}
type Kind = keyof Items;

const KINDS = ['balance', 'badge', 'tier', 'streak'] as const satisfies readonly Kind[];

/**
 * What each kind reads: its rows after a position, the table whose last id is a starting point,
 * and the tag its table's trigger NOTIFYs with (triggers.ts).
 */
const SOURCES: Record<
  Kind,
  {
    read: (db: Sql, at: Parameters<typeof readBalanceChanges>[1]) => Promise<LiveRow<unknown>[]>;
    table: LiveTable;
    tag: string;
  }
> = {
  balance: { read: readBalanceChanges, table: 'ledger_entries', tag: 'l' },
  badge: { read: readBadgeAwards, table: 'participant_badges', tag: 'b' },
  tier: { read: readTierChanges, table: 'tier_history', tag: 't' },
  streak: { read: readStreakChanges, table: 'streak_changes', tag: 's' },
};

const KIND_OF_TAG = new Map<string, Kind>(KINDS.map((kind) => [SOURCES[kind].tag, kind]));

/** One value per kind. */
const perKind = <T>(make: () => T) =>
  Object.fromEntries(KINDS.map((kind) => [kind, make()])) as Record<Kind, T>;

export interface LiveHubOptions {
  databaseUrl: string;
  /** Reads of the changed rows. */
  pool: Sql & Connections;
  log: Logger;
  /** Undelivered updates one subscription may hold before it is ended as a slow consumer. */
  bufferLimit?: number;
}

/** Rows read per flush; a burst beyond it is read by the next flush (the participant stays dirty). */
const FLUSH_ROWS = 5_000;

/**
 * Fans committed ledger entries, badge awards, tier moves and streak changes out to this process's
 * subscribers, through
 * Postgres alone (docs/live-updates.md#how-a-committed-change-reaches-a-subscriber): one
 * connection LISTENs on `svc_live` (listen.sql.ts; the migration's statement triggers NOTIFY the
 * ids of the participants a committed statement changed), and the rows a subscriber has not had
 * yet are read by id (`id > after`, per participant, reads.sql.ts). Per participant, ids are in
 * commit order (every ledger write updates the participant's row first, under its lock; badge,
 * tier and streak writes lock it too), so
 * reading by id delivers in commit order, exactly once per subscriber. A lost LISTEN connection
 * is re-established and every watched participant re-read from where its subscribers are, so no
 * change is lost. Each subscriber has a bounded buffer of its own (subscriber.ts), and every flush
 * reads all dirty participants in one query, so one busy participant delays no other.
 */
export class LiveHub {
  private readonly opts: Required<LiveHubOptions>;
  private readonly listener: LiveListener;
  private readonly watched = perKind(() => new Map<string, Set<Subscriber<unknown>>>());
  private readonly dirty = perKind(() => new Set<string>());
  private readonly flushing = perKind((): Promise<void> | null => null);
  private readonly again = perKind(() => false);
  private closed = false;
  /** This hub's rows in `live_watches`. */
  readonly hubId = randomUUID();

  constructor(opts: LiveHubOptions) {
    this.opts = { bufferLimit: 1_000, ...opts };
    this.listener = new LiveListener(opts.databaseUrl, opts.log, {
      notified: (payload) => this.onNotify(payload),
      // Whatever committed while nobody listened is read now, from each subscriber's position.
      reconnected: () => {
        for (const kind of KINDS) this.markAll(kind);
      },
    });
  }

  /** Connects and LISTENs; resolves once notifications flow. */
  start(): Promise<void> {
    return this.listener.start();
  }

  /** The backend pid of the LISTEN connection (a test terminates it to prove reconnection). */
  get listenerPid(): number | null {
    return this.listener.pid;
  }

  /** How many times the LISTEN connection was re-established (for tests and metrics). */
  get reconnects(): number {
    return this.listener.reconnects;
  }

  /**
   * A subscription to one participant's balance changes, badge awards, tier moves or streak changes,
   * from now on. 404 when the participant does not exist in the scope's workspace and mode. With
   * `after`, every row after that id is sent, so a client that read the state first misses nothing
   * in between.
   */
  async subscribe<K extends Kind>(
    kind: K,
    scope: Scope,
    externalId: string,
    /** Resume after this row id (a ledger entry, badge award, tier move or streak change the client has seen). */
    opts: { after?: number } = {},
  ): Promise<LiveSubscription<Items[K]>> {
    await this.start();
    const pid = await participantIdOf(this.opts.pool, scope, externalId);
    if (!pid) throw notFound('participant');
    const sub = new Subscriber<Items[K]>(this.opts.bufferLimit, () => this.detach(kind, pid, sub));
    // Only statements that run their trigger after the watch commits NOTIFY; the starting
    // point covers the ones already running.
    if (!this.isWatched(pid)) await watchParticipant(this.opts.pool, pid, this.hubId);
    const subs = this.watched[kind].get(pid) ?? new Set();
    subs.add(sub as Subscriber<unknown>);
    this.watched[kind].set(pid, subs);
    sub.after = opts.after ?? (await lastRowId(this.opts.pool, SOURCES[kind].table, pid));
    // A change that committed while the starting point was read is read by this pass.
    this.dirty[kind].add(pid);
    this.flush(kind);
    return sub.iterator();
  }

  /**
   * Where a subscription of `kind` to the participant would start now: the id of their last row,
   * read after every write already under way has committed (0: none yet; null: no such
   * participant). A client reads it before the state it shows, then subscribes with `after` set
   * to it, and misses nothing committed in between.
   */
  async position(kind: Kind, scope: Scope, externalId: string): Promise<number | null> {
    const pid = await participantIdOf(this.opts.pool, scope, externalId);
    return pid ? lastRowId(this.opts.pool, SOURCES[kind].table, pid) : null;
  }

  /** How many subscriptions this process serves (for metrics and tests). */
  get size(): number {
    let n = 0;
    for (const kind of KINDS) for (const subs of this.watched[kind].values()) n += subs.size;
    return n;
  }

  /** Updates read but not yet taken by their subscribers, over all subscriptions (at most `bufferLimit` each). */
  get backlog(): number {
    let n = 0;
    for (const kind of KINDS)
      for (const subs of this.watched[kind].values()) for (const sub of subs) n += sub.backlog;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const kind of KINDS)
      for (const subs of this.watched[kind].values()) for (const sub of subs) sub.end();
    await this.listener.close();
    await unwatchAll(this.opts.pool, this.hubId).catch((err: unknown) =>
      this.opts.log.warn({ err }, 'live updates: could not unwatch'),
    );
  }

  private isWatched(pid: string): boolean {
    return KINDS.some((kind) => this.watched[kind].has(pid));
  }

  /** A subscriber left: its participant is unwatched once no subscriber of any kind is left. */
  private detach(kind: Kind, pid: string, sub: Subscriber<unknown>): void {
    const subs = this.watched[kind].get(pid);
    if (!subs) return;
    subs.delete(sub);
    if (subs.size > 0) return;
    this.watched[kind].delete(pid);
    if (this.closed || this.isWatched(pid)) return;
    unwatchParticipant(this.opts.pool, pid, this.hubId).catch((err: unknown) =>
      this.opts.log.warn({ err }, 'live updates: could not unwatch'),
    );
  }

  private onNotify(payload: string): void {
    const [tag, list] = [payload.slice(0, 1), payload.slice(2)];
    const kind = KIND_OF_TAG.get(tag);
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

  /** Reads the participants' new rows from the lowest position of their subscribers, and hands them out. */
  private async read(kind: Kind, participantIds: string[]): Promise<void> {
    const pids: string[] = [];
    const afters: number[] = [];
    for (const id of participantIds) {
      const subs = this.watched[kind].get(id);
      if (!subs) continue;
      const positions = [...subs].map((s) => s.after).filter((a): a is number => a !== null);
      if (!positions.length) continue;
      pids.push(id);
      afters.push(Math.min(...positions));
    }
    if (!pids.length) return;
    const limit = Math.max(1, Math.floor(FLUSH_ROWS / pids.length));
    const rows = await SOURCES[kind].read(this.opts.pool, { pids, afters, limit });
    const byParticipant = new Map<string, LiveRow<unknown>[]>();
    for (const r of rows) {
      const list = byParticipant.get(r.participantId) ?? [];
      list.push(r);
      byParticipant.set(r.participantId, list);
    }
    for (const [pid, list] of byParticipant) {
      const subs = this.watched[kind].get(pid);
      if (!subs) continue;
      for (const sub of subs) {
        if (sub.after === null) continue;
        for (const r of list) if (r.id > sub.after) sub.push(r.id, r.item);
      }
      // A burst larger than one read: the rest on the next flush.
      if (list.length >= FLUSH_ROWS / pids.length) this.dirty[kind].add(pid);
    }
  }
}
