import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Message, MessageTemplate } from './entities.ts';

/**
 * The queries of templates and the messages log read by the doors: cold paths, so MikroORM over
 * the caller's forked `em`, every one scoped to a workspace and mode. Sending (queue, send,
 * reconcile) keeps its own SQL, for the row locks it takes.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

export function pageTemplates(em: EntityManager, who: Scope, range: KeysetRange<number>) {
  return em.find(MessageTemplate, ...keysetFind(range, scoped(who)));
}

export function templateByKey(em: EntityManager, who: Scope, key: string) {
  return em.findOne(MessageTemplate, { ...scoped(who), key });
}

/** How many templates it deleted (0 or 1). */
export function deleteTemplateByKey(em: EntityManager, who: Scope, key: string) {
  return em.nativeDelete(MessageTemplate, { ...scoped(who), key });
}

export interface MessageFilter {
  status?: string;
  template?: string;
  /** A participant's external id. */
  participant?: string;
}

export function pageMessages(
  em: EntityManager,
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
  return em.find(Message, filter, { ...options, populate: ['participant'] });
}

/** `id` must already be a UUID (the column's type). */
export function messageById(em: EntityManager, who: Scope, id: string) {
  return em.findOne(Message, { ...scoped(who), id }, { populate: ['participant'] });
}
