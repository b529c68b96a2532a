import { describe, expect, it } from 'vitest';
import { type BatchState, evaluateBatch, type SendMessage } from '../src/services/flows/engine/evaluate.ts';
import type { EventRow, FlowRow, ParticipantState, RunRow } from '../src/services/flows/engine/types.ts';
import type { FlowAction } from '../src/services/flows/flow-schemas.ts';

// Pure: evaluateBatch plans writes from in-memory state; nothing here touches a database.

const WS = 'ws-1';

function participant(over: Partial<ParticipantState> = {}): ParticipantState {
  return {
    id: 1,
    workspaceId: WS,
    mode: 'test',
    externalId: 'u-1',
    email: 'u1@example.com',
    phone: null,
    name: 'Uma',
    balance: 0,
    lifetime: 0,
    counts: new Map(),
    standing: { key: null, since: null, points: 0, period: null, prior: 0, reviewAt: null, lifetime: 0 },
    tier: null,
    timezone: null,
    streaks: new Map(),
    windowed: () => 0,
    ...over,
  };
}

let seq = 0;
function event(over: Partial<EventRow> = {}): EventRow {
  seq++;
  return {
    id: `evt-${seq}`,
    workspaceId: WS,
    mode: 'test',
    eventType: 'order.completed',
    participantId: 1,
    payload: {},
    occurredAt: new Date('2026-11-25T10:00:00Z'),
    ...over,
  };
}

function flow(actions: FlowAction[], over: Partial<FlowRow> = {}): FlowRow {
  return {
    id: `flow-${actions.length}-${over.name ?? 'f'}`,
    workspaceId: WS,
    mode: 'test',
    name: 'Orders',
    eventType: 'order.completed',
    conditions: null,
    maxRuns: null,
    actions,
    ...over,
  };
}

function state(flows: FlowRow[], over: Partial<BatchState> = {}): BatchState {
  return {
    participants: new Map([[1, participant()]]),
    flows: new Map([[`${WS}/test/order.completed`, flows]]),
    runs: new Map(),
    runCounts: new Map(),
    badges: new Map([[`${WS}/test/vip`, { id: 10, key: 'vip', name: 'VIP' }]]),
    holdings: new Set(),
    multipliers: new Map(),
    ledgerKeys: new Set(),
    finalAttempt: new Set(),
    ...over,
  };
}

const noMessages: SendMessage = async () => {
  throw new Error('no message expected');
};

