import jsonLogic from 'json-logic-js';
import { parseDuration } from '../points/rules.ts';

/**
 * JSON Logic (json-logic-js) for flow conditions and points expressions, plus the custom
 * `event_count`, `event_sum` and `streak` operations (docs/api.md#flows, docs/engagement.md).
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

/**
 * What a condition asks of the participant beyond its context (docs/engagement.md#time-windows):
 * `event_count` (all time, or in a window ending at this event), `event_sum` and `streak`.
 */
export interface LogicOps {
  /** Processed events of `type`, all time or in the `window` (ISO 8601) ending at this event, this one included. */
  eventCount(type: string, window?: string): number;
  /** The numeric payload field `path` summed over those events (non-numbers count 0). */
  eventSum(type: string, path: string, window?: string): number;
  /** The streak's length after this event (0 when it has none). */
  streak(key: string): number;
}

/** Operations answering 0 (points previews and anything outside the engine). */
export const NO_OPS: LogicOps = { eventCount: () => 0, eventSum: () => 0, streak: () => 0 };

// json-logic-js calls an operation with the data object as `this`: the operations ride beside it.
const opsOf = new WeakMap<object, LogicOps>();
const str = (v: unknown): v is string => typeof v === 'string';
jsonLogic.add_operation('event_count', function (this: object, type: unknown, window?: unknown) {
  const ops = opsOf.get(this);
  if (!ops || !str(type)) return 0;
  return str(window) ? ops.eventCount(type, window) : ops.eventCount(type);
});
jsonLogic.add_operation('event_sum', function (this: object, type: unknown, path: unknown, window?: unknown) {
  const ops = opsOf.get(this);
  if (!ops || !str(type) || !str(path)) return 0;
  return str(window) ? ops.eventSum(type, path, window) : ops.eventSum(type, path);
});
jsonLogic.add_operation('streak', function (this: object, key: unknown) {
  const ops = opsOf.get(this);
  return ops && str(key) ? ops.streak(key) : 0;
});

/** Evaluates `logic` over `context`; `ops` answers the custom operations. */
export function evaluate(logic: unknown, context: FlowContext, ops: LogicOps): unknown {
  // A fresh shallow copy per evaluation, so the WeakMap key is ours alone.
  const data = { ...context };
  opsOf.set(data, ops);
  return jsonLogic.apply(logic as jsonLogic.RulesLogic, data);
}

/** A windowed operation a condition uses: what the engine loads before evaluating it. */
export interface WindowUse {
  type: string;
  /** The payload path summed; null: a count. */
  path: string | null;
  /** ISO 8601; null: all time. */
  window: string | null;
}

/**
 * The `event_count` (with a window) and `event_sum` operations in `logic` whose arguments are
 * constants, the ones the engine loads for a batch (others answer from what is loaded: 0).
 */
export function windowUses(logic: unknown, out: WindowUse[] = []): WindowUse[] {
  if (Array.isArray(logic)) {
    for (const l of logic) windowUses(l, out);
    return out;
  }
  if (logic === null || typeof logic !== 'object') return out;
  for (const [op, raw] of Object.entries(logic)) {
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'event_count' && args.length === 2 && str(args[0]) && str(args[1]))
      out.push({ type: args[0], path: null, window: args[1] });
    else if (op === 'event_sum' && str(args[0]) && str(args[1]) && (args.length === 2 || str(args[2])))
      out.push({ type: args[0], path: args[1], window: (args[2] as string | undefined) ?? null });
    windowUses(raw, out);
  }
  return out;
}

export const truthy = (v: unknown): boolean => jsonLogic.truthy(v);

/** Operations a flow may use: json-logic-js's own (minus `method`), `event_count`, `event_sum` and `streak`. */
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
  'event_sum',
  'streak',
]);

/** A window argument: a positive ISO 8601 duration. */
const windowProblem = (w: unknown, where: string): string | null =>
  typeof w === 'string' && parseDuration(w)
    ? null
    : `${where}: the window must be a positive ISO 8601 duration such as "P30D"`;

/** The arity and constant arguments of the custom operations. */
function customProblem(op: string, raw: unknown, where: string): string | null {
  const args = Array.isArray(raw) ? raw : [raw];
  if (op === 'event_count') {
    if (args.length < 1 || args.length > 2) return `${where}: event_count takes [type] or [type, window]`;
    if (args.length === 2 && typeof args[1] === 'string') return windowProblem(args[1], where);
  }
  if (op === 'event_sum') {
    if (args.length < 2 || args.length > 3)
      return `${where}: event_sum takes [type, path] or [type, path, window]`;
    if (args.length === 3 && typeof args[2] === 'string') return windowProblem(args[2], where);
  }
  if (op === 'streak' && args.length !== 1) return `${where}: streak takes one streak key`;
  return null;
}

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
  const custom = customProblem(op, (logic as Record<string, unknown>)[op], `${path || 'expression'}.${op}`);
  if (custom) return custom;
  return logicProblem((logic as Record<string, unknown>)[op], `${path}.${op}`);
}
