import type { Mode } from '../../keys/principal.ts';
import type { Standing } from '../../tiers/rules.ts';
import type { FlowAction } from '../flow-schemas.ts';
import type { RunStatus, StepStatus } from '../shapes.ts';

export type { RunStatus, StepStatus } from '../shapes.ts';

/** A participant as the batch sees it: locked, with balances and counts kept current in memory. */
export interface ParticipantState {
  id: number;
  workspaceId: string;
  mode: Mode;
  externalId: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  balance: number;
  lifetime: number;
  /** Processed events per type (the `event_count` operation), loaded only when a flow uses it. */
  counts: Map<string, number>;
  /** Their tier standing as their row keeps it (docs/tiers.md#standing). */
  standing: Standing;
  /** Their level's key for flow conditions (`participant.tier`), kept current by the tiers mechanic; null without a programme. */
  tier: string | null;
  /** Their own IANA time zone (streak periods); null: the programme's. */
  timezone: string | null;
  /** Their streaks' lengths by key (`{"streak": key}`), kept current by the streaks mechanic. */
  streaks: Map<string, number>;
  /**
   * A windowed `event_count` / `event_sum` (path null: a count) for the event being evaluated, set
   * by the windows mechanic before its flows run (docs/engagement.md#time-windows).
   */
  windowed: (type: string, path: string | null, window: string | null) => number;
}

export interface EventRow {
  /** The event's id; for an idle spell's stand-in, the spell's key ({@link spellKey}). */
  id: string;
  workspaceId: string;
  mode: Mode;
  eventType: string;
  participantId: number;
  payload: Record<string, unknown>;
  occurredAt: Date;
  /**
   * Set on the stand-in an inactivity run has for an event (docs/engagement.md#inactivity): no
   * event row exists; `spellAt` is the spell's start as Postgres gave it (exact to the
   * microsecond), `eventType` is `inactivity`, `occurredAt` the spell's end, `payload` empty.
   */
  spellAt?: string;
  /**
   * The referral code the event's participant object carried, and whether the event created the
   * participant (docs/referrals.md#attribution); absent without a code.
   */
  referral?: { code: string; createsParticipant: boolean };
}

export interface FlowRow {
  id: string;
  workspaceId: string;
  mode: Mode;
  name: string;
  eventType: string;
  conditions: unknown;
  actions: FlowAction[];
  maxRuns: number | null;
}

export interface Step {
  action: FlowAction['type'] | 'conditions';
  status: StepStatus;
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface RunRow {
  id: string;
  /** Its event; an idle spell's key for an inactivity run. */
  eventId: string;
  flowId: string;
  status: RunStatus;
  steps: Step[];
}

export interface BadgeRow {
  id: number;
  key: string;
  name: string;
}

export const flowKey = (x: { workspaceId: string; mode: string; eventType: string }) =>
  `${x.workspaceId}/${x.mode}/${x.eventType}`;
/**
 * The key every effect of a flow step carries
 * (docs/guarantees.md#delivery-semantics-events-at-least-once-effects-exactly-once).
 */
export const derivedKey = (eventId: string, flowId: string, actionIndex: number) =>
  `${eventId}:${flowId}:${actionIndex}`;

/**
 * What an idle spell's effects key on in place of an event id (docs/engagement.md#inactivity): the
 * participant and the spell's start in microseconds since the epoch, so each spell of each
 * participant has its own derived keys.
 */
export const spellKey = (participantId: number, spellMicros: string) =>
  `idle:${participantId}:${spellMicros}`;