describe('evaluateBatch', () => {
  it('awards constant points, and the next event of the batch sees the new balance', async () => {
    const whileBelow15 = flow([{ type: 'award_points', points: 10 }], {
      conditions: { '<': [{ var: 'participant.balance' }, 15] },
    });
    const s = state([whileBelow15]);
    const [a, b, c] = [event(), event(), event()];
    const plan = await evaluateBatch([a, b, c], s, noMessages);
    // a sees 0 and b sees 10 (both match); c sees 20 and does not.
    expect(plan.credits.map((cr) => cr.entry.points)).toEqual([10, 10]);
    expect(plan.runs.map((r) => r.eventId)).toEqual([a.id, b.id]);
    expect(plan.processed).toEqual([a, b, c]);
    expect(s.participants.get(1)).toMatchObject({ balance: 20, lifetime: 20 });
  });

  it('evaluates a points expression over the payload, floors it, and applies the multiplier', async () => {
    const f = flow([{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 0.1] } }]);
    const s = state([f], { multipliers: new Map([[1, 1.5]]) });
    const e = event({ payload: { total: 129 } });
    const plan = await evaluateBatch([e], s, noMessages);
    // floor(12.9) = 12, × 1.5 = 18
    expect(plan.credits).toHaveLength(1);
    expect(plan.credits[0]!.entry).toMatchObject({
      points: 18,
      source: 'flow',
      reason: 'Orders',
      idempotencyKey: `${e.id}:${f.id}:0`,
    });
    expect(plan.credits[0]!.step).toMatchObject({
      status: 'completed',
      result: { points: 18, multiplier: 1.5 },
    });
    expect(plan.runs[0]).toMatchObject({ status: 'completed', finished: true });
  });

  it('skips an award of zero or fewer points, and the run is skipped', async () => {
    const s = state([flow([{ type: 'award_points', points: { '-': [{ var: 'payload.total' }, 100] } }])]);
    const plan = await evaluateBatch([event({ payload: { total: 20 } })], s, noMessages);
    expect(plan.credits).toHaveLength(0);
    expect(plan.runs[0]).toMatchObject({
      status: 'skipped',
      steps: [{ status: 'skipped', result: { points: 0 } }],
    });
    expect(plan.results.map((r) => [r.type, r.data.status])).toEqual([['flow.completed', 'skipped']]);
  });

  it('sees event_count including the current event, in batch order', async () => {
    const onThird = flow([{ type: 'award_points', points: 50 }], {
      conditions: { '==': [{ event_count: 'order.completed' }, 3] },
    });
    const s = state([onThird], {
      participants: new Map([[1, participant({ counts: new Map([['order.completed', 1]]) })]]),
    });
    const [a, b, c] = [event(), event(), event()];
    const plan = await evaluateBatch([a, b, c], s, noMessages);
    // Prior count 1: event a is the 2nd, b the 3rd (matches), c the 4th.
    expect(plan.runs.map((r) => r.eventId)).toEqual([b.id]);
  });

  it('stops at max_runs per participant', async () => {
    const once = flow([{ type: 'award_points', points: 5 }], { maxRuns: 1 });
    const plan = await evaluateBatch([event(), event()], state([once]), noMessages);
    expect(plan.credits).toHaveLength(1);
  });

  it('awards a badge once and skips it (already_held) afterwards, emitting badge.awarded once', async () => {
    const s = state([flow([{ type: 'award_badge', badge: 'vip' }])]);
    const plan = await evaluateBatch([event(), event()], s, noMessages);
    expect(plan.badges).toHaveLength(1);
    expect(plan.badges[0]).toMatchObject({ badgeId: 10, tier: '', participantId: 1 });
    expect(plan.runs.map((r) => r.steps[0]!.status)).toEqual(['completed', 'skipped']);
    expect(plan.runs[1]!.steps[0]!.result).toMatchObject({ already_held: true });
    expect(plan.results.filter((r) => r.type === 'badge.awarded')).toHaveLength(1);
  });

  it('passes the flow context to send_message and records its outcome', async () => {
    const calls: { template: string; key: string; payload: unknown }[] = [];
    const send: SendMessage = async (_p, template, key, context) => {
      calls.push({ template, key, payload: context.payload });
      return { id: 'msg-1', status: 'sent' };
    };
    const e = event({ payload: { order: 'o-1' } });
    const plan = await evaluateBatch(
      [e],
      state([flow([{ type: 'send_message', template: 'thanks' }])]),
      send,
    );
    expect(calls).toEqual([
      { template: 'thanks', key: expect.stringMatching(new RegExp(`^${e.id}:`)), payload: { order: 'o-1' } },
    ]);
    expect(plan.runs[0]!.steps[0]).toMatchObject({
      status: 'completed',
      result: { message_id: 'msg-1', status: 'sent' },
    });
  });

  it('fails the run and the event when a step throws, keeping earlier steps, and uncounts the event', async () => {
    const failing: SendMessage = async () => {
      throw new Error('smtp down');
    };
    const f = flow([
      { type: 'award_points', points: 5 },
      { type: 'send_message', template: 'thanks' },
    ]);
    const s = state([f]);
    const e = event();
    const plan = await evaluateBatch([e], s, failing);
    expect(plan.processed).toHaveLength(0);
    expect(plan.failed.get(e.id)).toBe('flow "Orders" step 1 (send_message): smtp down');
    expect(plan.runs[0]).toMatchObject({ status: 'failed', finished: false });
    expect(plan.runs[0]!.steps.map((st) => st.status)).toEqual(['completed', 'failed']);
    expect(plan.results).toHaveLength(0); // not final: no flow.completed yet
    expect(s.participants.get(1)!.counts.get('order.completed')).toBe(0);
  });

  it('finishes a failed run (flow.completed with status failed) on the final attempt', async () => {
    const e = event();
    const f = flow([{ type: 'send_message', template: 't' }]);
    const plan = await evaluateBatch([e], state([f], { finalAttempt: new Set([e.id]) }), async () => {
      throw new Error('nope');
    });
    expect(plan.runs[0]).toMatchObject({ status: 'failed', finished: true });
    expect(plan.results).toEqual([
      expect.objectContaining({
        type: 'flow.completed',
        data: expect.objectContaining({ status: 'failed' }),
      }),
    ]);
  });

  it('resumes a failed run at its failed step, leaving completed steps alone', async () => {
    const f = flow([
      { type: 'award_points', points: 5 },
      { type: 'send_message', template: 'thanks' },
    ]);
    const e = event();
    const prior: RunRow = {
      id: 'run-1',
      eventId: e.id,
      flowId: f.id,
      status: 'failed',
      steps: [
        { action: 'award_points', status: 'completed', result: { points: 5 }, error: null },
        { action: 'send_message', status: 'failed', result: null, error: 'smtp down' },
      ],
    };
    const s = state([f], { runs: new Map([[`${e.id}/${f.id}`, prior]]) });
    const plan = await evaluateBatch([e], s, async () => ({ id: 'msg-2', status: 'sent' }));
    expect(plan.credits).toHaveLength(0);
    expect(plan.runs[0]).toMatchObject({ id: 'run-1', status: 'completed' });
    expect(plan.runs[0]!.steps.map((st) => st.status)).toEqual(['completed', 'completed']);
  });

  it('skips a flow whose earlier run of this event completed', async () => {
    const f = flow([{ type: 'award_points', points: 5 }]);
    const e = event();
    const done: RunRow = { id: 'r', eventId: e.id, flowId: f.id, status: 'completed', steps: [] };
    const plan = await evaluateBatch(
      [e],
      state([f], { runs: new Map([[`${e.id}/${f.id}`, done]]) }),
      noMessages,
    );
    expect(plan.runs).toHaveLength(0);
    expect(plan.processed).toEqual([e]);
  });

  it('turns a condition that throws into a failed conditions step naming the flow', async () => {
    const f = flow([{ type: 'award_points', points: 5 }], { conditions: { method: ['x', 'toString'] } });
    const e = event();
    const plan = await evaluateBatch([e], state([f]), noMessages);
    expect(plan.runs[0]!.steps).toEqual([
      expect.objectContaining({ action: 'conditions', status: 'failed' }),
    ]);
    expect(plan.failed.get(e.id)).toMatch(/^flow "Orders" conditions: /);
    expect(plan.credits).toHaveLength(0);
  });

  it('does not add points again to the in-memory balance for a derived key already in the ledger', async () => {
    const f = flow([{ type: 'award_points', points: 5 }]);
    const e = event();
    const s = state([f], { ledgerKeys: new Set([`${e.id}:${f.id}:0`]) });
    const plan = await evaluateBatch([e], s, noMessages);
    expect(plan.credits).toHaveLength(1); // the insert is a no-op by its idempotency key
    expect(s.participants.get(1)).toMatchObject({ balance: 0, lifetime: 0 });
  });
});
