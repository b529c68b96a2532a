import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitOfWork } from '../src/db/unit-of-work.ts';
import {
  compactDeltas,
  countAbove,
  dropPastHistograms,
  rebuildHistogram,
} from '../src/services/leaderboards/histogram.ts';
import { periodWindow } from '../src/services/leaderboards/periods.ts';
import { recordEarnings } from '../src/services/leaderboards/record-earnings.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const credit = (w: TestWorkspace, id: string, points: number) =>
  w.api(`/v1/participants/${id}/points`, { body: { points, reason: 'test' } });

/** Ranks computed the slow, obviously right way: 1 + participants with a strictly higher score. */
async function bruteRanks(w: TestWorkspace): Promise<Map<string, { rank: number; score: number }>> {
  const { rows } = await app.ctx.pool.query<{ external_id: string; score: string; rank: string }>(
    `select p.external_id, p.lifetime_points as score,
            1 + (select count(*) from participants q
                  where q.workspace_id = p.workspace_id and q.mode = p.mode and q.lifetime_points > p.lifetime_points) as rank
       from participants p where p.workspace_id = $1 and p.mode = 'test'`,
    [w.id],
  );
  return new Map(rows.map((r) => [r.external_id, { rank: Number(r.rank), score: Number(r.score) }]));
}

describe('leaderboard catalogue', () => {
  it('always has the all-time `points` board and lists configured ones', async () => {
    const w = await app.workspace();
    const list = await w.api('/v1/leaderboards');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ key: 'points', name: 'Points', period: 'all_time', created_at: null }]);
    const created = await w.api('/v1/leaderboards', {
      body: { key: 'weekly', name: 'This week', period: 'weekly' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key: 'weekly',
      name: 'This week',
      period: 'weekly',
      created_at: expect.any(String),
    });
    expect((await w.api('/v1/leaderboards')).body.data.map((b: { key: string }) => b.key)).toEqual([
      'points',
      'weekly',
    ]);
  });

  it('refuses a duplicate key, the reserved `points` key and an unknown period (422)', async () => {
    const w = await app.workspace();
    await w.api('/v1/leaderboards', { body: { key: 'm', name: 'M', period: 'monthly' } });
    for (const body of [
      { key: 'm', name: 'again', period: 'monthly' },
      { key: 'points', name: 'mine', period: 'weekly' },
      { key: 'x', name: 'x', period: 'daily' },
    ]) {
      const res = await w.api('/v1/leaderboards', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
  });

  it('lets any key read boards but needs flows:write to define one', async () => {
    const w = await app.workspace({ abilities: ['events:write'] });
    expect((await w.api('/v1/leaderboards')).status).toBe(200);
    expect((await w.api('/v1/leaderboards/points')).status).toBe(200);
    const res = await w.api('/v1/leaderboards', { body: { key: 'k', name: 'k', period: 'weekly' } });
    expect(res.status).toBe(403);
    expect((await w.api('/v1/leaderboards', { key: null })).status).toBe(401);
  });

  it('404s an unknown board', async () => {
    const w = await app.workspace();
    expect((await w.api('/v1/leaderboards/nope')).status).toBe(404);
    expect((await w.api('/v1/leaderboards/nope/participants/a')).status).toBe(404);
  });
});

