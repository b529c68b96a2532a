import { describe, expect, it } from 'vitest';
import { evaluate, type FlowContext, logicProblem, NO_OPS, truthy } from '../src/services/flows/logic.ts';

// Pure: no app, no database.

const context: FlowContext = {
  event: { type: 'order.completed', occurred_at: '2026-11-25T10:00:00.000Z' },
  payload: {
    total: 120.5,
    items: [
      { sku: 'a', qty: 2 },
      { sku: 'b', qty: 3 },
    ],
    coupon: null,
  },
  participant: {
    external_id: 'u-1',
    email: 'u1@example.com',
    name: 'Uma',
    balance: 40,
    lifetime_points: 90,
    tier: 'gold',
  },
};
const noCounts = NO_OPS;
const counting = (count: (type: string) => number) => ({ ...NO_OPS, eventCount: count });

describe('evaluate (flow conditions and points expressions)', () => {
  it('reads payload, event and participant fields through var', () => {
    expect(evaluate({ var: 'payload.total' }, context, noCounts)).toBe(120.5);
    expect(evaluate({ var: 'event.type' }, context, noCounts)).toBe('order.completed');
    expect(evaluate({ var: 'participant.balance' }, context, noCounts)).toBe(40);
    expect(evaluate({ var: 'participant.tier' }, context, noCounts)).toBe('gold');
    expect(evaluate({ var: 'payload.items.1.qty' }, context, noCounts)).toBe(3);
  });

  it('computes points expressions with arithmetic and reduce', () => {
    expect(evaluate({ '*': [{ var: 'payload.total' }, 2] }, context, noCounts)).toBe(241);
    const totalQty = {
      reduce: [{ var: 'payload.items' }, { '+': [{ var: 'accumulator' }, { var: 'current.qty' }] }, 0],
    };
    expect(evaluate(totalQty, context, noCounts)).toBe(5);
  });

  it('decides conditions: a big order matches, a small one does not', () => {
    const bigOrder = { '>=': [{ var: 'payload.total' }, 100] };
    expect(truthy(evaluate(bigOrder, context, noCounts))).toBe(true);
    const small = { ...context, payload: { total: 10 } };
    expect(truthy(evaluate(bigOrder, small, noCounts))).toBe(false);
  });

  it('answers event_count from the given counter, per event type', () => {
    const counts: Record<string, number> = { 'order.completed': 3, 'review.posted': 1 };
    const counter = counting((type: string) => counts[type] ?? 0);
    expect(evaluate({ event_count: 'order.completed' }, context, counter)).toBe(3);
    expect(evaluate({ event_count: 'never.seen' }, context, counter)).toBe(0);
    expect(truthy(evaluate({ '==': [{ event_count: 'order.completed' }, 3] }, context, counter))).toBe(true);
  });

  it('keeps each evaluation’s counter its own (no leak between concurrent contexts)', () => {
    expect(
      evaluate(
        { event_count: 'x' },
        context,
        counting(() => 7),
      ),
    ).toBe(7);
    expect(
      evaluate(
        { event_count: 'x' },
        context,
        counting(() => 2),
      ),
    ).toBe(2);
  });

  it('gives event_count 0 for a non-string argument', () => {
    expect(
      evaluate(
        { event_count: [{ var: 'payload.total' }] },
        context,
        counting(() => 9),
      ),
    ).toBe(0);
  });

  it('has no `method` operation, so a flow cannot call methods such as constructor', () => {
    expect(() =>
      evaluate({ method: [{ var: 'participant.name' }, 'toUpperCase'] }, context, noCounts),
    ).toThrow(/method/);
  });

  it('treats JSON Logic truthiness as json-logic-js does (empty array is falsy, "0" truthy)', () => {
    expect(truthy([])).toBe(false);
    expect(truthy('0')).toBe(true);
    expect(truthy(0)).toBe(false);
    expect(truthy(null)).toBe(false);
  });
});

describe('logicProblem (checked when a flow is saved)', () => {
  it('accepts constants and known operations, event_count included', () => {
    expect(logicProblem(10)).toBeNull();
    expect(logicProblem(null)).toBeNull();
    expect(
      logicProblem({ and: [{ '>': [{ var: 'payload.total' }, 5] }, { '<': [{ event_count: 'x' }, 3] }] }),
    ).toBeNull();
  });

  it('names an unknown operation and where it sits', () => {
    expect(logicProblem({ and: [{ '>': [1, 0] }, { gt: [1, 0] }] })).toBe('.and[1]: unknown operation "gt"');
    expect(logicProblem({ nope: 1 })).toBe('expression: unknown operation "nope"');
  });

  it('refuses method (removed for safety) as an unknown operation', () => {
    expect(logicProblem({ method: ['', 'constructor'] })).toBe('expression: unknown operation "method"');
  });

  it('refuses an operation object with more than one key', () => {
    expect(logicProblem({ '+': [1, 2], '-': [3, 1] })).toBe(
      'expression: an operation object has exactly one key',
    );
    expect(logicProblem({ if: [{ '==': [1, 1], '!=': [1, 2] }, 1, 2] })).toBe(
      '.if[0]: an operation object has exactly one key',
    );
  });
});
