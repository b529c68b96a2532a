import type { BatchPlan } from '../flows/engine/evaluate.ts';
import type { FlowRow, ParticipantState, Step } from '../flows/engine/types.ts';
import type { FlowAction } from '../flows/flow-schemas.ts';
import type { SimulatedAction, SimulatedFlow, SimulationDto } from './shapes.ts';

/** What a simulation read from the engine's batch before rolling it back. */
export interface SimulationOutcome {
  externalId: string;
  existed: boolean;
  /** The flows of the event's type, in the order the engine ran them. */
  flows: FlowRow[];
  /** The id the unsaved flow was written under; null without one. */
  unsavedFlowId: string | null;
  plan: BatchPlan;
  /** The participant as the batch left them. */
  participant: ParticipantState;
  before: { balance: number; tier: string | null };
  failure: string | null;
  badges: { key: string; tier: string }[];
}

/** One step as the flow run would record it, in the terms of the action it ran. */
function presentAction(action: FlowAction, step: Step | undefined): SimulatedAction {
  const status = !step || step.status === 'pending' ? 'not_run' : step.status;
  const r = step?.result ?? {};
  const out: SimulatedAction = { type: action.type, status };
  if (action.type === 'award_points') {
    out.points = Number(r.points ?? 0);
    out.capped_points = Number(r.capped_points ?? 0);
    out.pending = typeof r.pending_grant_id === 'string';
    if (out.pending) out.available_at = String(r.available_at);
  } else if (action.type === 'award_badge') {
    out.badge = action.badge;
    out.tier = action.tier ?? null;
  } else out.template = action.template;
  if (status === 'failed' && step?.error) out.error = step.error;
  return out;
}

function presentFlow(flow: FlowRow, o: SimulationOutcome): SimulatedFlow {
  const run = o.plan.runs.find((r) => r.flowId === flow.id);
  const out: SimulatedFlow = {
    flow_id: flow.id === o.unsavedFlowId ? null : flow.id,
    name: flow.name,
    matched: run !== undefined,
    actions: [],
  };
  if (!run) return out;
  const conditions = run.steps.find((s) => s.action === 'conditions');
  if (conditions) {
    out.error = conditions.error ?? 'conditions failed';
    return out;
  }
  out.actions = flow.actions.map((a, i) => presentAction(a, run.steps[i]));
  return out;
}

/** The answer of `POST /v1/events/simulate` (docs/api.md#simulation). */
export function presentSimulation(o: SimulationOutcome): SimulationDto {
  const p = o.participant;
  return {
    status: o.failure ? 'failed' : 'processed',
    error: o.failure,
    participant: { external_id: o.externalId, exists: o.existed },
    flows: o.flows.map((f) => presentFlow(f, o)),
    badges: o.badges.map((b) => ({ key: b.key, tier: b.tier === '' ? null : b.tier })),
    streaks: [...p.streaks]
      .map(([key, length]) => ({ key, length }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    tier: { from: o.before.tier, to: p.tier },
    balance: { before: o.before.balance, after: p.balance },
  };
}
