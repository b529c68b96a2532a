import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { BadgeAwardRow } from '../badges/badge-award.ts';
import { ParticipantBadge } from '../badges/entities.ts';
import { Event } from '../events/entities.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import { entryColumns, type RawEntry } from '../ledger/repository.ts';
import { Message } from '../messages/entities.ts';
import { activeMultipliersSql } from '../rewards/multiplier.ts';
import { PARTICIPANT_COLUMNS, type ParticipantRow, participantColumns } from './presenters.ts';

// Raw SQL: a participant's row is locked and read on the connection of the ledger, engine and
// redemption transactions that change it (bench suites `rewards`, `leaderboards`); the GraphQL
// batch reads are one statement per list of participants; the search repeats the trigram index's
// expression with `ilike`, and erasure rewrites JSON with `jsonb_set`: neither has an ORM form.

/** The participant with this external id in the caller's workspace and mode, else 404. */
export async function findParticipant(
  sql: Sql,
  who: Scope,
  externalId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ParticipantRow> {
  const { rows } = await sql.query<ParticipantRow>(
    `select ${PARTICIPANT_COLUMNS} from participants
      where workspace_id = $1 and mode = $2 and external_id = $3${opts.forUpdate ? ' for update' : ''}`,
    [who.workspaceId, who.mode, externalId],
  );
  if (!rows[0]) throw notFound('participant');
  return rows[0];
}

/** The id of the participant with this external id, or null. */
export async function participantIdOf(
  sql: Sql,
  p: { workspaceId: string; mode: Mode; externalId: string },
): Promise<number | null> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from participants where workspace_id = $1 and mode = $2 and external_id = $3`,
    [p.workspaceId, p.mode, p.externalId],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Creates the participant unless it exists (then nothing); its id when this call created it. */
export async function insertParticipant(
  sql: Sql,
  p: { workspaceId: string; mode: Mode; externalId: string },
): Promise<number | null> {
  const { rows } = await sql.query<{ id: string }>(
    `insert into participants (workspace_id, mode, external_id) values ($1, $2, $3)
     on conflict (workspace_id, mode, external_id) do nothing
     returning id`,
    [p.workspaceId, p.mode, p.externalId],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * Locks the participant's row and answers whether it still has this external id: false when an
 * erasure committed while the lock was awaited (the id is a pseudonym now).
 */
export async function lockParticipantNamed(sql: Sql, id: number, externalId: string): Promise<boolean> {
  const { rows } = await sql.query<{ external_id: string }>(
    'select external_id from participants where id = $1 for update',
    [id],
  );
  return rows[0]?.external_id === externalId;
}

/** Replaces the given PII fields (null clears one); the row after, or null when unknown. */
export async function updatePii(
  sql: Sql,
  who: Scope,
  externalId: string,
  fields: Partial<Record<'email' | 'phone' | 'name' | 'timezone', string | null>>,
): Promise<ParticipantRow | null> {
  const sets: string[] = [];
  const params: unknown[] = [who.workspaceId, who.mode, externalId];
  for (const [field, value] of Object.entries(fields)) {
    params.push(value);
    sets.push(`${field} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const { rows } = await sql.query<ParticipantRow>(
    `update participants set ${sets.join(', ')}
      where workspace_id = $1 and mode = $2 and external_id = $3
      returning ${PARTICIPANT_COLUMNS}`,
    params,
  );
  return rows[0] ?? null;
}

/**
 * The haystack the trigram index `participants_search_trgm_idx` covers (same expression, or the
 * index is not used); chr(31) between fields keeps a match inside one field.
 */
const HAYSTACK = `(external_id || chr(31) || coalesce(email, '') || chr(31) || coalesce(name, ''))`;

/** One keyset range of the caller's participants, those matching the ILIKE `pattern` when given. */
export async function participantsIn(
  sql: Sql,
  who: Scope,
  pattern: string | null,
  range: KeysetRange<CursorKey>,
): Promise<ParticipantRow[]> {
  const params: unknown[] = [who.workspaceId, who.mode];
  let where = 'workspace_id = $1 and mode = $2';
  if (pattern !== null) {
    params.push(pattern);
    where += ` and ${HAYSTACK} ilike $${params.length}`;
  }
  const k = keysetSql(range, 'id', params.length + 1);
  const { rows } = await sql.query<ParticipantRow>(
    `select ${PARTICIPANT_COLUMNS} from participants where ${where} and ${k.where}
      order by ${k.order} limit ${k.limit}`,
    [...params, ...k.params],
  );
  return rows;
}

/** How many badges, redemptions and events a participant has. */
export async function countsOf(
  sql: Sql,
  participantId: string | number,
): Promise<{ badges: number; redemptions: number; events: number }> {
  const { rows } = await sql.query<{ badges: string; redemptions: string; events: string }>(
    `select (select count(*) from participant_badges where participant_id = $1) as badges,
            (select count(*) from redemptions where participant_id = $1) as redemptions,
            (select count(*) from events where participant_id = $1) as events`,
    [participantId],
  );
  const c = rows[0]!;
  return { badges: Number(c.badges), redemptions: Number(c.redemptions), events: Number(c.events) };
}

