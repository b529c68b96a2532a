import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import { findUnstorable } from '../../lib/json-guard.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Scope } from '../keys/principal.ts';
import type { Event } from './entities.ts';
import { eventType, quarantineReason } from './event-input.ts';
import type { EventToWrite, WriteResult } from './event-writer.ts';
import { eventById, quarantinedToReplay } from './repository.ts';
import type { EventAccepted, EventStatus, EventsReplayed } from './shapes.ts';

/** `POST /v1/events/{id}/replay`'s body: the fixes, each optional (docs/api.md#replay). */
export const replayEventBody = z
  .strictObject({
    event_type: eventType
      .refine((s) => s !== '', 'must not be empty')
      .optional()
      .meta({ description: 'The event type to replay the event as; absent: its own.' }),
    payload: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'The payload to replay the event with, whole; absent: its own.' }),
  })
  .superRefine((body, ctx) => {
    const problem = findUnstorable(body);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
  });
export type ReplayEventBody = z.output<typeof replayEventBody>;

const rangeTime = (what: string) =>
  z.iso
    .datetime({ offset: true })
    .or(z.iso.date())
    .optional()
    .meta({ description: `Replays only events received ${what} (ISO 8601 date or date-time).` });

/** `POST /v1/events/replay`'s body: which quarantined events to replay unchanged. */
export const replayEventsBody = z
  .strictObject({
    event_type: eventType
      .refine((s) => s !== '', 'must not be empty')
      .optional()
      .meta({ description: 'Replays only events of this type.' }),
    since: rangeTime('at or after this time'),
    until: rangeTime('before this time'),
  })
  .refine((b) => !b.since || !b.until || new Date(b.since) < new Date(b.until), {
    path: ['until'],
    message: 'must be after since',
  });
export type ReplayEventsBody = z.output<typeof replayEventsBody>;

/** Events per statement of a bulk replay: one ingest statement (one transaction) each. */
const CHUNK = 500;
/** A chunk raced by a concurrent replay is read and written again, at most this many times. */
const CHUNK_ATTEMPTS = 5;

/**
 * The derived idempotency key of an event's replay: a second replay of one event (retried,
 * concurrent, or by a bulk replay) finds the first and stores nothing (docs/api.md#replay).
 */
export const replayKey = (originalId: string) => `replay:${originalId}`;

/** The new event that replays `old`: its participant, time and source, with the fixes. */
function replayOf(old: Event, who: Scope, fixes: ReplayEventBody = {}): EventToWrite {
  const event = {
    eventType: fixes.event_type ?? old.eventType ?? null,
    externalId: old.externalId ?? null,
    // An event stores its participant's external id and referral code, not the PII it carried.
    email: null,
    phone: null,
    name: null,
    timezone: null,
    referralCode: old.referralCode ?? null,
    payload: fixes.payload ?? old.payload,
    occurredAt: old.occurredAt,
    idempotencyKey: replayKey(old.id),
  };
  return {
    ...event,
    id: uuidv7(),
    workspaceId: who.workspaceId,
    mode: who.mode,
    source: old.source,
    keyCheck: null,
    quarantineReason: quarantineReason(event),
    replayOf: old.id,
  };
}

const notQuarantined = (e: Event) =>
  new DomainError('invalid_state', `Only a quarantined event can be replayed; this one is ${e.status}`, {
    status: e.status,
  });

/**
 * Replays one quarantined event with its fixes (docs/api.md#replay): a new event, `replay_of` the
 * old one, through the whole ingest pipeline (its schema checked again, so it may be quarantined
 * again); the old one stays quarantined and gets `replayed_as`, in the same transaction. An event
 * is replayed once: asked again with the same fixes (a retry, or a concurrent call), the answer
 * is that replay, `replayed: true`; with other fixes, 409 `invalid_state` naming it.
 */
export async function replayEvent(
  ctx: AppContext,
  who: Scope,
  id: string,
  fixes: ReplayEventBody,
): Promise<EventAccepted & { replayed: boolean }> {
  // A malformed id names no event (and must not reach the uuid column).
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound('event');
  const old = await eventById(ctx.orm, who, id);
  if (!old) throw notFound('event');
  if (old.status !== 'quarantined') throw notQuarantined(old);
  const wanted = replayOf(old, who, fixes);
  let replayId = old.replayedAs ?? null;
  if (!replayId) {
    const [result] = (await ctx.events.writeAll([wanted])) as [WriteResult];
    if (!result.replayed) return accepted(result);
    replayId = result.event_id;
  }
  const replay = await eventById(ctx.orm, who, replayId);
  if (replay && replay.eventType === wanted.eventType && isDeepStrictEqual(replay.payload, wanted.payload))
    return { event_id: replay.id, status: replay.status, replayed: true };
  throw new DomainError(
    'invalid_state',
    `This event was already replayed as ${replayId}${replay ? ' with other fixes' : ''}; ` +
      'replay that one instead if it is quarantined',
  );
}

const accepted = (r: WriteResult) => ({
  event_id: r.event_id,
  status: r.status as EventStatus,
  replayed: r.replayed,
});

/**
 * Replays every quarantined, not yet replayed event of the range unchanged (docs/api.md#replay),
 * for after a schema fix: oldest first, in chunks of one ingest statement each. Events quarantined
 * for a missing type or participant are left alone (unchanged, they would be quarantined again),
 * and so are events received after the call started (its own replays among them, when the
 * schema still refuses them). Each event is replayed once even when calls run concurrently: the
 * replays' derived idempotency keys let one insert win, and the other call's statement answers it
 * as a replay, which it does not count.
 */
export async function replayQuarantined(
  ctx: AppContext,
  who: Scope,
  range: ReplayEventsBody,
): Promise<EventsReplayed> {
  const ceiling = uuidv7();
  const filter = {
    eventType: range.event_type,
    since: range.since ? new Date(range.since) : undefined,
    until: range.until ? new Date(range.until) : undefined,
  };
  let after: string | null = null;
  let replayed = 0;
  for (;;) {
    let attempt = 1;
    let chunk: Event[];
    let results: WriteResult[];
    for (;;) {
      chunk = await quarantinedToReplay(ctx.orm, who, { ...filter, after, before: ceiling }, CHUNK);
      if (!chunk.length) return { replayed };
      try {
        results = await ctx.events.writeAll(chunk.map((e) => replayOf(e, who)));
        break;
      } catch (err) {
        // A concurrent replay of the same events kept winning the race: read what is left again.
        if (attempt++ >= CHUNK_ATTEMPTS) throw err;
        ctx.log.warn({ err, size: chunk.length }, 'bulk replay: chunk raced; reading it again');
      }
    }
    replayed += results.filter((r) => !r.replayed).length;
    after = chunk[chunk.length - 1]!.id;
  }
}
