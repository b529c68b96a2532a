import jsonLogic from 'json-logic-js';

/**
 * JSON Logic (json-logic-js) for flow conditions and points expressions, plus the custom
 * `event_count` operation (docs/api.md#flows).
 *
 * `method` is removed: it calls any method of any value (`"".constructor.constructor` is
 * `Function`), which would hand code execution to whoever can write a flow.
 */
jsonLogic.rm_operation('method');

/** The data a condition sees (docs/api.md#flows). */
export interface FlowContext {
  event: { type: string; occurred_at: string };
  payload: Record<string, unknown>;
  participant: {
    external_id: string;
    email: string | null;
    name: string | null;
    balance: number;
    lifetime_points: number;
    /** Their tier level's key; null without a tier programme (docs/tiers.md#benefits). */
    tier: string | null;
  };
}

// json-logic-js calls an operation with the data object as `this`: the counts ride beside it.
const eventCounts = new WeakMap<object, (type: string) => number>();
jsonLogic.add_operation('event_count', function (this: object, type: unknown) {
  const count = eventCounts.get(this);
  return count && typeof type === 'string' ? count(type) : 0;
});

/** Evaluates `logic` over `context`; `eventCount(type)` answers the `event_count` operation. */
export function evaluate(
  logic: unknown,
  context: FlowContext,
  eventCount: (type: string) => number,
): unknown {
  // A fresh shallow copy per evaluation, so the WeakMap key is ours alone.
  const data = { ...context };
  eventCounts.set(data, eventCount);
  return jsonLogic.apply(logic as jsonLogic.RulesLogic, data);
}

export const truthy = (v: unknown): boolean => jsonLogic.truthy(v);

/** Operations a flow may use: json-logic-js's own (minus `method`) and `event_count`. */
const OPERATIONS = new Set([
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  '==',
  '===',
  '!=',
  '!==',
  '!',
  '!!',
  'or',
  'and',
  '>',
  '>=',
  '<',
  '<=',
  'max',
  'min',
  '+',
  '-',
  '*',
  '/',
  '%',
  'map',
  'reduce',
  'filter',
  'all',
  'none',
  'some',
  'merge',
  'in',
  'cat',
  'substr',
  'log',
  'event_count',
]);

/**
 * The first problem in a JSON Logic expression (an unknown operation), or null. Checked when a
 * flow is saved, so a typo is a 422 rather than a failure on every event.
 */
export function logicProblem(logic: unknown, path = ''): string | null {
  if (Array.isArray(logic)) {
    for (let i = 0; i < logic.length; i++) {
      const p = logicProblem(logic[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (logic === null || typeof logic !== 'object') return null;
  const keys = Object.keys(logic);
  if (keys.length !== 1) return `${path || 'expression'}: an operation object has exactly one key`;
  const op = keys[0]!;
  if (!OPERATIONS.has(op)) return `${path || 'expression'}: unknown operation "${op}"`;
  return logicProblem((logic as Record<string, unknown>)[op], `${path}.${op}`);
}
