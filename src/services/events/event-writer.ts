import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Sql } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import { Batcher, ItemFailure } from '../../lib/batcher.ts';
import type { Mode } from '../keys/principal.ts';
import type { NormalisedEvent } from './event-input.ts';
import {
  type IngestRow,
  type IngestStatement,
  ingestValues,
  isIdempotencyRace,
  notifyWorkers,
  prepareIngest,
  runIngest,
  scopeOf,
} from './ingest.sql.ts';
import { eventsByIdempotencyKey } from './repository.ts';
import { SchemaVersions } from './schema-versions.ts';
import { WakeUp } from './wake-up.ts';

export interface EventToWrite extends NormalisedEvent {
  id: string;
  workspaceId: string;
  mode: Mode;
  source: string;
  /** Why the event is quarantined before any schema is consulted (missing type or participant). */
  quarantineReason: string | null;
  /** An API key id that must still be live, checked by the statement itself (deferred key check). */
  keyCheck: string | null;
  /** The quarantined event this one replays (docs/api.md#replay); it gets `replayed_as` in the same statement. */
  replayOf?: string | null;
}

export interface WriteResult {
  event_id: string;
  status: string;
  replayed: boolean;
}

/** A batch is written again when its snapshot was too old (a schema changed, a participant appeared). */
const MAX_ATTEMPTS = 5;

type Outcome = WriteResult | ItemFailure;

/**
 * The ingest hot path (bench scenario `events.post`, docs/architecture.md#how-a-request-and-an-event-travel).
 * Requests arriving together share ONE statement (ingest.sql.ts), whatever the batch size, so a
 * batch costs one round trip and one commit; per-request ORM units of work would cost more than
 * the whole INSERT. The 202 is sent only after the statement has committed, and the job commits
 * with its events, so an accepted event is never lost. The workers are woken after the commit
 * (wake-up.ts).
 *
 * A statement sees one snapshot, so three things are checked optimistically and the batch is
 * written again (nothing of it was inserted) when they fail:
 *  - JSON Schemas are validated here, from the versions this process remembers (schema-versions.ts);
 *    a stale one inserts nothing and is answered with the current schema.
 *  - A participant created by a concurrent statement after this one's snapshot is locked by the
 *    upsert but invisible to its read-back; no event is inserted and the retry sees it.
 *  - An idempotency key committed by a concurrent statement after this one's snapshot fails the
 *    INSERT with a unique violation (`isIdempotencyRace`); the retry answers it as a replay.
 */
export class EventWriter {
  private readonly batcher: Batcher<EventToWrite, WriteResult>;
  private readonly schemas = new SchemaVersions();
  private readonly wakeUp: WakeUp;
  private statement?: Promise<IngestStatement>;
  /** `writeAll` calls under way (they bypass the batcher), for `idle`. */
  private readonly whole = new Set<Promise<unknown>>();

  private readonly pool: Sql;
  private readonly boss: PgBoss;
  private readonly log: Logger;

  /** `pool`: the ingest statement's own connections (`ingestPool`, generic plans). */
  constructor(pool: Sql, boss: PgBoss, log: Logger) {
    this.pool = pool;
    this.boss = boss;
    this.log = log;
    this.wakeUp = new WakeUp(async () => {
      const { wakeSql } = await this.prepare();
      if (wakeSql) await notifyWorkers(this.pool, wakeSql);
    }, log);
    this.batcher = new Batcher((items) => this.writeIsolatingBadRows(items), {
      maxBatch: 256,
      concurrency: 3,
      // A second statement starts only for a batch worth its fixed cost (docs/architecture.md#how-a-request-and-an-event-travel).
      overlapAt: 32,
    });
  }

  /** Writes one event with whatever else arrives meanwhile; resolves once it is committed. */
  write(event: EventToWrite): Promise<WriteResult> {
    return this.batcher.submit(event);
  }

  /**
   * Writes these events as ONE statement, so in one transaction: all of them or none (batch
   * ingest, replays; docs/api.md#batch-ingest). Not through the batcher: a batch is already big
   * enough to amortise the statement, and must neither be split nor mixed with other requests'
   * events. Every retry (stale schema, participant race, idempotency race) writes the whole
   * batch again. Resolves with one result per event, in order; a revoked deferred key rejects.
   */
  async writeAll(items: EventToWrite[]): Promise<WriteResult[]> {
    const written = this.writeBatch(items);
    this.whole.add(written);
    try {
      const outcomes = await written;
      const failed = outcomes.find((o) => o instanceof ItemFailure);
      if (failed) throw failed.error;
      return outcomes as WriteResult[];
    } finally {
      this.whole.delete(written);
    }
  }

