import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { parseInput } from '../validation.ts';
import { ensureBadges } from './engine/load.ts';
import { Flow } from './entities.ts';
import { createFlowInput, type FlowAction, updateFlowInput } from './flow-schemas.ts';
import { type FlowDto, presentFlow } from './presenters.ts';
import { flowById, pageFlows } from './repository.ts';

export const listFlowsInput = pageInput.extend({
  event_type: text(LIMITS.eventTypeLength).optional(),
  active: z.enum(['true', 'false']).optional(),
});

async function findFlow(ctx: AppContext, who: Principal, id: string) {
  const em = ctx.orm.em.fork();
  const flow = z.uuid().safeParse(id).success ? await flowById(em, who, id) : null;
  if (!flow) throw notFound('flow');
  return { em, flow };
}

/** Badges a flow awards exist from the moment it is saved (CONTRACT 7: an undefined key is created). */
async function defineAwardedBadges(ctx: AppContext, who: Principal, actions: FlowAction[]) {
  const wanted = actions.flatMap((a) =>
    a.type === 'award_badge'
      ? [{ workspaceId: who.workspaceId, mode: who.mode, key: a.badge, tier: a.tier ?? '' }]
      : [],
  );
  if (wanted.length) await ensureBadges(ctx.pool, wanted);
}

/** Creates a flow (CONTRACT 9); its conditions and points expressions are checked for unknown operations. */
export async function createFlow(ctx: AppContext, who: Principal, input: unknown): Promise<FlowDto> {
  const q = parseInput(createFlowInput, input);
  const em = ctx.orm.em.fork();
  const flow = em.create(Flow, {
    id: uuidv7(),
    workspace: who.workspaceId,
    mode: who.mode,
    name: q.name,
    eventType: q.event_type,
    conditions: q.conditions ?? null,
    actions: q.actions,
    active: q.active ?? true,
    maxRunsPerParticipant: q.max_runs_per_participant ?? null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await em.flush();
  await defineAwardedBadges(ctx, who, q.actions);
  return presentFlow(flow);
}

/** Replaces the given fields of a flow; runs already recorded keep the steps they ran. */
export async function updateFlow(
  ctx: AppContext,
  who: Principal,
  id: string,
  input: unknown,
): Promise<FlowDto> {
  const q = parseInput(updateFlowInput, input);
  const { em, flow } = await findFlow(ctx, who, id);
  if (q.name !== undefined) flow.name = q.name;
  if (q.event_type !== undefined) flow.eventType = q.event_type;
  if (q.conditions !== undefined) flow.conditions = q.conditions;
  if (q.actions !== undefined) flow.actions = q.actions;
  if (q.active !== undefined) flow.active = q.active;
  if (q.max_runs_per_participant !== undefined) flow.maxRunsPerParticipant = q.max_runs_per_participant;
  flow.updatedAt = new Date();
  await em.flush();
  if (q.actions) await defineAwardedBadges(ctx, who, q.actions);
  return presentFlow(flow);
}

/** Deletes a flow: it stops matching at once; its past runs stay readable. */
export async function deleteFlow(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const { em, flow } = await findFlow(ctx, who, id);
  flow.deletedAt = new Date();
  flow.active = false;
  await em.flush();
  return { id: flow.id, deleted: true };
}

export async function getFlow(ctx: AppContext, who: Principal, id: string): Promise<FlowDto> {
  return presentFlow((await findFlow(ctx, who, id)).flow);
}

/** Flows of the caller's workspace and mode, newest first. */
export const listFlows = pagedList({
  input: listFlowsInput,
  keyOf: (f: Flow) => f.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageFlows(ctx.orm.em.fork(), who, q, range),
  present: presentFlow,
});
