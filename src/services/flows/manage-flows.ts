import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { ensureBadges } from './engine/load.ts';
import { Flow } from './entities.ts';
import type { CreateFlowInput, FlowAction, UpdateFlowInput } from './flow-schemas.ts';
import { type FlowDto, presentFlow } from './presenters.ts';
import { flowById, pageFlows } from './repository.ts';

export const listFlowsInput = pageInput.extend({
  event_type: text(LIMITS.eventTypeLength).optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type ListFlowsInput = z.output<typeof listFlowsInput>;

const isUuid = (id: string) => z.uuid().safeParse(id).success;

/**
 * Badges a flow awards exist from the moment it is saved, in its transaction (docs/api.md#flows:
 * an undefined badge key is created).
 */
async function defineAwardedBadges(sql: Sql, who: Principal, actions: FlowAction[]) {
  const wanted = actions.flatMap((a) =>
    a.type === 'award_badge'
      ? [{ workspaceId: who.workspaceId, mode: who.mode, key: a.badge, tier: a.tier ?? '' }]
      : [],
  );
  if (wanted.length) await ensureBadges(sql, wanted);
}

/**
 * Creates a flow (docs/api.md#flows), run by events of its `event_type` or by its inactivity
 * `trigger` (docs/engagement.md#inactivity); its conditions and points expressions were checked for
 * unknown operations.
 */
export async function createFlow(ctx: AppContext, who: Principal, input: CreateFlowInput): Promise<FlowDto> {
  const flow = await unitOfWork(ctx, async ({ em, sql }) => {
    await defineAwardedBadges(sql, who, input.actions);
    return em.create(Flow, {
      id: uuidv7(),
      workspace: who.workspaceId,
      mode: who.mode,
      name: input.name,
      eventType: input.event_type ?? null,
      trigger: input.trigger ?? null,
      conditions: input.conditions ?? null,
      actions: input.actions,
      active: input.active ?? true,
      maxRunsPerParticipant: input.max_runs_per_participant ?? null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  });
  return presentFlow(flow);
}

/** Replaces the given fields of a flow; runs already recorded keep the steps they ran. */
export async function updateFlow(
  ctx: AppContext,
  who: Principal,
  id: string,
  input: UpdateFlowInput,
): Promise<FlowDto> {
  const flow = await unitOfWork(ctx, async ({ em, sql }) => {
    const flow = isUuid(id) ? await flowById(em, who, id) : null;
    if (!flow) throw notFound('flow');
    if (input.name !== undefined) flow.name = input.name;
    // One of the two, always (docs/engagement.md#inactivity): giving one clears the other.
    if (input.event_type !== undefined) {
      flow.eventType = input.event_type;
      flow.trigger = null;
    }
    if (input.trigger !== undefined) {
      flow.trigger = input.trigger;
      flow.eventType = null;
    }
    if (input.conditions !== undefined) flow.conditions = input.conditions;
    if (input.actions !== undefined) flow.actions = input.actions;
    if (input.active !== undefined) flow.active = input.active;
    if (input.max_runs_per_participant !== undefined)
      flow.maxRunsPerParticipant = input.max_runs_per_participant;
    flow.updatedAt = new Date();
    if (input.actions) await defineAwardedBadges(sql, who, input.actions);
    return flow;
  });
  return presentFlow(flow);
}

/** Deletes a flow: it stops matching at once; its past runs stay readable. */
export async function deleteFlow(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<{ id: string; deleted: true }> {
  return unitOfWork(ctx, async ({ em }) => {
    const flow = isUuid(id) ? await flowById(em, who, id) : null;
    if (!flow) throw notFound('flow');
    flow.deletedAt = new Date();
    flow.active = false;
    return { id: flow.id, deleted: true as const };
  });
}

/** One live flow of the caller's workspace and mode; 404 otherwise. */
export async function getFlow(ctx: AppContext, who: Principal, id: string): Promise<FlowDto> {
  const flow = isUuid(id) ? await flowById(ctx.orm, who, id) : null;
  if (!flow) throw notFound('flow');
  return presentFlow(flow);
}

/** Flows of the caller's workspace and mode, newest first. */
export const listFlows = pagedList({
  input: listFlowsInput,
  keyOf: (f: Flow) => f.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageFlows(ctx.orm, who, q, range),
  present: presentFlow,
});
