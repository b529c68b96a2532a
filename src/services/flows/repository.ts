import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Flow, FlowRun } from './entities.ts';
import { type FlowRunRow, flowRunRow } from './presenters.ts';
import type { RunStatus } from './shapes.ts';

/**
 * The queries of flows' CRUD: cold paths, so MikroORM, scoped to a workspace and mode and blind
 * to deleted flows. A plain read is given the ORM and forks its own EntityManager; a unit of work
 * passes its own. The engine reads and writes in its own SQL (engine/*.sql.ts) for the bench
 * suite `engine`; the runs it wrote are read here, as rows naming their participant's external id.
 */

type Db = MikroORM | EntityManager;
const emOf = (db: Db) => (db instanceof MikroORM ? db.em.fork() : db);

const live = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode, deletedAt: null });

export interface FlowFilter {
  event_type?: string;
  active?: 'true' | 'false';
}

export function pageFlows(db: Db, who: Scope, filter: FlowFilter, range: KeysetRange<string>) {
  const where = {
    ...live(who),
    ...(filter.event_type ? { eventType: filter.event_type } : {}),
    ...(filter.active ? { active: filter.active === 'true' } : {}),
  };
  return emOf(db).find(Flow, ...keysetFind(range, where));
}

/** `id` must already be a UUID (the column's type). */
export function flowById(db: Db, who: Scope, id: string) {
  return emOf(db).findOne(Flow, { ...live(who), id });
}

/** The names of a workspace's live flows in one mode. */
export async function flowNames(db: Db, who: Scope): Promise<Set<string>> {
  return new Set((await emOf(db).find(Flow, live(who), { fields: ['name'] })).map((f) => f.name));
}

export interface FlowRunFilter {
  flow_id?: string;
  event_id?: string;
  status?: RunStatus;
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
  db: Db,
  who: Scope,
  filter: FlowRunFilter,
  range: KeysetRange<string>,
): Promise<FlowRunRow[]> {
  const [where, options] = keysetFind(range, runsWhere(who, filter));
  return asRows(await emOf(db).find(FlowRun, where, { ...options, populate: ['participant'] }));
}

/** The runs of one event (or one run, by `id`), oldest first; ids must already be UUIDs. */
export async function flowRunsOf(db: Db, who: Scope, by: { id: string } | { event_id: string }) {
  const where = 'id' in by ? { ...runsWhere(who, {}), id: by.id } : runsWhere(who, by);
  return asRows(await emOf(db).find(FlowRun, where, { orderBy: { id: 'asc' }, populate: ['participant'] }));
}
