/**
 * An achievement's `where` (docs/engagement.md#achievements): a small subset of JSON Logic over the
 * event, compiled to a parameterised SQL boolean over an `events` row, so progress is counted by
 * Postgres from the events table, the source of truth. Pure: no database here.
 *
 * The subset: `{"var": "payload.<path>"}` (dots split the path) and `{"var": "event.type"}` (with
 * an optional constant default, `{"var": ["payload.tier", "none"]}`), constants, `==`, `===`, `!=`,
 * `!==` (both pairs compare JSON values exactly: 5 and "5" differ), `<`, `<=`, `>`, `>=` (numbers
 * only: any other operand makes them false; `<` and `<=` also take three, "between"), `and`, `or`,
 * `!`, and `in` (a value in a list of constants). A missing path reads as null. Anything else is
 * refused when the badge is defined.
 */

/** Bind parameters of a statement being built: `add` answers the placeholder with its cast. */
export class SqlParams {
  readonly values: unknown[];
  constructor(values: unknown[] = []) {
    this.values = values;
  }
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

/** Why a `where` cannot be compiled, and where in it (`and.1.==.0`, a path under `where`). */
export class WhereError extends Error {
  readonly path: (string | number)[];
  constructor(path: (string | number)[], message: string) {
    super(message);
    this.name = 'WhereError';
    this.path = path;
  }
}

/** Bounds on a `where`, so a hostile one cannot make a statement of unbounded size. */
export const WHERE_LIMITS = { depth: 16, nodes: 200, list: 500 } as const;

const COMPARISONS: Record<string, string> = { '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const EQUALITIES: Record<string, string> = { '==': '=', '===': '=', '!=': '<>', '!==': '<>' };
const OPERATIONS = ['var', ...Object.keys(EQUALITIES), ...Object.keys(COMPARISONS), 'and', 'or', '!', 'in'];

/** JSON Logic's falsy values (json-logic-js `truthy`): null, false, 0, "" and []. */
const FALSY = `array['null','false','0','""','[]']::jsonb[]`;

type Path = (string | number)[];

const isConstant = (v: unknown) =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v));

const isOperation = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

class Compiler {
  private nodes = 0;
  private readonly row: string;
  private readonly params: SqlParams;
  constructor(row: string, params: SqlParams) {
    this.row = row;
    this.params = params;
  }

  /** A SQL boolean, never NULL. */
  condition(node: unknown, path: Path, depth: number): string {
    if (isOperation(node)) {
      const [op, raw, args] = this.operation(node, path);
      if (op === 'var') return this.truthy(node, path, depth);
      this.count(path, depth);
      const at = [...path, op];
      if (op in EQUALITIES) {
        this.arity(args, 2, 2, op, at);
        const [a, b] = args.map((x, i) => this.value(x, [...at, i], depth + 1));
        return `(${a} ${EQUALITIES[op]} ${b})`;
      }
      if (op in COMPARISONS) {
        this.arity(args, 2, op === '<' || op === '<=' ? 3 : 2, op, at);
        const v = args.map((x, i) => this.value(x, [...at, i], depth + 1));
        const pairs = v.slice(1).map((b, i) => this.compare(v[i]!, COMPARISONS[op]!, b));
        return pairs.length === 1 ? pairs[0]! : `(${pairs.join(' and ')})`;
      }
      if (op === 'and' || op === 'or') {
        this.arity(args, 1, Number.POSITIVE_INFINITY, op, at);
        return `(${args.map((x, i) => this.condition(x, [...at, i], depth + 1)).join(` ${op} `)})`;
      }
      if (op === '!') {
        this.arity(args, 1, 1, op, at);
        return `(not ${this.condition(args[0], Array.isArray(raw) ? [...at, 0] : at, depth + 1)})`;
      }
      return this.in(args, at, depth);
    }
    return this.truthy(node, path, depth);
  }

  private truthy(node: unknown, path: Path, depth: number): string {
    return `(not (${this.value(node, path, depth)} = any(${FALSY})))`;
  }