  /** Resolves once nothing is being written and no wake-up is pending (graceful shutdown, tests). */
  async idle(): Promise<void> {
    await this.batcher.idle();
    await Promise.allSettled([...this.whole]);
    await this.wakeUp.idle();
  }

  /** A data error in one row must not fail its neighbours: retry a failed batch one event at a time. */
  private async writeIsolatingBadRows(items: EventToWrite[]): Promise<Outcome[]> {
    try {
      return await this.writeBatch(items);
    } catch (err) {
      if (items.length === 1) throw err;
      this.log.warn({ err, size: items.length }, 'event batch failed; retrying its events one by one');
      const settled = await Promise.allSettled(items.map((item) => this.writeBatch([item])));
      return settled.map((s) =>
        s.status === 'fulfilled' ? (s.value[0] as WriteResult) : new ItemFailure(s.reason),
      );
    }
  }

  private async writeBatch(items: EventToWrite[]): Promise<Outcome[]> {
    const statement = await this.prepare();
    const text = items.some((e) => e.replayOf) ? statement.replays : statement;
    for (let attempt = 1; ; attempt++) {
      const reasons = items.map((e) => e.quarantineReason ?? this.schemas.problem(e));
      let rows: IngestRow[];
      try {
        rows = await runIngest(
          this.pool,
          text,
          ingestValues(items, reasons, (type) => this.schemas.version(type)),
        );
      } catch (err) {
        if (!isIdempotencyRace(err) || attempt === MAX_ATTEMPTS) throw err;
        continue;
      }
      const stale = rows.filter((r) => r.idx === null);
      for (const s of stale) this.schemas.remember(s.type_scope!, s.version, s.schema);
      const retry = stale.length > 0 || rows.some((r) => r.idx === -1);
      if (!retry) {
        if (statement.wakeSql && rows.some((r) => r.status === 'received' && r.replayed === false))
          this.wakeUp.ring();
        return await this.results(items, rows);
      }
      if (attempt === MAX_ATTEMPTS)
        throw new Error(
          `event batch not written after ${attempt} attempts (schemas, participants or keys kept changing)`,
        );
    }
  }

  /**
   * Replays answer with the original event. A row neither inserted nor seen as a replay repeats
   * an idempotency key earlier in the same batch: it answers that row's event (as a replay), or,
   * when that row has no answer here, the committed event read in a statement of its own.
   */
  private async results(items: EventToWrite[], rows: IngestRow[]): Promise<Outcome[]> {
    const results: Outcome[] = new Array(items.length);
    const repeats: number[] = [];
    for (const r of rows) {
      if (r.idx === null || r.idx < 0) continue;
      if (r.denied)
        results[r.idx] = new ItemFailure(
          new DomainError('authentication_error', 'Invalid API key: unknown or revoked'),
        );
      else if (r.id) results[r.idx] = { event_id: r.id, status: r.status!, replayed: r.replayed! };
      else repeats.push(r.idx);
    }
    const raced: EventToWrite[] = [];
    if (repeats.length) {
      const firsts = new Map<string, WriteResult>();
      items.forEach((e, idx) => {
        const key = `${scopeOf(e)}/${e.idempotencyKey}`;
        const result = results[idx];
        if (e.idempotencyKey !== null && !firsts.has(key) && result && !(result instanceof ItemFailure))
          firsts.set(key, result);
      });
      for (const idx of repeats) {
        const e = items[idx]!;
        const first = firsts.get(`${scopeOf(e)}/${e.idempotencyKey}`);
        if (first) results[idx] = { ...first, replayed: true };
        else raced.push(e);
      }
    }
    if (raced.length) {
      const prior = await eventsByIdempotencyKey(this.pool, raced);
      for (const e of raced) {
        const found = prior.get(`${scopeOf(e)}/${e.idempotencyKey}`);
        if (!found) throw new Error(`event ${e.id} was neither inserted nor found by its idempotency key`);
        results[items.indexOf(e)] = { event_id: found.id, status: found.status, replayed: true };
      }
    }
    return results;
  }

  /** The statement, built once; a failed read (the database restarting) is not remembered. */
  private prepare(): Promise<IngestStatement> {
    this.statement ??= prepareIngest(this.boss).catch((err: unknown) => {
      this.statement = undefined;
      throw err;
    });
    return this.statement;
  }
}
