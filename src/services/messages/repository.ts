import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import { Message, MessageTemplate } from './entities.ts';
import type { Channel, MessageStatus } from './shapes.ts';

// Raw SQL: the reconciler and the demo seed are handed the raw pool only (`Pick<AppContext, 'pool'>`),
// and the reconciler's sweep reads the partial index `messages_pending_idx`.

/**
 * The queries of templates and the messages log read by the doors: cold paths, so MikroORM over
 * the caller's forked `em`, every one scoped to a workspace and mode. Queueing and sending keep
 * their statements beside them (queue.sql.ts, send.sql.ts), for the row locks they take.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

/** One keyset range of a workspace and mode's templates. */
export function pageTemplates(orm: MikroORM, who: Scope, range: KeysetRange<number>) {
  return orm.em.fork().find(MessageTemplate, ...keysetFind(range, scoped(who)));
}

/** The template with this key, read in the caller's unit of work (to change it there). */
export function templateByKey(em: EntityManager, who: Scope, key: string) {
  return em.findOne(MessageTemplate, { ...scoped(who), key });
}

/** The template with this key, for a read. */
export function readTemplate(orm: MikroORM, who: Scope, key: string) {
  return templateByKey(orm.em.fork(), who, key);
}

/** How many templates it deleted (0 or 1). */
export function deleteTemplateByKey(orm: MikroORM, who: Scope, key: string) {
  return orm.em.fork().nativeDelete(MessageTemplate, { ...scoped(who), key });
}

export interface MessageFilter {
  status?: MessageStatus;
  template?: string;
  /** A participant's external id. */
  participant?: string;
}

/** One keyset range of a workspace and mode's messages, filtered, with their participants. */
export function pageMessages(
  orm: MikroORM,
  who: Scope,
  { status, template, participant }: MessageFilter,
  range: KeysetRange<string>,
) {
  const where = {
    ...scoped(who),
    ...(status ? { status } : {}),
    ...(template ? { template } : {}),
    ...(participant ? { participant: { externalId: participant } } : {}),
  };
  const [filter, options] = keysetFind(range, where);
  return orm.em.fork().find(Message, filter, { ...options, populate: ['participant'] });
}

/** `id` must already be a UUID (the column's type). */
export function messageById(orm: MikroORM, who: Scope, id: string) {
  return orm.em.fork().findOne(Message, { ...scoped(who), id }, { populate: ['participant'] });
}

/** The columns of a message and its participant's external id, over `MESSAGE_ROW_FROM` (exports). */
export const MESSAGE_ROW_COLUMNS = `x.id, x.template, x.channel, p.external_id, x."to", x.status, x.subject, x.body, x.error,
      x.mode, x.attempts, x.sent_at, x.created_at`;
export const MESSAGE_ROW_FROM = 'messages x left join participants p on p.id = x.participant_id';

/** A row of `MESSAGE_ROW_COLUMNS`. */
export interface MessageRow {
  id: string;
  template: string;
  channel: Channel;
  external_id: string | null;
  to: string | null;
  status: MessageStatus;
  subject: string | null;
  body: string;
  error: string | null;
  mode: Mode;
  attempts: number;
  sent_at: Date | null;
  created_at: Date;
}

/** Live messages claimed by a sender, oldest first: each is orphaned when no session holds its lock. */
export async function claimedMessageIds(sql: Sql, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from messages where status = 'pending' and claimed_at is not null order by created_at limit $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Live messages never claimed and older than `staleAfterSeconds`: their job may be gone. */
export async function staleMessageIds(sql: Sql, staleAfterSeconds: number, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from messages
      where status = 'pending' and claimed_at is null and created_at < now() - make_interval(secs => $1)
      order by created_at limit $2`,
    [staleAfterSeconds, limit],
  );
  return rows.map((r) => r.id);
}

/** A template unless its key is taken in that workspace and mode (an edited one is left as it is). */
export async function insertTemplateIfAbsent(
  sql: Sql,
  workspaceId: string,
  mode: Mode,
  t: { key: string; channel: Channel; subject: string | null; body: string },
): Promise<void> {
  await sql.query(
    `insert into message_templates (workspace_id, mode, key, channel, subject, body) values ($1, $2, $3, $4, $5, $6)
         on conflict (workspace_id, mode, key) do nothing`,
    [workspaceId, mode, t.key, t.channel, t.subject, t.body],
  );
}