describe('ranks', () => {
  it('uses competition ranking (1, 1, 3) and shows no PII', async () => {
    const w = await app.workspace();
    await w.api('/v1/participants/a/points', { body: { points: 50, reason: 'r' } });
    await w.api('/v1/participants/a', { method: 'PATCH', body: { email: 'a@secret.io', name: 'Secret A' } });
    await credit(w, 'b', 50);
    await credit(w, 'c', 30);
    await credit(w, 'd', 10);
    const res = await w.api('/v1/leaderboards/points?limit=10');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { rank: 1, external_id: 'a', score: 50 },
        { rank: 1, external_id: 'b', score: 50 },
        { rank: 3, external_id: 'c', score: 30 },
        { rank: 4, external_id: 'd', score: 10 },
      ],
      meta: { key: 'points', period: 'all_time', period_start: null, period_end: null },
    });
    expect(res.text).not.toContain('secret');
    expect((await w.api('/v1/leaderboards/points?limit=2')).body.data).toHaveLength(2);
    expect((await w.api('/v1/leaderboards/points/participants/b')).body).toEqual({ rank: 1, score: 50 });
    expect((await w.api('/v1/leaderboards/points/participants/c')).body).toEqual({ rank: 3, score: 30 });
    expect((await w.api('/v1/leaderboards/points/participants/ghost')).status).toBe(404);
  });

  it('places a participant without points after everyone who has some', async () => {
    const w = await app.workspace();
    await credit(w, 'p1', 5);
    await credit(w, 'p2', 7);
    await w.api('/v1/participants/p0/points', { body: { points: 3, reason: 'r' } });
    const entries = await w.api('/v1/participants/p0/ledger');
    await w.api(`/v1/participants/p0/ledger/${entries.body.data[0].id}/reversal`, { body: {} });
    expect((await w.api('/v1/leaderboards/points/participants/p0')).body).toEqual({ rank: 3, score: 0 });
    expect(
      (await w.api('/v1/leaderboards/points')).body.data.map((s: { external_id: string }) => s.external_id),
    ).toEqual(['p2', 'p1']);
  });

  it('matches brute-force ranks for scores across every histogram level, before and after compaction', async () => {
    const w = await app.workspace();
    const scores = [
      1, 2, 255, 256, 257, 300, 65_535, 65_536, 70_000, 70_000, 16_777_216, 5_000_000_000, 5_000_000_001,
    ];
    let n = 0;
    for (const s of scores) await credit(w, `h${n++}`, s);
    // Random movements on top, in parallel, including reversals of earned points.
    const rnd = (i: number) => (i * 7919) % 997;
    await Promise.all(Array.from({ length: 40 }, (_, i) => credit(w, `r${i % 20}`, 1 + rnd(i))));
    for (const id of ['h3', 'h8', 'r4']) {
      const ledger = await w.api(`/v1/participants/${id}/ledger`);
      await w.api(`/v1/participants/${id}/ledger/${ledger.body.data.at(-1).id}/reversal`, { body: {} });
    }
    const check = async () => {
      const expected = await bruteRanks(w);
      for (const [id, want] of expected) {
        const got = await w.api(`/v1/leaderboards/points/participants/${id}`);
        expect(got.body, id).toEqual(want);
      }
      const top = await w.api('/v1/leaderboards/points?limit=1000');
      for (const s of top.body.data) expect(s.rank).toBe(expected.get(s.external_id)!.rank);
    };
    await check();
    while ((await unitOfWork(app.ctx, ({ sql: c }) => compactDeltas(c, undefined, { wait: true }))) > 0);
    const { rows } = await app.ctx.pool.query(
      `select count(*)::int as n from leaderboard_count_deltas where workspace_id = $1`,
      [w.id],
    );
    expect(rows[0].n).toBe(0);
    await check();
    // A rebuild from the scores (bulk loads, repairs) yields exactly the maintained histogram.
    const snapshot = async () =>
      (
        await app.ctx.pool.query(
          `select level, bucket::text, count::int from leaderboard_counts
            where workspace_id = $1 and period = 'all_time' and count <> 0 order by level, bucket`,
          [w.id],
        )
      ).rows;
    const maintained = await snapshot();
    await unitOfWork(app.ctx, ({ sql: c }) =>
      rebuildHistogram(
        c,
        { workspaceId: w.id, mode: 'test', period: 'all_time', periodStart: '1970-01-01' },
        `select lifetime_points as score from participants where workspace_id = $1 and mode = 'test'`,
        [w.id],
      ),
    );
    expect(await snapshot()).toEqual(maintained);
    await check();
  });
});

