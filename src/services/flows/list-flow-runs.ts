import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { keysetSql, pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { type FlowRunDto, type FlowRunRow, presentFlowRun } from './presenters.ts';

export const listFlowRunsInput = pageInput.extend({
  flow_id: z.uuid().optional(),
  participant: z.string().max(255).optional(),
  event_id: z.uuid().optional(),
  status: z.enum(['completed', 'failed', 'skipped']).optional(),
});

const SELECT = `select r.id, r.flow_id, r.event_id, p.external_id, r.status, r.steps, r.started_at, r.finished_at
                  from flow_runs r join participants p on p.id = r.participant_id`;

/** Flow runs, newest first, filtered by flow, participant, event and status (CONTRACT 9). */
export const listFlowRuns = pagedList({
  input: listFlowRunsInput,
  keyOf: (r: FlowRunRow) => r.id,
  fetch: async (ctx: AppContext, who: Principal, q, range) => {
    const params: unknown[] = [who.workspaceId, who.mode];
    const where = ['r.workspace_id = $1', 'r.mode = $2'];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (q.flow_id) add('r.flow_id = ?', q.flow_id);
    if (q.event_id) add('r.event_id = ?', q.event_id);
    if (q.status) add('r.status = ?', q.status);
    if (q.participant) add('p.external_id = ?', q.participant);
    const k = keysetSql(range, 'r.id', params.length + 1);
    const { rows } = await ctx.pool.query<FlowRunRow>(
      `${SELECT} where ${where.join(' and ')} and ${k.where} order by ${k.order} limit ${k.limit}`,
      [...params, ...k.params],
    );
    return rows;
  },
  present: presentFlowRun,
});

export async function getFlowRun(ctx: AppContext, who: Principal, id: string): Promise<FlowRunDto> {
  if (!z.uuid().safeParse(id).success) throw notFound('flow run');
  const { rows } = await ctx.pool.query<FlowRunRow>(
    `${SELECT} where r.id = $1 and r.workspace_id = $2 and r.mode = $3`,
    [id, who.workspaceId, who.mode],
  );
  if (!rows[0]) throw notFound('flow run');
  return presentFlowRun(rows[0]);
}

/** The runs of one event, oldest first (shown by `GET /v1/events/{id}`). */
export async function runsOfEvent(ctx: AppContext, who: Principal, eventId: string): Promise<FlowRunDto[]> {
  const { rows } = await ctx.pool.query<FlowRunRow>(
    `${SELECT} where r.event_id = $1 and r.workspace_id = $2 and r.mode = $3 order by r.id`,
    [eventId, who.workspaceId, who.mode],
  );
  return rows.map(presentFlowRun);
}