/** Every key+tier a participant holds, newest award first, with the badge's definition. */
export function badgesHeld(ctx: Pick<AppContext, 'orm'>, participantId: number) {
  return ctx.orm.em
    .fork()
    .find(
      ParticipantBadge,
      { participant: participantId },
      { populate: ['badge'], orderBy: { awardedAt: 'desc', id: 'desc' } },
    );
}

/**
 * A participant's newest `limit` events, newest first: those linked to it and the quarantined
 * ones naming its external id without being linked (erase-participant.ts scrubs both).
 */
export async function eventsNaming(
  ctx: Pick<AppContext, 'orm'>,
  who: Scope,
  p: { id: number; externalId: string },
  limit: number,
): Promise<Event[]> {
  const scoped = { workspace: who.workspaceId, mode: who.mode };
  const newest = { orderBy: { id: 'desc' }, limit } as const;
  const [linked, quarantined] = await Promise.all([
    ctx.orm.em.fork().find(Event, { ...scoped, participant: p.id }, newest),
    ctx.orm.em.fork().find(Event, { ...scoped, participant: null, externalId: p.externalId }, newest),
  ]);
  return [...linked, ...quarantined].sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** A participant's newest `limit` messages, newest first. */
export function messagesTo(ctx: Pick<AppContext, 'orm'>, who: Scope, participantId: number, limit: number) {
  return ctx.orm.em
    .fork()
    .find(
      Message,
      { workspace: who.workspaceId, mode: who.mode, participant: participantId },
      { populate: ['participant'], orderBy: { id: 'desc' }, limit },
    );
}

/** An award read by SQL without its participant (the badges domain's row less `external_id`). */
export type HeldBadgeRow = Omit<BadgeAwardRow, 'external_id'>;

/** The awards of many participants (by external id) in one statement; a participant without any has a null key. */
export async function badgesOfMany(
  sql: Sql,
  who: Scope,
  externalIds: readonly string[],
): Promise<(Omit<HeldBadgeRow, 'key'> & { external_id: string; key: string | null })[]> {
  const { rows } = await sql.query<Omit<HeldBadgeRow, 'key'> & { external_id: string; key: string | null }>(
    `select p.external_id, b.key, pb.tier, b.name, pb.awarded_at, pb.flow_run_id
       from participants p
       left join participant_badges pb on pb.participant_id = p.id
       left join badges b on b.id = pb.badge_id
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])
      order by p.id, pb.awarded_at desc nulls last, pb.id desc`,
    [who.workspaceId, who.mode, externalIds],
  );
  return rows;
}

/** What a summary reads of a participant in SQL (its rank comes from the leaderboards). */
export interface SummaryRow extends ParticipantRow {
  badges: string;
  redemptions: string;
  events: string;
  factor: string | null;
  expires_at: Date | null;
}

/** The summaries of many participants in one statement, with their multiplier at `now`. */
export async function summariesOfMany(
  sql: Sql,
  who: Scope,
  externalIds: readonly string[],
  now: Date,
): Promise<SummaryRow[]> {
  const { rows } = await sql.query<SummaryRow>(
    `with ps as (
       select ${participantColumns()} from participants
        where workspace_id = $1 and mode = $2 and external_id = any($3::text[])
     )
     select ps.*,
            (select count(*) from participant_badges where participant_id = ps.id) as badges,
            (select count(*) from redemptions where participant_id = ps.id) as redemptions,
            (select count(*) from events where participant_id = ps.id) as events,
            m.factor, m.expires_at
       from ps
       left join (${activeMultipliersSql('array(select id from ps)', '$4::timestamptz')}) m
         on m.participant_id = ps.id`,
    [who.workspaceId, who.mode, externalIds, now],
  );
  return rows;
}

/** The same keyset range of many participants' ledgers in one statement (a LATERAL read each). */
export async function ledgersOfMany(
  sql: Sql,
  who: Scope,
  externalIds: readonly string[],
  range: KeysetRange<CursorKey>,
): Promise<(RawEntry & { owner: string; entry_id: string | null })[]> {
  const k = keysetSql(range, 'id', 4);
  const { rows } = await sql.query<RawEntry & { owner: string; entry_id: string | null }>(
    `select p.external_id as owner, e.id as entry_id, e.*
       from participants p
       left join lateral (
         select ${entryColumns()} from ledger_entries
          where participant_id = p.id and ${k.where}
          order by ${k.order} limit ${k.limit}
       ) e on true
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])`,
    [who.workspaceId, who.mode, externalIds, ...k.params],
  );
  return rows;
}
