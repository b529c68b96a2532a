import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode } from '../src/services/keys/principal.ts';
import { CODE_PATTERN } from '../src/services/referrals/shapes.ts';
import { buildParticipant, graphqlClient } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Nested lists are loaded in batches (src/schema/loaders.ts, services/participants/batch-reads.ts):
// a page of 100 participants with their badges, summary and ledger costs a constant number of SQL
// statements. They are counted where every statement leaves the process: pg.Client#query, which
// the raw pool and MikroORM's driver both send through. The app runs as an API-role process
// (no workers), so nothing else talks to Postgres while a request is counted.

const N = 100;
/**
 * Statements one request may send, whatever the page size (measured: 10 with streaks, achievements
 * and referral codes: the streaks with their states, the badges with criteria and their progress,
 * the codes; three spare). The first read of a page, which makes the missing referral codes, sends
 * two more (the insert and its read back): 12.
 */
const STATEMENT_BUDGET = 13;

let app: TestApp;
let ws: TestWorkspace;
let other: TestWorkspace;

const ids = Array.from({ length: N }, (_, i) => `p${String(i).padStart(3, '0')}`);

/** Points per participant, different in every workspace and mode, so a leak shows in the numbers. */
const pointsOf = (i: number, scope: 'own' | 'live' | 'other') =>
  scope === 'own' ? 10 + i : scope === 'live' ? 5_000 + i : 9_000 + i;

