import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Flow, FlowRun } from './entities.ts';
import { type FlowRunRow, flowRunRow } from './presenters.ts';

/**
 * The queries of flows' CRUD: cold paths, so MikroORM over the caller's forked `em`, scoped to a
 * workspace and mode and blind to deleted flows. The engine reads and writes in its own SQL
 * (engine/load.ts, engine/write.ts) for the bench suite `engine`; the runs it wrote are read
 * here, as rows naming their participant's external id.
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

export interface FlowRunFilter {
  flow_id?: string;
  event_id?: string;
  status?: string;
  /** A participant's external id. */
  participant?: string;
}

const runsWhere = (who: Scope, f: FlowRunFilter) => ({
  workspace: who.workspaceId,
  mode: who.mode,
  ...(f.flow_id ? { flow: f.flow_id } : {}),
  ...(f.event_id ? { event: f.event_id } : {}),
  ...(f.status ? { status: f.status } : {}),
  ...(f.participant ? { participant: { externalId: f.participant } } : {}),
});

const asRows = (runs: FlowRun[]) => runs.map((r) => flowRunRow(r, r.participant.externalId));

export async function pageFlowRuns(
  em: EntityManager,
  who: Scope,
  filter: FlowRunFilter,
  range: KeysetRange<string>,
): Promise<FlowRunRow[]> {
  const [where, options] = keysetFind(range, runsWhere(who, filter));
  return asRows(await em.find(FlowRun, where, { ...options, populate: ['participant'] }));
}

/** The runs of one event (or one run, by `id`), oldest first; ids must already be UUIDs. */
export async function flowRunsOf(em: EntityManager, who: Scope, by: { id: string } | { event_id: string }) {
  const where = 'id' in by ? { ...runsWhere(who, {}), id: by.id } : runsWhere(who, by);
  return asRows(await em.find(FlowRun, where, { orderBy: { id: 'asc' }, populate: ['participant'] }));
}
