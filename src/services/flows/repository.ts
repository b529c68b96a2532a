import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Flow } from './entities.ts';

/**
 * The queries of flows' CRUD: cold paths, so MikroORM over the caller's forked `em`, scoped to a
 * workspace and mode and blind to deleted flows. The engine reads and writes in its own SQL
 * (engine/load.ts, engine/write.ts) for the bench suite `engine`; flow runs are read with
 * list-flow-runs.ts' SQL.
 */

const live = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode, deletedAt: null });

export interface FlowFilter {
  event_type?: string;
  active?: 'true' | 'false';
}

export function pageFlows(em: EntityManager, who: Scope, filter: FlowFilter, range: KeysetRange<string>) {
  const where = {
    ...live(who),
    ...(filter.event_type ? { eventType: filter.event_type } : {}),
    ...(filter.active ? { active: filter.active === 'true' } : {}),
  };
  return em.find(Flow, ...keysetFind(range, where));
}

/** `id` must already be a UUID (the column's type). */
export function flowById(em: EntityManager, who: Scope, id: string) {
  return em.findOne(Flow, { ...live(who), id });
}