async function seed(w: TestWorkspace, mode: Mode, scope: 'own' | 'live' | 'other') {
  for (const badge of [
    { key: 'starter', name: 'Starter' },
    { key: 'gold', name: `Gold (${scope})`, tiers: ['bronze', 'silver'] },
  ]) {
    const res = await w.api('/v1/badges', { body: badge, mode });
    expect(res.status, res.text).toBe(201);
  }
  // A streak and an achievement, so the nested engagement reads are batched too.
  const streak = await w.api('/v1/streaks', {
    body: { key: `daily-${scope}`, name: 'Daily', event_types: ['visit'], frequency: 'daily' },
    mode,
  });
  expect(streak.status, streak.text).toBe(201);
  const achievement = await w.api('/v1/badges', {
    body: {
      key: `visits-${scope}`,
      name: 'Visits',
      criteria: { event_type: 'visit', aggregate: 'count', window: 'P30D', target: 3 },
    },
    mode,
  });
  expect(achievement.status, achievement.text).toBe(201);
  for (let at = 0; at < N; at += 20)
    await Promise.all(
      ids
        .slice(at, at + 20)
        .map((externalId, j) =>
          buildParticipant(app, w, { externalId, mode, points: pointsOf(at + j, scope) }),
        ),
    );
  // Awards as the flow engine writes them (engine/write.ts): own participants hold `starter`,
  // and the even ones `gold`/bronze; every participant elsewhere holds `gold`/silver only.
  await app.ctx.pool.query(
    `insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier, awarded_at)
     select p.workspace_id, p.mode, p.id, b.id, a.tier, a.at
       from participants p
       join lateral (values ('starter', '', now() - interval '2 hours'),
                            ('gold', case when $3 then 'bronze' else 'silver' end, now() - interval '1 hour')) a(key, tier, at)
         on true
       join badges b on b.workspace_id = p.workspace_id and b.mode = p.mode and b.key = a.key
      where p.workspace_id = $1 and p.mode = $2
        and (case when $3 then (a.key = 'starter' or right(p.external_id, 1) in ('0','2','4','6','8'))
                  else a.key = 'gold' end)`,
    [w.id, mode, scope === 'own'],
  );
}

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  other = await app.workspace();
  await seed(ws, 'test', 'own');
  await seed(ws, 'live', 'live');
  await seed(other, 'test', 'other');
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/** Runs `fn`, counting the SQL statements this process sends meanwhile. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    statements.push(typeof q === 'string' ? q : (q?.text ?? String(q)));
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), statements };
  } finally {
    proto.query = original;
  }
}

const LIST = `query($first: Int!) {
  participants(first: $first) {
    nodes {
      externalId balance referralCode
      badges { key tier name }
      streaks { key length atRisk }
      achievements { badge { key } progress percent }
      summary { badgesCount redemptionsCount rank activeMultiplier { factor } }
      ledger(first: 2) { nodes { points balanceAfter source } pageInfo { hasNextPage } }
    }
  }
}`;

describe('batched nested lists', () => {
  it(`lists ${N} participants with badges, summary and ledger in a constant number of statements`, async () => {
    const gql = graphqlClient(app, ws);
    await gql.data(LIST, { first: 1 }); // key, pool and caches warm
    // The first read of a page makes the referral codes missing, in one batch too.
    const { result: made, statements: making } = await counting(() =>
      gql.data<{ participants: { nodes: { referralCode: string }[] } }>(LIST, { first: N }),
    );
    expect(making.length, making.join('\n---\n')).toBeLessThanOrEqual(STATEMENT_BUDGET);
    // The fewer of two runs: a cache (the key's, the achievements catalogue's) that expires between
    // two runs on a slow machine costs a statement that says nothing about the page size.
    const fewest = async <T>(fn: () => Promise<T>) => {
      const a = await counting(fn);
      const b = await counting(fn);
      return a.statements.length <= b.statements.length ? a : b;
    };
    const { result: small, statements: few } = await fewest(() => gql.data(LIST, { first: 5 }));
    const { result: data, statements } = await fewest(() =>
      gql.data<{ participants: { nodes: any[] } }>(LIST, { first: N }),
    );
    expect(small.participants.nodes).toHaveLength(5);
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(STATEMENT_BUDGET);
    // Not proportional to the page: 100 participants cost what 5 do.
    expect(statements.length, `${few.join('\n---\n')}\n=====\n${statements.join('\n---\n')}`).toBe(
      few.length,
    );

    const nodes = data.participants.nodes;
    // Each its own code, the one made by the first read.
    expect(new Set(nodes.map((n) => n.referralCode)).size).toBe(N);
    expect(nodes.map((n) => n.referralCode).sort()).toEqual(
      made.participants.nodes.map((n) => n.referralCode).sort(),
    );
    expect(nodes.map((n) => n.externalId).sort()).toEqual(ids);
    const byBalance = [...nodes].sort((a, b) => a.balance - b.balance);
    for (const node of nodes) {
      const i = Number(node.externalId.slice(1));
      const points = pointsOf(i, 'own');
      const gold = i % 2 === 0;
      expect(node.balance).toBe(points);
      expect(node.badges).toEqual([
        ...(gold ? [{ key: 'gold', tier: 'bronze', name: 'Gold (own)' }] : []),
        { key: 'starter', tier: null, name: 'Starter' },
      ]);
      expect(node.summary).toEqual({
        badgesCount: gold ? 2 : 1,
        redemptionsCount: 0,
        // Competition rank on all-time points among this workspace's test participants only.
        rank: N - byBalance.findIndex((n) => n.externalId === node.externalId),
        activeMultiplier: null,
      });
      expect(node.referralCode).toMatch(CODE_PATTERN);
      expect(node.streaks).toEqual([{ key: 'daily-own', length: 0, atRisk: false }]);
      expect(node.achievements).toEqual([{ badge: { key: 'visits-own' }, progress: 0, percent: 0 }]);
      expect(node.ledger).toEqual({
        nodes: [{ points, balanceAfter: points, source: 'adjustment' }],
        pageInfo: { hasNextPage: false },
      });
    }
    // Nothing of the live mode or the other workspace leaks in.
    const text = JSON.stringify(nodes);
    expect(text).not.toContain('silver');
    expect(text).not.toMatch(/Gold \((live|other)\)/);
  });

  it('keeps each workspace and mode to its own rows in the batched reads', async () => {
    for (const [w, mode, scope] of [
      [ws, 'live', 'live'],
      [other, 'test', 'other'],
    ] as const) {
      const { participants } = await graphqlClient(app, w, { mode }).data<{ participants: { nodes: any[] } }>(
        LIST,
        { first: N },
      );
      expect(participants.nodes).toHaveLength(N);
      for (const node of participants.nodes) {
        const points = pointsOf(Number(node.externalId.slice(1)), scope);
        expect(node.balance).toBe(points);
        expect(node.summary).toMatchObject({ badgesCount: 1, rank: N - Number(node.externalId.slice(1)) });
        expect(node.badges).toEqual([{ key: 'gold', tier: 'silver', name: `Gold (${scope})` }]);
        expect(node.ledger.nodes).toEqual([{ points, balanceAfter: points, source: 'adjustment' }]);
      }
    }
  });

  it('pages every participant’s nested ledger with the same arguments, in one batch', async () => {
    const extra = await buildParticipant(app, ws, { externalId: 'p000', points: 7 });
    expect(extra.externalId).toBe('p000');
    const gql = graphqlClient(app, ws);
    const first = await gql.data<{ participant: any }>(
      '{ participant(externalId: "p000") { ledger(first: 1) { nodes { points } pageInfo { hasNextPage endCursor } } } }',
    );
    expect(first.participant.ledger.nodes).toEqual([{ points: 7 }]);
    expect(first.participant.ledger.pageInfo.hasNextPage).toBe(true);
    const next = await gql.data<{ participant: any }>(
      `query($after: String!) { participant(externalId: "p000") {
         ledger(first: 1, after: $after) { nodes { points } pageInfo { hasNextPage hasPreviousPage startCursor } } } }`,
      { after: first.participant.ledger.pageInfo.endCursor },
    );
    expect(next.participant.ledger.nodes).toEqual([{ points: 10 }]);
    expect(next.participant.ledger.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await gql.data<{ participant: any }>(
      `query($before: String!) { participant(externalId: "p000") {
         ledger(last: 1, before: $before) { nodes { points } pageInfo { hasNextPage } } } }`,
      { before: next.participant.ledger.pageInfo.startCursor },
    );
    expect(back.participant.ledger.nodes).toEqual([{ points: 7 }]);
    const bad = await gql(
      '{ participants(first: 2) { nodes { ledger(first: 1, after: "forged.cursor") { nodes { id } } } } }',
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('invalid_request_error');
  });

  it('reads a page of webhook deliveries with payload and attempts in a constant number of statements', async () => {
    // Deliveries as the dispatcher leaves them (the API-role app runs none): delivery n carries
    // `{ n }` and n % 3 failed attempts; the other workspace has deliveries and attempts of its own.
    const seedDeliveries = (w: TestWorkspace, count: number) =>
      app.ctx.pool.query(
        `with s as (
           insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
           values (gen_random_uuid(), $1, 'test', 'https://example.com/hook', '["points.adjusted"]', 'unused')
           returning id
         ), o as (
           insert into outbox (id, workspace_id, mode, type, data)
           select gen_random_uuid(), $1, 'test', 'points.adjusted', jsonb_build_object('n', g)
             from generate_series(1, $2::int) g
           returning id, (data->>'n')::int as n
         ), d as (
           insert into webhook_deliveries (id, workspace_id, mode, subscription_id, outbox_id, type, body, status, attempt_count)
           select gen_random_uuid(), $1, 'test', s.id, o.id, 'points.adjusted', json_build_object('n', o.n)::text, 'dead', o.n % 3
             from s, o
           returning id, attempt_count
         )
         insert into webhook_attempts (delivery_id, number, attempted_at, status_code, duration_ms, error)
         select d.id, g, now(), 500, 10, 'HTTP 500' from d, generate_series(1, d.attempt_count) g`,
        [w.id, count],
      );
    await seedDeliveries(ws, 60);
    await seedDeliveries(other, 60);
    const DELIVERIES = `query($first: Int!) {
      webhookDeliveries(first: $first) { nodes { id attemptCount payload attempts { number statusCode error } } }
    }`;
    const gql = graphqlClient(app, ws);
    const { statements: few } = await counting(() => gql.data(DELIVERIES, { first: 5 }));
    const { result, statements } = await counting(() =>
      gql.data<{ webhookDeliveries: { nodes: any[] } }>(DELIVERIES, { first: 60 }),
    );
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(4);
    expect(statements.length).toBe(few.length);
    const nodes = result.webhookDeliveries.nodes;
    expect(nodes).toHaveLength(60);
    expect(nodes.map((d) => d.payload.n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    for (const d of nodes) {
      const failed = d.payload.n % 3;
      expect(d.attemptCount).toBe(failed);
      expect(d.attempts).toEqual(
        Array.from({ length: failed }, (_, i) => ({ number: i + 1, statusCode: 500, error: 'HTTP 500' })),
      );
    }
  });

  it("reads every board's top places and a participant's standing once per request, as REST does one by one", async () => {
    const BOARDS = `{ leaderboards { key top(limit: 3) { rank externalId score } standing(externalId: "p050") { rank score } }
                      nobody: leaderboards { standing(externalId: "nobody") { rank } } }`;
    const gql = graphqlClient(app, ws);
    const { statements: one } = await counting(() => gql.data(BOARDS)); // `points` only
    for (const period of ['weekly', 'monthly'] as const) {
      const res = await ws.api('/v1/leaderboards', {
        body: { key: `${period}-points`, name: period, period },
      });
      expect(res.status, res.text).toBe(201);
    }
    const { result, statements } = await counting(() =>
      gql.data<{ leaderboards: any[]; nobody: any[] }>(BOARDS),
    );
    // Three boards cost what one does.
    expect(statements.length, statements.join('\n---\n')).toBe(one.length);
    expect(statements.length).toBeLessThanOrEqual(8);
    expect(result.leaderboards.map((b) => b.key).sort()).toEqual([
      'monthly-points',
      'points',
      'weekly-points',
    ]);
    for (const board of result.leaderboards) {
      const top = await ws.api(`/v1/leaderboards/${board.key}?limit=3`);
      expect(board.top).toEqual(
        top.body.data.map((p: any) => ({ rank: p.rank, externalId: p.external_id, score: p.score })),
      );
      const standing = await ws.api(`/v1/leaderboards/${board.key}/participants/p050`);
      expect(board.standing).toEqual(standing.body);
    }
    const points = result.leaderboards.find((b) => b.key === 'points');
    expect(points.top[0]).toEqual({ rank: 1, externalId: 'p099', score: pointsOf(99, 'own') });
    expect(points.standing).toEqual({ rank: 50, score: pointsOf(50, 'own') });
    expect(result.nobody).toEqual([{ standing: null }, { standing: null }, { standing: null }]);
  });
});