  /** A SQL jsonb value, never NULL (a missing path is JSON null). */
  value(node: unknown, path: Path, depth: number): string {
    if (isOperation(node) && this.operation(node, path)[0] !== 'var')
      return `to_jsonb(${this.condition(node, path, depth)})`;
    this.count(path, depth);
    if (isConstant(node)) return this.params.add(JSON.stringify(node), 'jsonb');
    if (Array.isArray(node))
      throw new WhereError(path, 'a list is only allowed as the second argument of "in"');
    if (!isOperation(node)) throw new WhereError(path, 'not a JSON Logic value');
    const [op, raw, args] = this.operation(node, path);
    const at = [...path, op];
    this.arity(args, 1, 2, op, at);
    const [name, fallback] = args;
    const namePath = Array.isArray(raw) ? [...at, 0] : at;
    if (typeof name !== 'string')
      throw new WhereError(namePath, '"var" takes a name such as "payload.amount"');
    if (args.length === 2 && !isConstant(fallback))
      throw new WhereError([...at, 1], 'the default of "var" must be a constant');
    const or = args.length === 2 ? this.params.add(JSON.stringify(fallback), 'jsonb') : `'null'::jsonb`;
    if (name === 'event.type') return `to_jsonb(${this.row}.event_type::text)`;
    const segments = name.split('.');
    if (segments[0] !== 'payload' || segments.length < 2 || segments.some((s) => s === ''))
      throw new WhereError(namePath, `"var" reads "payload.<path>" or "event.type", not "${name}"`);
    return `coalesce(${this.row}.payload #> ${this.params.add(segments.slice(1), 'text[]')}, ${or})`;
  }

  /** Numbers compared as numbers; anything else is false (JSON Logic would coerce). */
  private compare(a: string, op: string, b: string): string {
    return `(case when jsonb_typeof(${a}) = 'number' and jsonb_typeof(${b}) = 'number' then (${a})::numeric ${op} (${b})::numeric else false end)`;
  }

  private in(args: unknown[], at: Path, depth: number): string {
    this.arity(args, 2, 2, 'in', at);
    const list = args[1];
    if (!Array.isArray(list))
      throw new WhereError(
        [...at, 1],
        '"in" takes a list of constants here (substring tests are not supported)',
      );
    if (list.length > WHERE_LIMITS.list)
      throw new WhereError([...at, 1], `"in" takes at most ${WHERE_LIMITS.list} constants`);
    list.forEach((c, i) => {
      if (!isConstant(c)) throw new WhereError([...at, 1, i], 'the list of "in" holds constants only');
    });
    const needle = this.value(args[0], [...at, 0], depth + 1);
    if (!list.length) return 'false';
    return `(${needle} = any(${this.params.add(
      list.map((c) => JSON.stringify(c)),
      'jsonb[]',
    )}))`;
  }

  private operation(node: Record<string, unknown>, path: Path): [string, unknown, unknown[]] {
    const keys = Object.keys(node);
    if (keys.length !== 1) throw new WhereError(path, 'an operation object has exactly one key');
    const op = keys[0]!;
    if (!OPERATIONS.includes(op))
      throw new WhereError(
        path,
        `operation "${op}" is not supported in an achievement's where (supported: ${OPERATIONS.join(', ')})`,
      );
    const raw = node[op];
    return [op, raw, Array.isArray(raw) ? raw : [raw]];
  }

  private arity(args: unknown[], min: number, max: number, op: string, at: Path): void {
    if (args.length < min || args.length > max)
      throw new WhereError(
        at,
        min === max
          ? `"${op}" takes ${min} argument${min === 1 ? '' : 's'}`
          : max === Number.POSITIVE_INFINITY
            ? `"${op}" takes at least ${min} argument`
            : `"${op}" takes ${min} to ${max} arguments`,
      );
  }

  private count(path: Path, depth: number): void {
    if (++this.nodes > WHERE_LIMITS.nodes)
      throw new WhereError(path, `a where has at most ${WHERE_LIMITS.nodes} operations and values`);
    if (depth > WHERE_LIMITS.depth)
      throw new WhereError(path, `a where nests at most ${WHERE_LIMITS.depth} levels`);
  }
}

/**
 * `where` as a SQL boolean over the `events` row aliased `row` (never NULL), its constants added
 * to `params`. Throws a {@link WhereError} naming the offending part when it is outside the subset.
 */
export function compileWhere(where: unknown, row: string, params: SqlParams): string {
  return new Compiler(row, params).condition(where, [], 0);
}

/** The first reason `where` cannot be compiled, or null. */
export function whereProblem(where: unknown): WhereError | null {
  try {
    compileWhere(where, 'e', new SqlParams());
    return null;
  } catch (err) {
    if (err instanceof WhereError) return err;
    throw err;
  }
}
