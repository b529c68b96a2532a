import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import { presentTrigger } from '../inactivity/shapes.ts';
import type { Flow, FlowRun } from './entities.ts';
import type { FlowAction } from './flow-schemas.ts';
import type { FlowDto, FlowRunDto, RunStatus } from './shapes.ts';

export type { FlowDto, FlowRunDto } from './shapes.ts';

export const presentFlow = (f: Flow): FlowDto => ({
  id: f.id,
  name: f.name,
  event_type: f.eventType ?? null,
  trigger: presentTrigger(f.trigger),
  conditions: (f.conditions ?? null) as FlowDto['conditions'],
  actions: f.actions as FlowAction[],
  active: f.active,
  max_runs_per_participant: f.maxRunsPerParticipant ?? null,
  created_at: isoTime(f.createdAt),
  updated_at: isoTime(f.updatedAt),
});

export interface FlowRunRow {
  id: string;
  flow_id: string;
  /** Null for an inactivity run. */
  event_id: string | null;
  external_id: string;
  status: RunStatus;
  steps: FlowRunDto['steps'];
  started_at: Date;
  finished_at: Date | null;
}

export const presentFlowRun = (r: FlowRunRow): FlowRunDto => ({
  id: r.id,
  flow_id: r.flow_id,
  event_id: r.event_id,
  participant: { external_id: r.external_id },
  status: r.status,
  steps: r.steps.map((s) => ({
    action: s.action,
    status: s.status,
    result: s.result ?? null,
    error: s.error ?? null,
  })),
  started_at: isoTime(r.started_at),
  finished_at: isoTimeOrNull(r.finished_at),
});

const idOf = (ref: string | { id: string }) => (typeof ref === 'string' ? ref : ref.id);

/** Flow entity → the row shape, for runs read through the ORM. */
export const flowRunRow = (r: FlowRun, externalId: string): FlowRunRow => ({
  id: r.id,
  flow_id: idOf(r.flow),
  event_id: r.event == null ? null : idOf(r.event),
  external_id: externalId,
  status: r.status,
  steps: r.steps as FlowRunDto['steps'],
  started_at: r.startedAt,
  finished_at: r.finishedAt ?? null,
});
