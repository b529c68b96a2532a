import { describe, expect, it } from 'vitest';
import {
  criteriaInput,
  growsOnly,
  storedCriteria,
  windowStart,
} from '../src/services/achievements/criteria.ts';
import { percentOf } from '../src/services/achievements/progress.ts';
import {
  compileWhere,
  SqlParams,
  WHERE_LIMITS,
  whereProblem,
} from '../src/services/achievements/where-sql.ts';

// An achievement's `where` compiled to SQL (docs/engagement.md#achievements), its criteria and
// percentages, pure: no database (test/achievements.test.ts runs the compiled SQL in Postgres).

const compiled = (where: unknown) => {
  const params = new SqlParams();
  return { sql: compileWhere(where, 'e', params), values: params.values };
};

describe('compileWhere', () => {
  it('reads payload paths and the event type as jsonb, a missing path as JSON null', () => {
    const { sql, values } = compiled({ '==': [{ var: 'payload.order.total' }, 100] });
    expect(sql).toBe(`(coalesce(e.payload #> $1::text[], 'null'::jsonb) = $2::jsonb)`);
    expect(values).toEqual([['order', 'total'], '100']);
    expect(compiled({ '===': [{ var: 'event.type' }, 'order.completed'] }).sql).toBe(
      '(to_jsonb(e.event_type::text) = $1::jsonb)',
    );
  });

  it('keeps every constant a bind parameter, so nothing of the caller lands in the SQL text', () => {
    const hostile = `x'); drop table events; --`;
    const { sql, values } = compiled({
      and: [{ '==': [{ var: `payload.${hostile}` }, hostile] }, { in: [{ var: 'payload.a' }, [hostile, 1]] }],
    });
    expect(sql).not.toContain('drop table');
    expect(values).toContainEqual([hostile]);
    expect(values).toContainEqual(JSON.stringify(hostile));
    expect(values).toContainEqual([JSON.stringify(hostile), '1']);
  });

  it('compares numbers only when both sides are numbers, and chains a three-argument < as between', () => {
    const { sql } = compiled({ '<': [1, { var: 'payload.n' }, 10] });
    expect(sql.match(/jsonb_typeof/g)).toHaveLength(4);
    expect(sql).toContain(' and ');
    expect(compiled({ '>=': [{ var: 'payload.n' }, 5] }).sql).toContain('::numeric >= (');
  });

  it('turns a bare value into JSON Logic truthiness and negates with !', () => {
    expect(compiled({ var: 'payload.vip' }).sql).toContain(
      `= any(array['null','false','0','""','[]']::jsonb[])`,
    );
    expect(compiled({ '!': { var: 'payload.vip' } }).sql).toMatch(/^\(not \(not/);
    expect(compiled({ '!': [{ '==': [1, 1] }] }).sql).toBe('(not ($1::jsonb = $2::jsonb))');
  });

  it('answers false for an empty in-list, and uses a var default', () => {
    expect(compiled({ in: [{ var: 'payload.a' }, []] }).sql).toBe('false');
    const { sql, values } = compiled({ '==': [{ var: ['payload.a', 'none'] }, 'none'] });
    expect(sql).toContain('coalesce(e.payload #> $2::text[], $1::jsonb)');
    expect(values).toEqual(['"none"', ['a'], '"none"']);
  });
});

describe('whereProblem', () => {
  const refused: [unknown, (string | number)[], RegExp][] = [
    [{ '+': [1, 2] }, [], /operation "\+" is not supported/],
    [{ and: [{ '==': [1, 1] }, { method: ['x', 'y'] }] }, ['and', 1], /"method" is not supported/],
    [{ '==': [1] }, ['=='], /takes 2 arguments/],
    [{ '>': [1, 2, 3] }, ['>'], /takes 2 arguments/],
    [{ '==': [{ var: 'participant.email' }, 1] }, ['==', 0, 'var'], /payload.<path>/],
    [{ '==': [{ var: 'payload' }, 1] }, ['==', 0, 'var'], /payload.<path>/],
    [{ '==': [{ var: 'payload..a' }, 1] }, ['==', 0, 'var'], /payload.<path>/],
    [{ '==': [{ var: 3 }, 1] }, ['==', 0, 'var'], /takes a name/],
    [{ '==': [{ var: ['payload.a', { var: 'payload.b' }] }, 1] }, ['==', 0, 'var', 1], /constant/],
    [{ in: [{ var: 'payload.a' }, 'abc'] }, ['in', 1], /list of constants/],
    [{ in: [{ var: 'payload.a' }, [1, { var: 'payload.b' }]] }, ['in', 1, 1], /constants only/],
    [{ '==': [[1, 2], 1] }, ['==', 0], /only allowed as the second argument of "in"/],
    [{ '==': [1, 1], '!=': [1, 2] }, [], /exactly one key/],
    [{ and: [] }, ['and'], /at least 1/],
  ];
  it.each(refused)('refuses %j at its path', (where, path, message) => {
    const problem = whereProblem(where);
    expect(problem?.path).toEqual(path);
    expect(problem?.message).toMatch(message);
  });

  it('bounds the size and depth of a where', () => {
    let deep: unknown = { '==': [1, 1] };
    for (let i = 0; i <= WHERE_LIMITS.depth; i++) deep = { '!': deep };
    expect(whereProblem(deep)?.message).toMatch(/nests at most/);
    const wide = { or: Array.from({ length: WHERE_LIMITS.nodes }, () => ({ '==': [1, 1] })) };
    expect(whereProblem(wide)?.message).toMatch(/at most 200/);
    expect(
      whereProblem({ in: [1, Array.from({ length: WHERE_LIMITS.list + 1 }, () => 1)] })?.message,
    ).toMatch(/at most 500/);
  });

  it('accepts the whole subset', () => {
    expect(
      whereProblem({
        and: [
          { '==': [{ var: 'event.type' }, 'order.completed'] },
          { '!==': [{ var: 'payload.status' }, 'cancelled'] },
          { or: [{ '>=': [{ var: 'payload.total' }, 50] }, { '<=': [0, { var: 'payload.n' }, 3] }] },
          { '!': [{ in: [{ var: ['payload.country', 'XX'] }, ['FR', 'DE', null, true, 1.5]] }] },
          { var: 'payload.vip' },
        ],
      }),
    ).toBeNull();
  });
});

describe('criteria', () => {
  const parse = (c: Record<string, unknown>) => criteriaInput.safeParse(c);
  const fields = (c: Record<string, unknown>) => (parse(c).error?.issues ?? []).map((i) => i.path.join('.'));
  const base = { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 3 };

  it('needs a field exactly with sum, an integer count target, a positive window', () => {
    expect(parse(base).success).toBe(true);
    expect(fields({ ...base, aggregate: 'sum' })).toEqual(['field']);
    expect(fields({ ...base, field: 'amount' })).toEqual(['field']);
    expect(fields({ ...base, target: 2.5 })).toEqual(['target']);
    expect(parse({ ...base, aggregate: 'sum', field: 'amount', target: 2.5 }).success).toBe(true);
    expect(fields({ ...base, target: 0 })).toEqual(['target']);
    expect(fields({ ...base, window: 'P0D' })).toEqual(['window']);
    expect(fields({ ...base, window: '30 days' })).toEqual(['window']);
    expect(fields({ ...base, window: 'P999999Y' })).toEqual(['window']);
    expect(fields({ ...base, event_type: '' })).toEqual(['event_type']);
    expect(fields({ ...base, aggregate: 'max' })).toEqual(['aggregate']);
    expect(fields({ ...base, aggregate: 'sum', field: 'a..b' })).toEqual(['field']);
    expect(fields({ ...base, where: { '+': [1, 1] } })).toEqual(['where']);
    expect(fields({ ...base, colour: 'red' })).toEqual(['']);
  });

  it('stores every key, and knows which progress only grows', () => {
    const c = storedCriteria(criteriaInput.parse(base));
    expect(c).toEqual({ ...base, field: null, where: null, tier: null });
    expect(growsOnly(c)).toBe(true);
    expect(growsOnly({ ...c, window: 'P1D' })).toBe(false);
    expect(growsOnly({ ...c, aggregate: 'sum', field: 'a' })).toBe(false);
  });

  it('starts a window its duration before its end, in UTC; all_time has no start', () => {
    const end = new Date('2026-03-31T10:00:00.000Z');
    expect(windowStart({ window: 'all_time' }, end)).toBeNull();
    expect(windowStart({ window: 'P30D' }, end)?.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(windowStart({ window: 'P1M' }, end)?.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(windowStart({ window: 'PT90S' }, end)?.toISOString()).toBe('2026-03-31T09:58:30.000Z');
  });

  it('rounds percentages down, caps them at 100, and shows 100 once completed', () => {
    expect(percentOf(2, 3, false)).toBe(66);
    expect(percentOf(7, 3, false)).toBe(100);
    expect(percentOf(0, 3, true)).toBe(100);
    expect(percentOf(-5, 3, false)).toBe(0);
  });
});
