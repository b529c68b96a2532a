import { defineEntity, p } from '@mikro-orm/core';
import { Event } from '../events/entities.ts';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import type { RunStatus } from './shapes.ts';

/** A flow (docs/api.md#flows): when an event of `eventType` matches `conditions`, run `actions` in order. */
const FlowSchema = defineEntity({
  name: 'Flow',
  tableName: 'flows',
  indexes: [
    { name: 'flows_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'flows_event_type_idx', properties: ['workspace', 'mode', 'eventType'] },
  ],
  properties: {
    /** UUIDv7. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    name: p.string().length(200),
    /** The event type that triggers it; null for an inactivity flow (`trigger`). */
    eventType: p.string().length(128).nullable(),
    /** `{ type: 'inactivity', after, event_types? }` (docs/engagement.md#inactivity); null: an event flow. */
    trigger: p.json<Record<string, unknown>>().nullable(),
    /** JSON Logic, or null = always. */
    conditions: p.json<unknown>().nullable(),
    actions: p.json<unknown[]>(),
    active: p.boolean().default(true),
    maxRunsPerParticipant: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    /** Soft delete: past runs keep naming their flow. */
    deletedAt: p.datetime().nullable(),
  },
});
export class Flow extends FlowSchema.class {}
FlowSchema.setClass(Flow);

/** One flow run for one event; unique per (event, flow) so reprocessing resumes it, never doubles it. */
const FlowRunSchema = defineEntity({
  name: 'FlowRun',
  tableName: 'flow_runs',
  uniques: [{ name: 'flow_runs_event_flow_unique', properties: ['event', 'flow'] }],
  indexes: [
    { name: 'flow_runs_list_idx', properties: ['workspace', 'mode', 'id'] },
    // One index for both the run limit (participant + flow) and a participant's runs: every index
    // costs the engine's hot INSERT (bench `engine`).
    { name: 'flow_runs_participant_flow_idx', properties: ['participant', 'flow'] },
    // An inactivity run: once per flow, participant and idle spell (docs/engagement.md#inactivity).
    // Partial: an event's run (spell_at null) adds no entry to the engine's hot INSERT.
    {
      name: 'flow_runs_spell_unique',
      expression:
        'create unique index "flow_runs_spell_unique" on "flow_runs" ("flow_id", "participant_id", "spell_at") where spell_at is not null',
    },
  ],
  properties: {
    /** UUIDv7. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    flow: () => p.manyToOne(Flow).deleteRule('cascade'),
    /** The event that ran it; null for an inactivity run. */
    event: () => p.manyToOne(Event).deleteRule('cascade').nullable(),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    /** An inactivity run's idle spell: the time of the last event before it. */
    spellAt: p.datetime().nullable(),
    status: p.string().length(16).$type<RunStatus>(),
    steps: p.json<unknown[]>().default('[]'),
    startedAt: p.datetime().defaultRaw('now()'),
    finishedAt: p.datetime().nullable(),
  },
});
export class FlowRun extends FlowRunSchema.class {}
FlowRunSchema.setClass(FlowRun);

/**
 * How many events of a type a participant has had processed: the `event_count` condition
 * operation reads it, and the engine bumps it in the transaction that marks the event processed.
 */
const ParticipantEventCountSchema = defineEntity({
  name: 'ParticipantEventCount',
  tableName: 'participant_event_counts',
  properties: {
    participant: () => p.manyToOne(Participant).primary().deleteRule('cascade'),
    eventType: p.string().length(128).primary(),
    count: p.bigint('number').default(0),
    /** The latest `occurred_at` among them (inactivity flows, docs/engagement.md#inactivity). */
    lastAt: p.datetime().nullable(),
  },
});
export class ParticipantEventCount extends ParticipantEventCountSchema.class {}
ParticipantEventCountSchema.setClass(ParticipantEventCount);