describe('ranks under concurrency', () => {
  it('stay exact while adjustments, reversals and compactions race; scores mirror lifetime points', async () => {
    const w = await app.workspace();
    let compacting = true;
    const compactor = (async () => {
      while (compacting) {
        await unitOfWork(app.ctx, ({ sql: c }) => compactDeltas(c, 50));
        // Pacing of the racing compactor, not a wait for a condition: it keeps compacting
        // throughout without monopolising the pool the racing requests need.
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const ops = Array.from({ length: 150 }, (_, i) => async () => {
      const id = `c${i % 25}`;
      const res = await credit(w, id, 1 + ((i * 37) % 300));
      if (i % 7 === 0 && res.status === 201)
        await w.api(`/v1/participants/${id}/ledger/${res.body.id}/reversal`, { body: {} });
    });
    await Promise.all(ops.map((op) => op()));
    compacting = false;
    await compactor;
    const expected = await bruteRanks(w);
    for (const [id, want] of expected) {
      expect((await w.api(`/v1/leaderboards/points/participants/${id}`)).body, id).toEqual(want);
    }
    // The all-time and weekly scores agree with lifetime points (all earned this week).
    for (const period of ['all_time', 'weekly']) {
      const { rows } = await app.ctx.pool.query<{ bad: string }>(
        `select count(*) as bad from participants p
           left join leaderboard_scores s on s.participant_id = p.id and s.period = $2
          where p.workspace_id = $1 and coalesce(s.score, 0) <> p.lifetime_points`,
        [w.id, period],
      );
      expect(Number(rows[0]!.bad), period).toBe(0);
    }
  });
});

describe('weekly and monthly boards', () => {
  it('score the points earned in the current period and follow reversals', async () => {
    const w = await app.workspace();
    await w.api('/v1/leaderboards', { body: { key: 'week', name: 'Week', period: 'weekly' } });
    await w.api('/v1/leaderboards', { body: { key: 'month', name: 'Month', period: 'monthly' } });
    // Points earned 40 days ago count all time, but neither this week nor this month.
    await unitOfWork(app.ctx, async ({ sql: c }) => {
      const { rows } = await c.query<{ id: string }>(
        `insert into participants (workspace_id, mode, external_id, balance, lifetime_points)
         values ($1, 'test', 'old-timer', 500, 500) returning id`,
        [w.id],
      );
      await recordEarnings(c, [
        {
          workspaceId: w.id,
          mode: 'test',
          participantId: Number(rows[0]!.id),
          points: 500,
          at: new Date(Date.now() - 40 * 86_400_000),
        },
      ]);
    });
    await credit(w, 'x', 40);
    await credit(w, 'y', 60);
    const spend = await w.api('/v1/participants/y/points', { body: { points: -50, reason: 'spent' } });
    expect(spend.status).toBe(201);
    const earned = await credit(w, 'z', 60);
    await w.api(`/v1/participants/z/ledger/${earned.body.id}/reversal`, { body: {} });
    await credit(w, 'z', 15);

    const week = await w.api('/v1/leaderboards/week');
    const win = periodWindow('weekly', new Date());
    expect(week.body).toEqual({
      data: [
        { rank: 1, external_id: 'y', score: 60 },
        { rank: 2, external_id: 'x', score: 40 },
        { rank: 3, external_id: 'z', score: 15 },
      ],
      meta: { key: 'week', period: 'weekly', period_start: win.periodStart, period_end: win.periodEnd },
    });
    expect((await w.api('/v1/leaderboards/month')).body.data.map((s: { score: number }) => s.score)).toEqual([
      60, 40, 15,
    ]);
    expect((await w.api('/v1/leaderboards/week/participants/z')).body).toEqual({ rank: 3, score: 15 });
    expect((await w.api('/v1/leaderboards/week/participants/old-timer')).body).toEqual({ rank: 4, score: 0 });
    expect((await w.api('/v1/leaderboards/points')).body.data[0]).toEqual({
      rank: 1,
      external_id: 'old-timer',
      score: 500,
    });
  });

  it('recordEarnings takes a batch: repeated participants add up, each earning lands in its own week, past weeks are dropped', async () => {
    const w = await app.workspace();
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    const ids = await unitOfWork(app.ctx, async ({ sql: c }) => {
      const { rows } = await c.query<{ id: string }>(
        `insert into participants (workspace_id, mode, external_id, balance, lifetime_points)
         values ($1, 'test', 'b1', 8, 8), ($1, 'test', 'b2', 4, 4) returning id`,
        [w.id],
      );
      const [p1, p2] = rows.map((r) => Number(r.id));
      const base = { workspaceId: w.id, mode: 'test' as const };
      await recordEarnings(c, [
        { ...base, participantId: p1!, points: 5, at: new Date() },
        { ...base, participantId: p2!, points: 4, at: lastWeek },
        { ...base, participantId: p1!, points: 3, at: new Date() },
      ]);
      return [p1!, p2!];
    });
    const { rows } = await app.ctx.pool.query(
      `select participant_id::int as p, period, to_char(period_start, 'YYYY-MM-DD') as start, score::int
         from leaderboard_scores where participant_id = any($1) order by participant_id, period`,
      [ids],
    );
    const thisWeek = periodWindow('weekly', new Date()).start;
    expect(rows).toContainEqual({ p: ids[0], period: 'weekly', start: thisWeek, score: 8 });
    expect(rows).toContainEqual({
      p: ids[1],
      period: 'weekly',
      start: periodWindow('weekly', lastWeek).start,
      score: 4,
    });
    expect(rows.filter((r) => r.p === ids[1] && r.start === thisWeek)).toEqual([]);
    const board = (period: 'all_time' | 'weekly', start: string) => ({
      workspaceId: w.id,
      mode: 'test' as const,
      period,
      periodStart: start,
    });
    expect(await countAbove(app.ctx.pool, board('all_time', '1970-01-01'), 4)).toBe(1);
    expect(await countAbove(app.ctx.pool, board('all_time', '1970-01-01'), 0)).toBe(2);
    expect(await countAbove(app.ctx.pool, board('weekly', thisWeek), 0)).toBe(1);
    const pastWeek = board('weekly', periodWindow('weekly', lastWeek).start);
    expect(await countAbove(app.ctx.pool, pastWeek, 3)).toBe(1);
    // Finished weeks' histograms are dropped (once compacted); the current week's stay.
    while ((await unitOfWork(app.ctx, ({ sql: c }) => compactDeltas(c, undefined, { wait: true }))) > 0);
    await dropPastHistograms(app.ctx.pool);
    expect(await countAbove(app.ctx.pool, pastWeek, 3)).toBe(0);
    expect(await countAbove(app.ctx.pool, board('weekly', thisWeek), 0)).toBe(1);
  });

  it('cuts weeks on Monday 00:00 UTC and months on the 1st', () => {
    expect(periodWindow('weekly', new Date('2026-11-22T23:59:59Z'))).toEqual({
      start: '2026-11-16',
      periodStart: '2026-11-16T00:00:00.000Z',
      periodEnd: '2026-11-23T00:00:00.000Z',
    });
    expect(periodWindow('weekly', new Date('2026-11-23T00:00:00Z')).start).toBe('2026-11-23');
    expect(periodWindow('monthly', new Date('2026-12-31T12:00:00Z'))).toEqual({
      start: '2026-12-01',
      periodStart: '2026-12-01T00:00:00.000Z',
      periodEnd: '2027-01-01T00:00:00.000Z',
    });
  });
});
